"""The ``quartet-solver klaverjas`` commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def register(parser: argparse.ArgumentParser, add_common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the klaverjas commands to the ``klaverjas`` group parser."""
    parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(parser))
