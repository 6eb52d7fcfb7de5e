"""Kwartet: the Dutch asking-and-collecting game of quartets."""
