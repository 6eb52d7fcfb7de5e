"""Quintet hand evaluation against the slow reference in tests/reference/quintet_hands.py."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import quintet_hands as ref
from quartet_solver import Card, CardSet, quintet
from quartet_solver.errors import InvalidStateError, NotationError, QuartetError
from quartet_solver.quintet import Category

SUITS = "cdhs"
RANKS = "789TJQKA"


def text_of(cards32: tuple[int, ...]) -> str:
    return " ".join(RANKS[i // 4] + SUITS[i % 4] for i in cards32)


def mask_of(cards32) -> int:
    return sum(1 << i for i in cards32)


@pytest.fixture(scope="module")
def all_hands():
    hands = list(ref.all_hands())
    masks = np.array([mask_of(h) for h in hands], dtype=np.uint32)
    return hands, masks


@pytest.fixture(scope="module", params=["seed", "full"])
def reference(request, all_hands):
    hands, _ = all_hands
    return request.param, [ref.reference_key(h, request.param) for h in hands]


hands5 = st.lists(st.integers(0, 31), min_size=5, max_size=5, unique=True)


def test_category_counts(all_hands):
    hands, masks = all_hands
    strengths = quintet.evaluate_masks(masks)
    values = quintet.hand_values()
    counts = Counter(values[s].category for s in strengths.tolist())
    assert counts == {
        Category.HIGH_CARD: 52_020,
        Category.PAIR: 107_520,
        Category.TWO_PAIR: 24_192,
        Category.THREE_OF_A_KIND: 10_752,
        Category.STRAIGHT: 5_100,
        Category.FULL_HOUSE: 1_344,
        Category.FLUSH: 204,
        Category.FOUR_OF_A_KIND: 224,
        Category.STRAIGHT_FLUSH: 20,
    }
    assert len(hands) == 201_376


def test_class_counts(all_hands):
    _, masks = all_hands
    assert len(np.unique(quintet.evaluate_masks(masks))) == 296
    assert len(quintet.hand_values()) == 296
    assert len(np.unique(quintet.evaluate_masks(masks, kickers="full"))) == len(quintet.hand_values(kickers="full"))


def test_same_order_and_ties_as_reference_on_all_hands(all_hands, reference):
    """The dense strength must be exactly the rank of the reference key among distinct keys."""
    kickers, keys = reference
    _, masks = all_hands
    strengths = quintet.evaluate_masks(masks, kickers=kickers).tolist()
    distinct = sorted(set(keys))
    expected = {k: i for i, k in enumerate(distinct)}
    assert strengths == [expected[k] for k in keys]


def test_categories_match_reference(all_hands):
    hands, masks = all_hands
    strengths = quintet.evaluate_masks(masks).tolist()
    values = quintet.hand_values()
    assert [int(values[s].category) for s in strengths] == [ref.reference_category(h) for h in hands]


def test_hand_value_text_matches_reference_tiebreaks(all_hands):
    """The ranks shown by a HandValue are the reference key's tie-break ranks."""
    hands, masks = all_hands
    rng = random.Random(7)
    for kickers in ("seed", "full"):
        strengths = quintet.evaluate_masks(masks, kickers=kickers).tolist()
        for i in rng.sample(range(len(hands)), 3000):
            value = quintet.hand_values(kickers=kickers)[strengths[i]]
            key = ref.reference_key(hands[i], kickers)
            assert int(value.category) == key[0]
            assert [int(r) - 5 for r in value.ranks] == list(key[1:])


@given(hands5, st.randoms(use_true_random=False), st.sampled_from(["seed", "full"]))
def test_single_equals_batch_and_order_irrelevant(cards, rnd, kickers):
    text = text_of(tuple(cards))
    value = quintet.evaluate(text, kickers=kickers)
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert quintet.evaluate(text_of(tuple(shuffled)), kickers=kickers) == value
    assert quintet.evaluate([Card(t) for t in text.split()], kickers=kickers) == value
    assert quintet.evaluate(tuple(text.split()), kickers=kickers) == value
    assert quintet.evaluate(CardSet(text), kickers=kickers) == value
    assert quintet.evaluate_masks(np.array([mask_of(cards)]), kickers=kickers)[0] == value.strength
    assert quintet.evaluate_mask(mask_of(cards), kickers=kickers) == value.strength
    assert quintet.card_mask(text) == mask_of(cards)


@given(hands5, st.permutations(range(4)))
def test_suit_permutation_invariance(cards, perm):
    permuted = [4 * (c // 4) + perm[c % 4] for c in cards]
    for kickers in ("seed", "full"):
        assert quintet.evaluate_mask(mask_of(permuted), kickers=kickers) == quintet.evaluate_mask(mask_of(cards), kickers=kickers)


@given(hands5, hands5)
def test_compare_agrees_with_reference(a, b):
    expected_key_a, expected_key_b = ref.reference_key(a), ref.reference_key(b)
    expected = (expected_key_a > expected_key_b) - (expected_key_a < expected_key_b)
    assert quintet.compare(text_of(tuple(a)), text_of(tuple(b))) == expected
    va, vb = quintet.evaluate(text_of(tuple(a))), quintet.evaluate(text_of(tuple(b)))
    assert (va == vb) == (expected == 0)
    assert (va < vb) == (expected < 0)
    assert (hash(va) == hash(vb)) or expected != 0


def test_seed_rule_examples():
    # flush beats full house; ace plays as a six; no wrap-around
    assert quintet.compare("Ah Kh Jh 9h 8h", "Ac Ad As Kc Kd") == 1
    assert quintet.evaluate("Ah 7c 8d 9s Th").category is Category.STRAIGHT
    assert str(quintet.evaluate("Ah 7c 8d 9s Th")) == "straight, T"
    assert quintet.compare("Ah 7c 8d 9s Th", "7c 8d 9s Th Jh") == -1
    assert quintet.evaluate("Ah Kc Qd Jc 7s").category is Category.HIGH_CARD
    # literal tie-breaks
    assert quintet.compare("As Kd 9c 8h 7s", "Ac Qd Jh 8c 7d") == 0
    assert quintet.compare("7c 7d As 9h 8c", "7h 7s Ad Kh Qc") == 0
    assert quintet.compare("7c 7d As 9h 8c", "7h 7s Kd Qh Jc") == 1
    assert quintet.compare("Qc Qd Qh 7c 8d", "Qs Qd Qh Ac Kd") == 0
    assert quintet.compare("Qc Qd Qh 7c 8d", "Qs Qd Qh Ac Kd", kickers="full") == -1
    assert quintet.compare("Jc Jd Jh 7c 7d", "Js Jd Jh Ac Ad") == 0
    assert str(quintet.evaluate("Ah Kh Jh 9h 8h")) == "flush, A-K-J-9-8"
    assert quintet.evaluate("Ah Kh Jh 9h 8h").category.label == "flush"


def test_hand_value_api():
    v = quintet.evaluate("Ah Kh Qh Jh Th")
    assert v.category is Category.STRAIGHT_FLUSH and v.strength == len(quintet.hand_values()) - 1
    assert "straight flush, A" in repr(v)
    assert v.to_dict()["category"] == "straight_flush"
    assert {v, quintet.evaluate("As Ks Qs Js Ts")} == {v}
    with pytest.raises(TypeError):
        _ = v < quintet.evaluate("Ah Kh Qh Jh Th", kickers="full")
    with pytest.raises(TypeError):
        _ = v < 3
    assert v != quintet.evaluate("Ah Kh Qh Jh Th", kickers="full")
    assert [h.strength for h in quintet.hand_values()] == list(range(296))


def test_hands_of_enumerates_all_subsets():
    cards = "7c 8c 9c Tc Jc Qc Kd Ah"
    masks, strengths = quintet.hands_of(cards)
    expected = sorted(
        quintet.card_mask(" ".join(c)) for c in itertools.combinations(cards.split(), 5)
    )
    assert sorted(masks.tolist()) == expected
    assert len(set(masks.tolist())) == 56
    assert strengths.tolist() == [quintet.evaluate(quintet.mask_cards(int(m))).strength for m in masks]
    m2, s2 = quintet.hands_of(quintet.card_mask(cards))
    assert m2.tolist() == masks.tolist() and s2.tolist() == strengths.tolist()
    empty, none = quintet.hands_of("7c 8c 9c")
    assert len(empty) == 0 and len(none) == 0


@given(st.lists(st.integers(0, 31), min_size=0, max_size=12, unique=True))
def test_hands_of_count(cards):
    masks, _ = quintet.hands_of(mask_of(cards))
    assert len(masks) == len(list(itertools.combinations(cards, 5)))
    assert all(int(m).bit_count() == 5 and int(m) & ~mask_of(cards) == 0 for m in masks)


def test_batch_shape_and_dtypes():
    m = np.array([[quintet.card_mask("Ah Kh Qh Jh Th"), quintet.card_mask("7c 8d 9h Tc Jd")]], dtype=np.int64)
    out = quintet.evaluate_masks(m)
    assert out.shape == (1, 2) and out.dtype == np.int32
    assert out[0, 0] == quintet.evaluate("Ah Kh Qh Jh Th").strength
    assert quintet.evaluate_masks([]).shape == (0,)


@pytest.mark.parametrize(
    "text, error, fragment",
    [
        ("Ah Kh Qh Jh", InvalidStateError, "5 cards, got 4"),
        ("Ah Kh Qh Jh Th 9h", InvalidStateError, "5 cards, got 6"),
        ("Ah Kh Qh Jh ah", NotationError, "duplicate card 'Ah'"),
        ("Ah Kh Qh Jh 2h", InvalidStateError, "'2h' is not in the 32-card"),
        ("Ah Kh Qh Jh Xh", NotationError, "'X'"),
        ("", InvalidStateError, "got 0"),
    ],
)
def test_evaluate_errors(text, error, fragment):
    with pytest.raises(error) as info:
        quintet.evaluate(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, QuartetError)


def test_evaluate_other_errors():
    with pytest.raises(InvalidStateError, match="kickers"):
        quintet.evaluate("Ah Kh Qh Jh Th", kickers="poker")
    with pytest.raises(NotationError):
        quintet.evaluate(12345)
    with pytest.raises(InvalidStateError, match="index 1 has 4 cards"):
        quintet.evaluate_masks([31, 15])
    with pytest.raises(InvalidStateError, match="outside the 32-card layout"):
        quintet.evaluate_masks([-1])
    with pytest.raises(InvalidStateError, match="outside the 32-card layout"):
        quintet.evaluate_masks([1 << 33])
    # in a 2-D batch the index is the entry's row and column, as plain ints
    with pytest.raises(InvalidStateError, match=r"index \(1, 0\) has 4 cards, not 5: 15$"):
        quintet.evaluate_masks(np.array([[31, 31], [15, 31]], dtype=np.uint32))
    with pytest.raises(InvalidStateError, match=r"index \(0, 1\) is outside the 32-card layout: -1$"):
        quintet.evaluate_masks(np.array([[31, -1]]))
    with pytest.raises(InvalidStateError, match="integers"):
        quintet.evaluate_masks([1.5])
    with pytest.raises(InvalidStateError):
        quintet.evaluate_mask(0b11)
    with pytest.raises(InvalidStateError):
        quintet.mask_cards(1 << 40)


@pytest.mark.parametrize("kickers", [[], ["seed"], {"full": 1}])
def test_unhashable_kickers_are_refused_by_name(kickers):
    # a list or dict as kickers raised a bare TypeError (unhashable type) from the mode lookup
    hand = "Ah Kh Qh Jh Th"
    for call in (
        lambda: quintet.evaluate(hand, kickers=kickers),
        lambda: quintet.evaluate_mask(quintet.card_mask(hand), kickers=kickers),
        lambda: quintet.evaluate_masks([quintet.card_mask(hand)], kickers=kickers),
        lambda: quintet.hand_values(kickers=kickers),
        lambda: quintet.strength_table(kickers=kickers),
        lambda: quintet.hands_of(hand, kickers=kickers),
    ):
        with pytest.raises(InvalidStateError, match=r"kickers must be one of \('seed', 'full'\), got "):
            call()


def test_numpy_str_kickers_give_plain_str_mode(monkeypatch):
    # the first call of a mode with np.str_("full") stored np.str_ in every HandValue of the mode
    from quartet_solver.quintet import hands

    monkeypatch.setattr(hands, "_TABLE_CACHE", {})
    values = quintet.hand_values(kickers=np.str_("full"))
    assert type(values[0].kickers) is str and values[0].kickers == "full"
    assert type(quintet.evaluate("Ah Kh Qh Jh Th", kickers=np.str_("full")).kickers) is str


def test_evaluate_masks_ragged_input_is_refused():
    # a ragged list of lists raised numpy's bare ValueError ("inhomogeneous shape")
    m = quintet.card_mask("Ah Kh Qh Jh Th")
    with pytest.raises(InvalidStateError, match=r"hand masks must be an array of integers, got \[\["):
        quintet.evaluate_masks([[m], [m, m]])


def test_compare_values_of_two_modes_is_a_typed_error():
    # a HandValue of one mode against text evaluated in the other (the default "seed")
    # raised a bare TypeError from the comparison operators
    full = quintet.evaluate("Ah Kh Qh Jh Th", kickers="full")
    with pytest.raises(InvalidStateError, match="tie-break modes 'full' and 'seed'"):
        quintet.compare(full, "Ac Ad As Kc Kd")
    with pytest.raises(InvalidStateError, match="tie-break modes 'seed' and 'full'"):
        quintet.compare(quintet.evaluate("Ac Ad As Kc Kd"), full)
    assert quintet.compare(full, "Ac Ad As Kc Kd", kickers="full") == 1
