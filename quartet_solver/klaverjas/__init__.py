"""Klaverjas: the Dutch four-player trick-taking game."""
