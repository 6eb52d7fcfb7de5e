"""The browser Klaverjas game: its server (``quartet-solver klaverjas serve``).

- :mod:`~quartet_solver.klaverjas.web.session`: the games, independent of HTTP
  (deals, the computer players, the log of actions, replays, idempotent moves);
- :mod:`~quartet_solver.klaverjas.web.storage`: every database access (SQLite);
- :mod:`~quartet_solver.klaverjas.web.app`: the FastAPI app and ``serve``
  (needs the ``web`` extra: ``pip install ".[web]"`` in the project folder);
- ``static/``: the page.

The JSON API is described in ``docs/klaverjas_web_api.md``.  Importing this
package does not import FastAPI.
"""

from .session import Game, GameError, GameService, state_leaks
from .storage import Storage, default_db_path

__all__ = ["Game", "GameError", "GameService", "Storage", "default_db_path", "state_leaks"]
