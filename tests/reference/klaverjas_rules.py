"""Slow, obviously-correct reference for the Klaverjas rules.

Used only by the tests, to cross-check ``quartet_solver.klaverjas``. Everything here is
written straight from the rules as the docstrings of ``quartet_solver.klaverjas.rules``
state them, as plain if-chains, and favours clarity over speed. It deliberately does NOT
import that module; only the :class:`~quartet_solver.cards.Card` value type is borrowed.

Seats are indices 0..3 = N, E, S, W; play is clockwise (index + 1); partners sit
opposite, so team 0 = N/S (seats 0, 2) and team 1 = E/W (seats 1, 3).

>>> from quartet_solver.cards import Card, Suit
>>> C = lambda text: [Card(t) for t in text.split()]
>>> sorted(map(str, reference_legal(C("7h Jh Ac"), C("9h"), Suit.HEARTS, "amsterdam")))
['Jh']
>>> reference_winner(C("Ac 7h Tc Jc"), Suit.HEARTS)
1
>>> reference_trick_roem(C("Qh Kh Jh 7c"), Suit.HEARTS)
40
"""

from __future__ import annotations

from typing import Iterable, Sequence

from quartet_solver.cards import Card, Suit

# --- card order and points ----------------------------------------------------------
# trump J 9 A T K Q 8 7 = 20 14 11 10 4 3 0 0 (highest first)
TRUMP_RANKS_HIGH_FIRST = ["J", "9", "A", "T", "K", "Q", "8", "7"]
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
# other suits A T K Q J 9 8 7 = 11 10 4 3 2 0 0 0 (highest first)
PLAIN_RANKS_HIGH_FIRST = ["A", "T", "K", "Q", "J", "9", "8", "7"]
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
# natural order used by runs (roem): 7 8 9 T J Q K A
NATURAL_ORDER = ["7", "8", "9", "T", "J", "Q", "K", "A"]

SEAT_NAMES = ["N", "E", "S", "W"]


def rank_char(card: Card) -> str:
    """The rank letter of a card: one of ``7 8 9 T J Q K A``."""
    return card.rank.char


def team(seat: int) -> int:
    """0 for N/S, 1 for E/W."""
    return seat % 2


def points_of(card: Card, trump: Suit) -> int:
    """Card points in the play."""
    if card.suit == trump:
        return TRUMP_POINTS[rank_char(card)]
    return PLAIN_POINTS[rank_char(card)]


def trump_beats(a: Card, b: Card) -> bool:
    """True if trump ``a`` is higher than trump ``b`` in the trump order J 9 A T K Q 8 7."""
    return TRUMP_RANKS_HIGH_FIRST.index(rank_char(a)) < TRUMP_RANKS_HIGH_FIRST.index(rank_char(b))


def plain_beats(a: Card, b: Card) -> bool:
    """True if ``a`` is higher than ``b`` in the plain order A T K Q J 9 8 7 (same suit)."""
    return PLAIN_RANKS_HIGH_FIRST.index(rank_char(a)) < PLAIN_RANKS_HIGH_FIRST.index(rank_char(b))


# --- trick winner (the highest trump in it, else the highest card of the suit led) ----


def reference_winner(trick: Sequence[Card], trump: Suit) -> int:
    """Position (0-based, in play order) of the card winning ``trick`` so far."""
    trick = list(trick)
    if not trick:
        raise ValueError("empty trick")
    trump_positions = [i for i, c in enumerate(trick) if c.suit == trump]
    if trump_positions:
        best = trump_positions[0]
        for i in trump_positions[1:]:
            if trump_beats(trick[i], trick[best]):
                best = i
        return best
    led = trick[0].suit
    best = 0
    for i, c in enumerate(trick):
        if c.suit == led and plain_beats(c, trick[best]):
            best = i
    return best


# --- legality (the obligations; Amsterdam, Rotterdam) --------------------------------


def reference_legal(hand: Iterable[Card], trick: Sequence[Card], trump: Suit, variant: str = "amsterdam") -> set[Card]:
    """The cards of ``hand`` the player to move may play to ``trick`` (cards so far,
    leader first). The player's partner played ``trick[-2]`` (if it exists)."""
    hand = list(hand)
    trick = list(trick)
    if variant not in ("amsterdam", "rotterdam"):
        raise ValueError(variant)

    # Leading: anything.
    if not trick:
        return set(hand)

    led = trick[0].suit
    my_led_suit = [c for c in hand if c.suit == led]
    my_trumps = [c for c in hand if c.suit == trump]
    my_non_trumps = [c for c in hand if c.suit != trump]
    trumps_in_trick = [c for c in trick if c.suit == trump]

    def beats_every_trump_in_trick(card: Card) -> bool:
        if card.suit != trump:
            return False
        for t in trumps_in_trick:
            if not trump_beats(card, t):
                return False
        return True

    # Both variants: when trumps are led, follow with a trump higher than every trump in the
    # trick if you can (even over your partner), else play a lower trump.
    if led == trump:
        if my_trumps:
            higher = [c for c in my_trumps if beats_every_trump_in_trick(c)]
            if higher:
                return set(higher)
            return set(my_trumps)
        # cannot follow trumps: nothing else is required
        return set(hand)

    # Both variants: follow a plain suit if you can.
    if my_led_suit:
        return set(my_led_suit)

    # Cannot follow a plain-suit lead.
    if not my_trumps:
        return set(hand)  # no trump at all: discard anything

    if variant == "rotterdam":
        # Must trump (even over the partner), overtrumping if you can, otherwise undertrumping.
        higher = [c for c in my_trumps if beats_every_trump_in_trick(c)]
        if higher:
            return set(higher)
        return set(my_trumps)

    # Amsterdam.
    winner = reference_winner(trick, trump)
    partner_position = len(trick) - 2
    partner_winning = partner_position >= 0 and winner == partner_position

    if partner_winning:
        # Play anything, except: no undertrumping the partner's trump unless you hold nothing
        # but lower trumps.
        partner_card = trick[partner_position]
        if partner_card.suit != trump:
            return set(hand)
        only_lower_trumps = all(c.suit == trump and trump_beats(partner_card, c) for c in hand)
        allowed = set()
        for c in hand:
            is_undertrump = c.suit == trump and trump_beats(partner_card, c)
            if is_undertrump and not only_lower_trumps:
                continue
            allowed.add(c)
        return allowed

    # Opponents winning.
    if not trumps_in_trick:
        return set(my_trumps)  # you must trump
    higher = [c for c in my_trumps if beats_every_trump_in_trick(c)]
    if higher:
        return set(higher)  # you must overtrump if you can
    if my_non_trumps:
        return set(my_non_trumps)  # cannot overtrump: discard a non-trump, no undertrumping
    return set(hand)  # nothing but lower trumps: undertrump


# --- roem (scored per trick) ---------------------------------------------------------


def reference_trick_roem(cards: Sequence[Card], trump: Suit, stuk: bool = True) -> int:
    """Roem in the cards of one trick (runs, four of a kind, and stuk if ``stuk``)."""
    cards = list(cards)
    roem = 0
    # Runs: per suit, the longest stretch of consecutive ranks in the natural order.
    for suit in Suit:
        positions = sorted(NATURAL_ORDER.index(rank_char(c)) for c in cards if c.suit == suit)
        longest = 0
        for start in positions:
            length = 1
            while start + length in positions:
                length += 1
            if length > longest:
                longest = length
        if longest == 3:
            roem += 20
        elif longest >= 4:
            roem += 50
    # Four of a kind.
    if len(cards) == 4:
        ranks = [rank_char(c) for c in cards]
        if ranks[0] == ranks[1] == ranks[2] == ranks[3]:
            if ranks[0] == "J":
                roem += 200
            elif ranks[0] in ("A", "T", "K", "Q"):
                roem += 100
            else:  # 7, 8, 9
                roem += 0
    # Stuk: K and Q of trumps in the same trick.
    if stuk:
        has_king = any(c.suit == trump and rank_char(c) == "K" for c in cards)
        has_queen = any(c.suit == trump and rank_char(c) == "Q" for c in cards)
        if has_king and has_queen:
            roem += 20
    return roem


# --- a whole hand ---------------------------------------------------------------------


def reference_tricks(played: Sequence[Card], leader: int, trump: Suit) -> list[dict]:
    """Split 32 played cards into tricks: leader, seats, cards, winner seat."""
    played = list(played)
    tricks = []
    current_leader = leader
    for k in range(0, len(played), 4):
        cards = played[k:k + 4]
        seats = [(current_leader + i) % 4 for i in range(len(cards))]
        if len(cards) == 4:
            winner_seat = seats[reference_winner(cards, trump)]
        else:
            winner_seat = None
        tricks.append({"leader": current_leader, "seats": seats, "cards": cards, "winner": winner_seat})
        if winner_seat is not None:
            current_leader = winner_seat
    return tricks


def reference_hand_score(
    played: Sequence[Card],
    leader: int,
    trump: Suit,
    declarer: int,
    *,
    stuk: str = "trick",
    pit: int = 100,
    tie_is_nat: bool = True,
) -> dict:
    """Score a finished hand from the 32 cards in play order.

    Returns a dict with per-team tuples (N/S, E/W): ``card_points`` (cards + last trick),
    ``roem``, ``points`` (raw = cards + last trick + roem), ``tricks_won``, ``pit``,
    ``totals`` (raw + pit), ``scores`` (after nat); and ``nat`` and ``playing_team``.

    Stuk options: ``"trick"`` = K and Q of trumps in one trick score 20 for the trick winner;
    ``"hand"`` = 20 for the team of a player who held (i.e. played) both, counted when the
    second of the two is played; ``"off"`` = no stuk at all.
    """
    played = list(played)
    if len(played) != 32 or len(set(played)) != 32:
        raise ValueError("a finished hand has 32 distinct cards")
    if stuk not in ("trick", "hand", "off"):
        raise ValueError(stuk)
    tricks = reference_tricks(played, leader, trump)
    card_points = [0, 0]
    roem = [0, 0]
    tricks_won = [0, 0]
    for number, t in enumerate(tricks):
        winning_team = team(t["winner"])
        tricks_won[winning_team] += 1
        taken = sum(points_of(c, trump) for c in t["cards"])
        if number == 7:
            taken += 10  # last trick
        card_points[winning_team] += taken
        roem[winning_team] += reference_trick_roem(t["cards"], trump, stuk=(stuk == "trick"))
    if stuk == "hand":
        king_seat = queen_seat = None
        for t in tricks:
            for seat, c in zip(t["seats"], t["cards"]):
                if c.suit == trump and rank_char(c) == "K":
                    king_seat = seat
                if c.suit == trump and rank_char(c) == "Q":
                    queen_seat = seat
        if king_seat is not None and king_seat == queen_seat:
            roem[team(king_seat)] += 20
    points = [card_points[0] + roem[0], card_points[1] + roem[1]]
    pit_bonus = [0, 0]
    for tm in (0, 1):
        if tricks_won[tm] == 8:
            pit_bonus[tm] = pit
    totals = [points[0] + pit_bonus[0], points[1] + pit_bonus[1]]
    playing = team(declarer)
    other = 1 - playing
    if totals[playing] > totals[other]:
        nat = False
    elif totals[playing] == totals[other]:
        nat = tie_is_nat
    else:
        nat = True
    if nat:
        scores = [0, 0]
        scores[other] = totals[0] + totals[1]
    else:
        scores = list(totals)
    return {
        "card_points": tuple(card_points),
        "roem": tuple(roem),
        "points": tuple(points),
        "tricks_won": tuple(tricks_won),
        "pit": tuple(pit_bonus),
        "totals": tuple(totals),
        "scores": tuple(scores),
        "nat": nat,
        "playing_team": playing,
        "winners": [t["winner"] for t in tricks],
    }
