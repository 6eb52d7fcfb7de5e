"""The ``quartet-solver kwartet`` commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def register(parser: argparse.ArgumentParser, add_common: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the kwartet commands to the ``kwartet`` group parser."""
    parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=type(parser))
