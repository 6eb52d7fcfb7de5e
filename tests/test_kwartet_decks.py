"""Kwartet decks: standard and themed decks, file loading, fuzzed bad input, CLI."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from quartet_solver.errors import InvalidStateError, NotationError, QuartetError
from quartet_solver.kwartet import THEMED_DECKS, Deck, Quartet


def test_standard_decks():
    d = Deck.standard()
    assert len(d) == 52 and d.n_quartets == 13 and d.is_standard
    assert d.card("7h") == 4 * 5 + 2 and d.card_name(d.card("10s")) == "Ts"
    small = Deck.standard("AKQJ")
    assert small.quartet_names == ("J", "Q", "K", "A")
    with pytest.raises(NotationError, match="not in the deck"):
        small.card("7h")
    with pytest.raises(NotationError):
        Deck.standard("AAK")
    with pytest.raises(NotationError):
        Deck.standard("X")
    with pytest.raises(InvalidStateError):
        Deck.standard("A")  # one quartet is not a game


@pytest.mark.parametrize("name", list(THEMED_DECKS))
def test_themed_decks(name):
    d = Deck.themed(name)
    assert len(d) in (32, 40, 48)
    assert Deck.themed(len(d)) == d
    assert len(set(map(str.casefold, d.cards))) == len(d)
    for i in range(len(d)):
        assert d.card(d.card_name(i)) == i
        assert d.card(d.full_name(i)) == i
    assert Deck.from_dict(d.to_dict()) == d
    assert Deck.loads(json.dumps(d.to_dict())) == d


def test_file_loading(tmp_path):
    d = Deck.themed("nature")
    p = tmp_path / "deck.json"
    p.write_text(json.dumps(d.to_dict()), encoding="utf-8")
    assert Deck.from_file(p) == d
    toml = 'name = "mini"\n' + "".join(
        f'[[quartets]]\nname = "{q}"\ncards = ["{q}1", "{q}2", "{q}3", "{q}4"]\n' for q in "ABC"
    )
    t = tmp_path / "deck.toml"
    t.write_text(toml, encoding="utf-8")
    try:
        import tomllib  # noqa: F401
    except ImportError:
        with pytest.raises(InvalidStateError, match="3.11"):
            Deck.from_file(t)
    else:
        m = Deck.from_file(t)
        assert m.name == "mini" and len(m) == 12 and m.card("B3") == 6
    with pytest.raises(InvalidStateError, match="cannot read"):
        Deck.from_file(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(NotationError, match="invalid JSON"):
        Deck.from_file(bad)


@pytest.mark.parametrize(
    "data, match",
    [
        ([], "table"),
        ({"quartets": []}, "2..13"),
        ({"quartets": {"A": ["a", "b", "c"]}}, "exactly 4"),
        ({"quartets": {"A": ["a", "b", "c", "a"], "B": ["1", "2", "3", "4"]}}, "repeats a card"),
        ({"quartets": [{"name": "A", "cards": ["a", "b", "c", "d"]}, {"name": "a", "cards": ["1", "2", "3", "4"]}]},
         "repeats the quartet"),
        ({"quartets": [{"name": "", "cards": ["a", "b", "c", "d"]}]}, "non-empty"),
        ({"quartets": [{"cards": ["a", "b", "c", "d"]}]}, "'name' and 'cards'"),
        ({"quartets": {"A": "abcd"}}, "list of 4"),
        ({"quartets": {"A": [1, 2, 3, 4]}}, "non-empty text"),
        ({"name": 3, "quartets": {}}, "deck name"),
    ],
)
def test_malformed_decks(data, match):
    with pytest.raises(InvalidStateError, match=match):
        Deck.from_dict(data)


def test_shared_card_names_need_the_quartet():
    d = Deck.from_dict({"quartets": {"X": ["a", "b", "c", "d"], "Y": ["a", "e", "f", "g"]}})
    with pytest.raises(NotationError):
        d.card("a")
    assert d.card("Y: a") == 4
    assert Quartet("Q", ("1", "2", "3", "4")).to_dict()["cards"] == ["1", "2", "3", "4"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.text(max_size=6), kids, max_size=5),
    max_leaves=30,
)


@given(json_values)
def test_fuzz_from_dict_never_crashes(data):
    try:
        Deck.from_dict(data)
    except QuartetError:
        pass


@given(st.dictionaries(st.sampled_from(["name", "quartets"]),
                       st.dictionaries(st.text(max_size=4), st.lists(st.text(max_size=3), max_size=5), max_size=14)))
def test_fuzz_quartet_tables(data):
    try:
        d = Deck.from_dict(data)
    except QuartetError:
        return
    assert 8 <= len(d) <= 52 and len(d) % 4 == 0


@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_fuzz_loads(raw):
    for fmt in ("json", "toml"):
        try:
            Deck.loads(raw, fmt=fmt)
        except QuartetError:
            pass


@given(st.one_of(st.text(max_size=12), st.integers(-5, 60), st.none(), st.floats()))
def test_fuzz_card_lookup(token):
    for d in (Deck.standard("AKQJ"), Deck.themed()):
        try:
            i = d.card(token)  # type: ignore[arg-type]
        except QuartetError:
            continue
        assert 0 <= i < len(d)
        try:
            d.quartet(token)  # type: ignore[arg-type]
        except QuartetError:
            pass


def test_standard_ranks_that_are_not_a_list():
    for bad in (None, 5, 3.5):
        with pytest.raises(NotationError, match="ranks must be text or a list of ranks"):
            Deck.standard(bad)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="repeated rank"):
        Deck.standard(itertools.repeat(3))  # endless: stops at the first repeat
    assert Deck.standard(iter([0, 12])) == Deck.standard("2A")


def test_quartet_card_names_equal_up_to_spaces_are_repeats():
    # both names look up as "a b": the first card could not be named
    with pytest.raises(InvalidStateError, match="repeats a card name"):
        Quartet("X", ("a b", "a  B", "c", "d"))


def test_quartet_cards_must_be_an_ordered_short_list():
    with pytest.raises(InvalidStateError, match="exactly 4 cards, got more than 4"):
        Quartet("X", range(10**12))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="exactly 4 cards, got more than 4"):
        Quartet("X", itertools.repeat("a"))  # type: ignore[arg-type]
    for unordered in ({"a", "b", "c", "d"}, {"a": 1, "b": 1, "c": 1, "d": 1}):
        with pytest.raises(InvalidStateError, match="list of 4 names"):
            Quartet("X", unordered)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="list of 4 names"):
        Deck.from_dict({"quartets": {"A": {"w": 1, "x": 2, "y": 3, "z": 4}, "B": ["1", "2", "3", "4"]}})
    with pytest.raises(InvalidStateError, match="list of quartets"):
        Deck({Quartet(q, tuple(q + c for c in "1234")) for q in "AB"})  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="2..13 quartets, got more than 13"):
        Deck(Quartet(f"Q{i}", tuple(f"c{i}.{j}" for j in range(4))) for i in itertools.count())  # type: ignore[arg-type]


def test_full_names_always_name_their_card():
    # quartet "A" holds "b"; quartet "X" holds a card named "A: b", the full name of the first
    d = Deck([Quartet("A", ("b", "c", "d", "e")), Quartet("X", ("A: b", "f", "g", "h"))])
    assert [d.card(d.full_name(i)) for i in range(len(d))] == list(range(len(d)))
    assert d.card("A: b") == 0 and d.card("X: A: b") == 4
    with pytest.raises(InvalidStateError, match="share the full name"):
        Deck([Quartet("A", ("B: c", "x", "y", "z")), Quartet("A: B", ("c", "f", "g", "h"))])


def test_from_file_bad_paths():
    for bad in (None, 5, ["deck.json"]):
        with pytest.raises(InvalidStateError, match="path must be text or a Path"):
            Deck.from_file(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="cannot read deck file"):
        Deck.from_file("deck\0.json")


def test_mask_of_an_endless_iterable_stops():
    d = Deck.themed()
    with pytest.raises(NotationError, match="out of range"):
        d.mask(range(10**12))
    with pytest.raises(NotationError, match="given twice"):
        d.mask(itertools.repeat(3))
    assert d.mask(iter([0, 5])) == 0b100001


def test_names_and_format_need_a_mask_of_the_deck():
    d = Deck.standard("KA")
    for bad in (-1, 1 << 8, None, "x", 1.5, True):
        with pytest.raises(InvalidStateError, match="card mask"):
            d.names(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError, match="card mask"):
            d.format(bad)  # type: ignore[arg-type]
    assert d.format(np.int64(0b10000001)) == "Kc As" and d.names(0) == []


def test_quartet_of_needs_a_card_index():
    for bad in (-5, "x", None, True, 1.0):
        with pytest.raises(NotationError, match="not a card index"):
            Deck.quartet_of(bad)  # type: ignore[arg-type]
    assert Deck.quartet_of(7) == 1 and Deck.quartet_of(np.int64(8)) == 2

