"""Cards, card text, CardSet algebra and decks (as the quartet_solver.cards module docstring states them).

Expected values come from the reference tables below, written from the design
(rank-major index ``4 * rank + suit``, ranks ``2..A`` = ``0..12``, suits
``c d h s`` = ``0..3``), never from the library's own output.
"""

from __future__ import annotations

import copy
import pickle
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver import Card, CardSet, Decks, Rank, Suit, cards, parse_cards
from quartet_solver.cards import as_card, as_cards, format_cards
from quartet_solver.errors import InvalidStateError, NotationError, QuartetError

# -- independent reference -----------------------------------------------------

RANK_TEXT = "23456789TJQKA"
SUIT_TEXT = "cdhs"
# every accepted spelling of each rank (rank number -> spellings)
RANK_SPELLINGS = {r: [ch] for r, ch in enumerate(RANK_TEXT)}
RANK_SPELLINGS[8] = ["T", "t", "10"]
for _r, _ch in ((9, "J"), (10, "Q"), (11, "K"), (12, "A")):
    RANK_SPELLINGS[_r] = [_ch, _ch.lower()]
# every accepted spelling of each suit (suit number -> spellings)
SUIT_SPELLINGS = {
    0: ["c", "C", "♣", "♧", "♣\ufe0f", "♧\ufe0f"],
    1: ["d", "D", "♦", "♢", "♦\ufe0f", "♢\ufe0f"],
    2: ["h", "H", "♥", "♡", "♥\ufe0f", "♡\ufe0f"],
    3: ["s", "S", "♠", "♤", "♠\ufe0f", "♤\ufe0f"],
}
ALL_INDICES = list(range(52))


def canonical(index: int) -> str:
    return RANK_TEXT[index // 4] + SUIT_TEXT[index % 4]


indices = st.integers(min_value=0, max_value=51)
index_sets = st.frozensets(indices)


@st.composite
def spelled_card(draw):
    """(index, some accepted spelling of that card)."""
    rank = draw(st.integers(0, 12))
    suit = draw(st.integers(0, 3))
    text = draw(st.sampled_from(RANK_SPELLINGS[rank])) + draw(st.sampled_from(SUIT_SPELLINGS[suit]))
    return 4 * rank + suit, text


def cs(indices_) -> CardSet:
    """Build a CardSet from indices through text (not through from_mask)."""
    return CardSet(" ".join(canonical(i) for i in indices_))


def idx(cardset: CardSet) -> frozenset[int]:
    return frozenset(c.index for c in cardset)


# -- single cards --------------------------------------------------------------


@pytest.mark.parametrize("index", ALL_INDICES)
def test_every_card_canonical_text_round_trip(index):
    text = canonical(index)
    card = Card(text)
    assert card is Card.parse(text)
    assert str(card) == text
    assert repr(card) == f"Card('{text}')"
    assert eval(repr(card), {"Card": Card}) is card
    assert card.index == index
    assert card.rank == Rank(index // 4) and int(card.rank) == index // 4
    assert card.suit == Suit(index % 4) and int(card.suit) == index % 4
    assert Card(index // 4, index % 4) is card
    assert Card(Rank(index // 4), Suit(index % 4)) is card
    assert Card.from_index(index) is card
    assert card.mask == 1 << index
    assert hash(card) == hash(Card.from_index(index))


@given(spelled_card(), st.sampled_from(["", " ", "  ", "\t"]), st.sampled_from(["", " ", "\n"]))
def test_every_spelling_parses(spelled, lead, trail):
    index, text = spelled
    card = Card.parse(lead + text + trail)
    assert card.index == index
    assert str(card) == canonical(index)
    assert Card(text) is card
    assert as_card(text) is card
    assert parse_cards(lead + text + trail) == [card]


@pytest.mark.parametrize("rank", range(13))
@pytest.mark.parametrize("suit", range(4))
def test_all_spellings_exhaustively(rank, suit):
    for r in RANK_SPELLINGS[rank]:
        for s in SUIT_SPELLINGS[suit]:
            assert Card.parse(r + s).index == 4 * rank + suit, r + s


@pytest.mark.parametrize("rank", range(13))
def test_card_from_rank_and_suit_text(rank):
    for r in RANK_SPELLINGS[rank]:
        for suit in range(4):
            for s in SUIT_SPELLINGS[suit]:
                assert Card(r, s).index == 4 * rank + suit


def test_rank_and_suit_enums():
    assert [r.char for r in Rank] == list(RANK_TEXT)
    assert [s.char for s in Suit] == list(SUIT_TEXT)
    assert [s.symbol for s in Suit] == list("♣♦♥♠")
    assert Rank.parse("10") is Rank.TEN and Rank.parse("t") is Rank.TEN
    assert Suit.parse("♥\ufe0f") is Suit.HEARTS and Suit.parse("♤") is Suit.SPADES
    assert Card("10h").pretty() == "T♥"


def test_enums_have_no_truth_value():
    """Clubs, the two and the high card are 0 as ints: a truth test on them would
    read them as "nothing", so every truth test on the enums is refused."""
    from quartet_solver.quintet.hands import Category

    for member in (*Suit, *Rank, *Category):
        with pytest.raises(TypeError, match="has no truth value"):
            bool(member)
        with pytest.raises(TypeError):
            _ = member or None
    assert Suit.CLUBS is not None and Suit.CLUBS == 0  # comparisons keep working


def test_negative_and_non_integer_seeds_are_refused_in_all_three_games():
    """random.Random seeds itself with abs(seed): -7 once gave the stream of 7."""
    from quartet_solver import klaverjas, kwartet, quintet

    makers = [
        lambda seed: klaverjas.Deal.random(seed=seed),
        lambda seed: quintet.Deal.random(seed=seed),
        lambda seed: kwartet.Game(kwartet.Deck.standard("AKQJT987"), players=3, seed=seed),
        lambda seed: Decks.shuffled(Decks.piquet(), seed=seed),
        lambda seed: klaverjas.RandomBot(seed),
    ]
    for make in makers:
        for bad in (-1, -7, 1.5, float("nan"), True, [1]):
            with pytest.raises(InvalidStateError, match="seed must be an int >= 0"):
                make(bad)
        make(0), make(2**70), make("text")
    deals = {klaverjas.Deal.random(seed=s) for s in range(50)}
    assert len(deals) == 50  # distinct seeds, distinct deals


@given(indices)
def test_pickle_and_copy_keep_identity(index):
    card = Card.from_index(index)
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(card, protocol=proto)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert copy.deepcopy([card, card])[0] is card


@given(indices, indices)
def test_card_order_is_index_order(a, b):
    ca, cb = Card.from_index(a), Card.from_index(b)
    assert (ca < cb) == (a < b)
    assert (ca <= cb) == (a <= b)
    assert (ca > cb) == (a > b)
    assert (ca >= cb) == (a >= b)
    assert (ca == cb) == (a == b)
    assert (ca != cb) == (a != b)


def test_card_is_immutable():
    card = Card("Th")
    with pytest.raises(AttributeError):
        card._index = 3
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE
    with pytest.raises(AttributeError):
        card.anything = 1
    with pytest.raises(AttributeError):
        del card._index
    assert card.index == 34 and str(card) == "Th"


def test_cardset_is_immutable():
    s = CardSet("Ah Kh")
    with pytest.raises(AttributeError):
        s._mask = 0
    with pytest.raises(AttributeError):
        s.anything = 1
    assert int(s) == (1 << 50) | (1 << 46)


# -- card lists ----------------------------------------------------------------


@st.composite
def spelled_list(draw):
    """(indices with repeats, text with mixed separators)."""
    items = draw(st.lists(spelled_card(), min_size=1, max_size=12))
    seps = draw(
        st.lists(
            st.sampled_from([" ", ",", ", ", " ,", "  ", ",,", "\t", "\n", " , "]),
            min_size=len(items) - 1,
            max_size=len(items) - 1,
        )
    )
    lead = draw(st.sampled_from(["", " ", ", "]))
    trail = draw(st.sampled_from(["", " ", ","]))
    text = lead + items[0][1]
    for sep, (_, t) in zip(seps, items[1:]):
        text += sep + t
    return [i for i, _ in items], text + trail


@given(spelled_list())
def test_parse_cards_keeps_order_and_duplicates(case):
    expected, text = case
    cards = parse_cards(text)
    assert [c.index for c in cards] == expected
    assert all(isinstance(c, Card) for c in cards)
    assert as_cards(text) == cards
    assert format_cards(cards) == " ".join(canonical(i) for i in expected)
    assert format_cards(cards, sep=",") == ",".join(canonical(i) for i in expected)


def test_parse_cards_examples():
    assert [str(c) for c in parse_cards("10h, A♠ kd")] == ["Th", "As", "Kd"]
    assert [str(c) for c in parse_cards("Ah,Ah ah")] == ["Ah", "Ah", "Ah"]
    assert [str(c) for c in parse_cards("7C,8c  9♣️")] == ["7c", "8c", "9c"]
    assert parse_cards("", allow_empty=True) == []
    assert parse_cards(" , ", allow_empty=True) == []


def test_as_cards_accepts_all_card_likes():
    ah, kd = Card("Ah"), Card("Kd")
    assert as_cards("Ah Kd") == [ah, kd]
    assert as_cards(ah) == [ah]
    assert as_cards(["Ah", kd]) == [ah, kd]
    assert as_cards(("ah", "10d")) == [ah, Card("Td")]
    assert as_cards(iter([kd, ah])) == [kd, ah]
    assert as_cards(CardSet("Kd Ah")) == [kd, ah]  # canonical order of a set
    assert as_cards("Ah ah") == [ah, ah]


@settings(max_examples=500)
@given(st.text())
def test_parse_cards_fuzz_only_notation_error(text):
    try:
        result = parse_cards(text)
    except NotationError:
        return
    assert isinstance(result, list) and result
    assert all(isinstance(c, Card) for c in result)


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("23456789TJQKAtjqka10cdhsCDHS♣♦♥♠♧♢♡♤\ufe0f ,x"))))
def test_parse_cards_fuzz_card_alphabet(text):
    try:
        result = parse_cards(text)
    except NotationError:
        return
    # anything accepted re-parses from its canonical text to the same cards
    assert parse_cards(format_cards(result)) == result


# -- errors --------------------------------------------------------------------


def _notation_error(fn, *args):
    with pytest.raises(NotationError) as info:
        fn(*args)
    exc = info.value
    assert isinstance(exc, ValueError) and isinstance(exc, QuartetError)
    return str(exc)


@pytest.mark.parametrize("text", ["", "   ", "\t\n", " , ", ","])
def test_empty_text(text):
    assert repr(text) in _notation_error(parse_cards, text)
    assert repr(text) in _notation_error(Card.parse, text)
    assert repr(text) in _notation_error(Card, text)


def test_empty_card_parse():
    msg = _notation_error(Card.parse, "")
    assert "''" in msg
    msg = _notation_error(Card, "  ")
    assert "'  '" in msg


@pytest.mark.parametrize(
    "text, token",
    [("Xh", "Xh"), ("1h", "1h"), ("11h", "11h"), ("Ax", "Ax"), ("A", "A"), ("0h", "0h"), ("10", "10")],
)
def test_bad_card_names_token(text, token):
    for fn in (Card.parse, Card, as_card, CardSet):
        assert f"'{token}'" in _notation_error(fn, text)
    # inside a list the bad token is still quoted, and the whole text too
    whole = f"Ah, {text} 7c"
    msg = _notation_error(parse_cards, whole)
    assert f"'{token}'" in msg
    assert repr(whole) in msg


def test_bad_rank_and_suit_say_which_part():
    assert re.search(r"rank 'X'", _notation_error(Card.parse, "Xh"))
    assert re.search(r"rank '11'", _notation_error(Card.parse, "11h"))
    assert re.search(r"suit 'x'", _notation_error(Card.parse, "Ax"))
    assert "'1'" in _notation_error(Rank.parse, "1")
    assert "'x'" in _notation_error(Suit.parse, "x")


@pytest.mark.parametrize("value", [None, 5, 3.0, b"Ah", ["Ah"]])
def test_non_string_input(value):
    for fn in (Card.parse, parse_cards, CardSet.parse):
        assert repr(value) in _notation_error(fn, value)
    if not isinstance(value, list):
        assert repr(value) in _notation_error(Card, value)
        assert repr(value) in _notation_error(as_card, value)


@pytest.mark.parametrize("value", [None, 5, 3.0])
def test_non_iterable_card_set(value):
    assert repr(value) in _notation_error(as_cards, value)
    if value is not None:  # CardSet(None) is the empty set
        assert repr(value) in _notation_error(CardSet, value)


def test_bad_rank_suit_values():
    _notation_error(Card, 13, 0)
    _notation_error(Card, -1, 0)
    _notation_error(Card, 0, 4)
    _notation_error(Card, True, 0)
    _notation_error(Card, "X", "h")
    _notation_error(Card, "A", "x")
    for bad in (52, -1, True, 1.0, "1"):
        with pytest.raises(InvalidStateError):
            Card.from_index(bad)


def test_duplicate_card_in_set_is_named():
    msg = _notation_error(CardSet, "Ah ah")
    assert "'Ah'" in msg and "duplicate" in msg
    msg = _notation_error(CardSet, ["Kd", "7c", Card("Kd")])
    assert "'Kd'" in msg
    msg = _notation_error(lambda: as_cards("Ah Kd 10d Td", distinct=True, what="hand"))
    assert "'Td'" in msg and "hand" in msg
    assert as_cards("Ah Kd", distinct=True) == [Card("Ah"), Card("Kd")]


def test_remove_absent_card():
    s = CardSet("Ah Kh")
    with pytest.raises(InvalidStateError) as info:
        s.without_card("Qh")
    assert "'Qh'" in str(info.value)
    assert isinstance(info.value, QuartetError)
    assert s == CardSet("Ah Kh")  # unchanged


# -- CardSet algebra against frozenset -------------------------------------------


@given(index_sets)
def test_cardset_basics(a):
    s = cs(a)
    assert idx(s) == a
    assert len(s) == len(a)
    assert bool(s) == bool(a)
    assert [c.index for c in s] == sorted(a)
    assert [c.index for c in s.cards()] == sorted(a)
    expected_mask = sum(1 << i for i in a)
    assert int(s) == s.mask == expected_mask
    assert CardSet.from_mask(expected_mask) == s
    assert CardSet.from_mask(int(s)) == s
    assert str(s) == " ".join(canonical(i) for i in sorted(a))
    assert repr(s) == f"CardSet('{s}')"
    assert eval(repr(s), {"CardSet": CardSet}) == s
    assert CardSet(s) == s
    assert CardSet([Card.from_index(i) for i in a]) == s
    assert CardSet.parse(str(s)) == s
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(s) == s
    for i in range(52):
        c = Card.from_index(i)
        assert (c in s) == (i in a)
        assert (canonical(i) in s) == (i in a)
        assert (canonical(i).lower() in s) == (i in a)
    assert 5 not in s and None not in s


@given(index_sets, index_sets)
def test_cardset_binary_ops(a, b):
    sa, sb = cs(a), cs(b)
    assert idx(sa | sb) == a | b
    assert idx(sa & sb) == a & b
    assert idx(sa - sb) == a - b
    assert idx(sa ^ sb) == a ^ b
    assert (sa <= sb) == (a <= b)
    assert (sa < sb) == (a < b)
    assert (sa >= sb) == (a >= b)
    assert (sa > sb) == (a > b)
    assert (sa == sb) == (a == b)
    assert (sa != sb) == (a != b)
    if a == b:
        assert hash(sa) == hash(sb)
    assert sa.issubset(sb) == a.issubset(b)
    assert sa.issuperset(sb) == a.issuperset(b)
    assert sa.isdisjoint(sb) == a.isdisjoint(b)
    assert idx(sa.symmetric_difference(sb)) == a ^ b
    # other forms of the argument
    text_b = " ".join(canonical(i) for i in b)
    list_b = [Card.from_index(i) for i in b]
    assert sa.issubset(text_b) == a.issubset(b)
    assert sa.issuperset(list_b) == a.issuperset(b)
    assert sa.isdisjoint(text_b) == a.isdisjoint(b)
    assert idx(sa.union(text_b)) == a | b
    assert idx(sa.intersection(list_b)) == a & b
    assert idx(sa.difference(text_b)) == a - b


@given(index_sets, st.lists(index_sets, max_size=4))
def test_cardset_multi_arg_methods(a, others):
    sa = cs(a)
    args = [cs(o) for o in others]
    union, inter, diff = set(a), set(a), set(a)
    for o in others:
        union |= o
        inter &= o
        diff -= o
    assert idx(sa.union(*args)) == union
    assert idx(sa.intersection(*args)) == inter
    assert idx(sa.difference(*args)) == diff
    # mixing text, lists and sets as arguments gives the same result
    mixed = [
        " ".join(canonical(i) for i in o) if k % 3 == 0 else [Card.from_index(i) for i in o] if k % 3 == 1 else cs(o)
        for k, o in enumerate(others)
    ]
    assert idx(sa.union(*mixed)) == union
    assert idx(sa.intersection(*mixed)) == inter
    assert idx(sa.difference(*mixed)) == diff


@given(index_sets, indices)
def test_cardset_with_single_card(a, i):
    sa, c = cs(a), Card.from_index(i)
    assert idx(sa.with_card(c)) == a | {i}
    assert idx(sa.with_card(canonical(i))) == a | {i}
    assert idx(sa.without_card(c, missing_ok=True)) == a - {i}
    assert idx(sa.without_card(canonical(i), missing_ok=True)) == a - {i}
    assert idx(sa | c) == a | {i}
    assert idx(c | sa) == a | {i}
    assert idx(sa & c) == a & {i}
    assert idx(sa - c) == a - {i}
    assert idx(sa ^ c) == a ^ {i}
    if i in a:
        assert idx(sa.without_card(c)) == a - {i}
        assert idx(sa.without_card(canonical(i))) == a - {i}
    else:
        with pytest.raises(InvalidStateError):
            sa.without_card(c)
    assert idx(sa) == a  # operations never mutate


@given(index_sets, index_sets)
def test_cardset_hash_and_dict_keys(a, b):
    d = {cs(a): "a"}
    assert (cs(b) in d) == (a == b)
    assert cs(a) == CardSet.from_mask(sum(1 << i for i in a))
    assert hash(cs(a)) == hash(CardSet.from_mask(sum(1 << i for i in a)))


def test_cardset_empty_and_examples():
    assert len(CardSet()) == 0 and not CardSet() and int(CardSet()) == 0
    assert CardSet("") == CardSet()
    assert str(CardSet("Ah Kh Qh") | CardSet("Jh")) == "Jh Qh Kh Ah"
    assert CardSet("10h") == CardSet("Th")
    with pytest.raises(TypeError):
        CardSet("Ah") <= frozenset()
    assert CardSet("Ah") != frozenset([Card("Ah")])


@pytest.mark.parametrize("bad", [-1, 1 << 52, True, 1.0, "3"])
def test_from_mask_rejects_out_of_range(bad):
    with pytest.raises(InvalidStateError):
        CardSet.from_mask(bad)


# -- decks -------------------------------------------------------------------------


def test_piquet_deck():
    d = Decks.piquet()
    assert len(d) == 32
    expected = {4 * r + s for r in range(5, 13) for s in range(4)}  # ranks 7..A
    assert idx(d) == expected
    assert {str(c)[0] for c in d} == set("789TJQKA")
    assert str(d).split()[:5] == ["7c", "7d", "7h", "7s", "8c"]


def test_full_deck():
    d = Decks.full()
    assert len(d) == 52
    assert idx(d) == set(range(52))
    assert [str(c) for c in d] == [canonical(i) for i in range(52)]


@pytest.mark.parametrize(
    "ranks, chars",
    [
        ("AKQJ", "AKQJ"),
        ("10", "T"),
        ("t", "T"),
        ("AK10", "AKT"),
        ("A K, Q 10", "AKQT"),
        ("789TJQKA", "789TJQKA"),
        ("23456789TJQKA", RANK_TEXT),
        ([Rank.ACE, Rank.KING], "AK"),
        ([12, 0], "A2"),
    ],
)
def test_of_ranks(ranks, chars):
    d = Decks.of_ranks(ranks)
    expected = {4 * RANK_TEXT.index(ch) + s for ch in chars for s in range(4)}
    assert idx(d) == expected
    assert len(d) == 4 * len(set(chars))


def test_of_ranks_equals_piquet():
    assert Decks.of_ranks("789TJQKA") == Decks.piquet()
    assert Decks.of_ranks("23456789TJQKA") == Decks.full()


@pytest.mark.parametrize("bad", ["X", "1", "AKX", "0"])
def test_of_ranks_bad_text(bad):
    with pytest.raises(NotationError):
        Decks.of_ranks(bad)


@given(st.integers(min_value=0, max_value=2**40))
def test_shuffled_deterministic_permutation(seed):
    deck = Decks.piquet()
    a = Decks.shuffled(deck, seed=seed)
    b = Decks.shuffled(deck, seed=seed)
    assert a == b
    assert sorted(c.index for c in a) == sorted(c.index for c in deck)
    assert len(a) == 32
    # same result from other spellings of the deck
    assert Decks.shuffled(list(deck), seed=seed) == a
    assert Decks.shuffled(str(deck), seed=seed) == a
    assert deck == Decks.piquet()  # the input is not mutated


def test_shuffled_depends_on_seed():
    full = Decks.full()
    orders = {tuple(c.index for c in Decks.shuffled(full, seed=s)) for s in range(20)}
    assert len(orders) == 20  # 52! orders: collisions would be astronomically unlikely


def test_shuffled_rejects_duplicates():
    with pytest.raises(NotationError):
        Decks.shuffled("Ah Ah Kd", seed=1)


def test_cardset_attribute_cannot_be_deleted():
    s = CardSet("Ah Kh")
    with pytest.raises(AttributeError):
        del s._mask
    assert len(s) == 2


def test_shuffled_seed_types():
    """numpy integers seed like ints; other seeds raise InvalidStateError (once: a bare TypeError from random)."""
    np = pytest.importorskip("numpy")
    assert Decks.shuffled(Decks.piquet(), seed=np.int64(4)) == Decks.shuffled(Decks.piquet(), seed=4)
    for bad in ([1], 1.5, True):
        with pytest.raises(InvalidStateError, match="seed must be an int >= 0, a string or None"):
            Decks.shuffled("Ah Kh", seed=bad)  # type: ignore[arg-type]


def test_numpy_integers_and_bad_inputs_in_the_card_helpers():
    """numpy integers where ints are taken (once refused); format_cards and
    Decks.of_ranks refuse what is not cards or ranks with a typed error (once a
    bare TypeError)."""
    import numpy as np

    from quartet_solver.cards import format_cards

    assert Card.from_index(np.int64(3)) == Card.from_index(3)
    assert CardSet.from_mask(np.uint64(5)) == CardSet.from_mask(5) and type(int(CardSet.from_mask(np.uint64(5)))) is int
    assert format_cards("Ah 7c") == format_cards([Card("Ah"), "7c"]) == "Ah 7c"
    for bad in (5, None, [object()]):
        with pytest.raises(NotationError):
            format_cards(bad)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="ranks must be text or an iterable of ranks, got 5"):
        Decks.of_ranks(5)  # type: ignore[arg-type]


def test_the_old_names_still_work_and_say_they_are_deprecated():
    hand = CardSet("Ah Kh")
    with pytest.warns(DeprecationWarning, match="with_card"):
        assert hand.add("Qh") == CardSet("Qh Kh Ah")
    with pytest.warns(DeprecationWarning, match="without_card"):
        assert hand.remove("Kh") == CardSet("Ah")
    with pytest.warns(DeprecationWarning, match="missing_ok=True"):
        assert hand.discard("Qh") == hand
    assert hand == CardSet("Ah Kh")
    import quartet_solver
    from quartet_solver import cards

    with pytest.warns(DeprecationWarning, match="Decks"):
        assert quartet_solver.Deck is quartet_solver.Decks
    with pytest.warns(DeprecationWarning, match="Decks"):
        assert cards.Deck is cards.Decks


@given(index_sets)
def test_piquet_bit_layout_round_trips(a):
    piquet = {i for i in a if 20 <= i < 52}
    s = cs(piquet)
    mask = cards.piquet_mask(s)
    assert mask == sum(1 << (i - 20) for i in piquet) and 0 <= mask < 2**32
    assert cards.piquet_set(mask) == s
    assert [cards.piquet_bit(c) for c in s] == [i - 20 for i in sorted(piquet)]
    assert [cards.piquet_card(i - 20) for i in sorted(piquet)] == s.cards()
