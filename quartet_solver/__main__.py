"""``python -m quartet_solver`` runs the command-line interface."""

from .cli import main

raise SystemExit(main())
