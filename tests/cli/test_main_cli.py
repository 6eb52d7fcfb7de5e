"""The top-level command line: help, the ``cards`` command and usage errors.

Every command runs once, all in parallel, in a module-scoped fixture; the tests
then inspect the results.
"""

from __future__ import annotations

import json

import pytest
from clirun import ok, run_all

COMMANDS = {
    "help": ["--help"],
    "help_cards": ["cards", "--help"],
    "help_quintet": ["quintet", "--help"],
    "help_klaverjas": ["klaverjas", "--help"],
    "help_kwartet": ["kwartet", "--help"],
    "cards": ["cards", "10h, A♠ kd"],
    "cards_json": ["cards", "10h, A♠ kd", "--json"],
    "bad_hand": ["quintet", "eval", "Ah Kh"],
    "bad_card": ["cards", "Xh"],
    "bad_group": ["nosuchgame"],
    "no_command_quintet": ["quintet"],
    "no_command_klaverjas": ["klaverjas"],
    "no_group": [],
}


@pytest.fixture(scope="module")
def results():
    return run_all(COMMANDS)


def test_top_level_help_mentions_the_three_games(results):
    out = ok(results, "help").lower()
    for word in ("quintet", "klaverjas", "kwartet", "cards"):
        assert word in out


@pytest.mark.parametrize("group", ["cards", "quintet", "klaverjas", "kwartet"])
def test_group_help(results, group):
    out = ok(results, f"help_{group}")
    assert f"quartet-solver {group}" in out  # usage line names the group
    if group == "quintet":
        assert "eval" in out


def test_cards_canonical_text(results):
    out = ok(results, "cards")
    assert out.strip() == "Th As Kd"


def test_cards_json(results):
    doc = json.loads(ok(results, "cards_json"))
    assert doc["cards"] == ["Th", "As", "Kd"]
    assert doc["count"] == 3


@pytest.mark.parametrize(
    "name, needle",
    [
        ("bad_hand", "5 cards"),
        ("bad_card", "'X"),
        ("bad_group", "nosuchgame"),
        ("no_command_quintet", "quintet"),
        ("no_command_klaverjas", "klaverjas"),
        ("no_group", "group"),
    ],
)
def test_bad_input_exits_2_with_one_line(results, name, needle):
    code, out, err = results[name]
    assert code == 2, (name, code, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("quartet-solver")
    assert "error" in lines[0]
    assert needle in lines[0]
    assert out == ""
