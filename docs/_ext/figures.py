"""The documentation's figures, drawn from the library when the docs are built.

A Sphinx extension: on ``builder-inited`` every figure of :data:`FIGURES` is
computed with quartet_solver (fixed seeds, so every build draws the same
pictures) and drawn with matplotlib into ``docs/_generated/`` as SVG, which the
pages embed.  A file is rewritten only when its content changes.  The examples
are the ones the guides use, so a figure and the text beside it agree.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyBboxPatch, Rectangle  # noqa: E402
from matplotlib.transforms import blended_transform_factory  # noqa: E402

from quartet_solver import Suit  # noqa: E402
from quartet_solver import klaverjas as kj  # noqa: E402
from quartet_solver import kwartet as kw  # noqa: E402
from quartet_solver import quintet  # noqa: E402

OUT = "_generated"
RED, BLACK, INK, MUTED = "#c0392b", "#1f2328", "#1f2328", "#6e7781"
ACCENT, PALE = "#2f6fb0", "#c9d7e8"
SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SUIT_NAME = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}

# the examples, shared with the guides
DEAL_SEED = 7                                   # guides/klaverjas_dd_table.md
BID_HAND, BID_SEAT, BID_DEALER = "Jc Ac Tc 9s As Ks 7h 8d", "S", "E"   # guides/klaverjas_bid.md
BID_SAMPLES = 200
QUINTET_SEED = 3                                # guides/quintet_solve.md
KWARTET_HAND = "Ac Ad Qc Jc Js"                 # guides/kwartet_probabilities.md
KWARTET_ASKS = [(2, 1, "Qd", False), (0, 2, "Qd", False), (1, 2, "Ks", True), (1, 0, "Kh", False),
                (2, 0, "Jd", False)]
KWARTET_DEALER = 1


def _style() -> None:
    plt.rcParams.update({
        "font.family": "DejaVu Sans",
        "font.size": 11,
        "svg.fonttype": "path",     # text as outlines: the same on every device
        "svg.hashsalt": "quartet-solver-docs",
        "axes.edgecolor": MUTED,
        "axes.labelcolor": INK,
        "xtick.color": INK,
        "ytick.color": INK,
        "figure.facecolor": "white",  # readable in the theme's dark mode too
    })


def _suit_colour(suit: Suit) -> str:
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


# -- Klaverjas: a deal as four hands ------------------------------------------------


def klaverjas_deal() -> Figure:
    """The deal of the double-dummy guide, N at the top, as at a card table."""
    deal = kj.Deal.random(seed=DEAL_SEED)
    fig = plt.figure(figsize=(5.0, 4.6))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0.15, 5.15)
    ax.set_ylim(0, 4.6)
    ax.axis("off")
    # the table in the middle
    ax.add_patch(FancyBboxPatch((1.95, 1.55), 1.5, 1.5, boxstyle="round,pad=0.02,rounding_size=0.12",
                                facecolor="#2e7d4f", edgecolor="none"))
    for seat, (x, y) in {"N": (2.7, 2.85), "E": (3.3, 2.3), "S": (2.7, 1.75), "W": (2.1, 2.3)}.items():
        ax.text(x, y, seat, color="white", fontsize=14, fontweight="bold", ha="center", va="center")
    ax.text(2.7, 2.3, "dealer N\nE leads", color="#e8f5e9", fontsize=9, ha="center", va="center")
    places = {"N": (2.05, 4.45), "W": (0.2, 2.95), "E": (3.75, 2.95), "S": (2.05, 1.35)}
    names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    for seat, (x, y) in places.items():
        ax.text(x, y, names[seat], fontsize=10, color=MUTED, va="top")
        hand = deal.hand(seat)
        for row, suit in enumerate((Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)):
            yy = y - 0.27 - 0.26 * row
            ranks = [c.rank.char for c in sorted(hand, key=lambda c: -int(c.rank)) if c.suit == suit]
            ax.text(x, yy, SYMBOL[suit], fontsize=13, color=_suit_colour(suit), va="top")
            ax.text(x + 0.25, yy, " ".join(ranks) or "–", fontsize=13, color=INK, va="top",
                    fontweight="bold" if ranks else "normal")
    return fig


# -- Klaverjas: a bid analysis ------------------------------------------------------


def klaverjas_bid() -> Figure:
    """Mean net per trump with its 95% interval; a pass scores 0."""
    res = kj.analyse_bid(BID_HAND, seat=BID_SEAT, dealer=BID_DEALER, samples=BID_SAMPLES, seed=1, processes=1)
    stats = list(res.stats)
    fig, ax = plt.subplots(figsize=(5.6, 3.4))
    ys = list(range(len(stats)))[::-1]
    right = blended_transform_factory(ax.transAxes, ax.transData)
    for y, s in zip(ys, stats):
        best = s.trump == res.recommended
        ax.barh(y, s.mean, height=0.62, color=ACCENT if best else PALE, zorder=2)
        ax.errorbar(s.mean, y, xerr=s.ci95, color=INK, capsize=4, lw=1.3, zorder=3)
        ax.text(1.03, y, f"{s.mean:+.0f} ± {s.ci95:.0f}", transform=right, va="center", ha="left",
                fontsize=10, color=INK, fontweight="bold" if best else "normal")
        ax.text(1.03, y - 0.3, f"P(nat) {s.p_nat:.2f}", transform=right, va="center", ha="left",
                fontsize=8.5, color=MUTED)
    ax.axvline(0, color=INK, lw=1, zorder=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{SUIT_NAME[s.trump]} {SYMBOL[Suit.parse(s.trump)]}" for s in stats])
    for label, s in zip(ax.get_yticklabels(), stats):
        label.set_color(_suit_colour(Suit.parse(s.trump)))
    lo = min(min(s.mean - s.ci95 for s in stats), 0)
    hi = max(max(s.mean + s.ci95 for s in stats), 0)
    span = hi - lo
    ax.set_xlim(lo - 0.08 * span, hi + 0.08 * span)
    ax.set_ylim(-0.7, len(stats) - 0.4)
    ax.set_xlabel("mean net for your team (pass = 0)")
    ax.grid(axis="x", color="#e5e7eb", zorder=0)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.tick_params(axis="y", length=0)
    ax.set_title(f"{BID_SEAT} holds {_hand_text(res.hand)}, dealer {BID_DEALER}\n"
                 f"{BID_SAMPLES} double-dummy samples per trump", fontsize=11, color=INK)
    fig.tight_layout()
    fig.subplots_adjust(right=0.79)   # room for the numbers on the right
    return fig


def _hand_text(hand: object) -> str:
    return " ".join(str(c) for c in sorted(hand, key=lambda c: (-int(c.suit), -int(c.rank))))


# -- Quintet: an equilibrium as its arrangements --------------------------------------


def quintet_equilibrium() -> Figure:
    """Each arrangement of the equilibrium as its five hands in place order, and
    its probability."""
    sol = quintet.solve(quintet.Deal.random(seed=QUINTET_SEED))
    groups: list[object] = []
    for arr, _ in sol.strategy:
        for g in arr.groups:
            if g not in groups:
                groups.append(g)
    palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#e15759", "#76b7b2", "#edc948", "#9c755f",
               "#bab0ac", "#ff9da7"]
    colour = {g: palette[i % len(palette)] for i, g in enumerate(groups)}
    label = {g: _group_label(g) for g in groups}
    n, k = len(sol.strategy), sol.deal.k
    row_h = 0.52
    height = 1.0 + n * row_h + 0.45 + len(groups) * 0.36
    fig = plt.figure(figsize=(5.8, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 5.8)
    ax.set_ylim(0, height)
    ax.axis("off")
    top = height - 0.35
    ax.text(0.15, top, "places (points)", fontsize=10, color=MUTED, va="center")
    cell_w, x0 = 0.8, 0.15
    for j, p in enumerate(sol.points):
        ax.text(x0 + j * cell_w + cell_w / 2, top - 0.33, f"{p:g}", fontsize=11, ha="center", va="center",
                color=INK, fontweight="bold")
    bar_x, bar_w = x0 + k * cell_w + 0.2, 1.1
    ax.text(bar_x, top - 0.33, "probability", fontsize=10, color=MUTED, va="center")
    y = top - 0.65
    for arr, prob in sol.strategy:
        y -= row_h
        for j, g in enumerate(arr.groups):
            ax.add_patch(FancyBboxPatch((x0 + j * cell_w + 0.03, y + 0.05), cell_w - 0.06, row_h - 0.1,
                                        boxstyle="round,pad=0,rounding_size=0.06", facecolor=colour[g],
                                        edgecolor="none"))
            ax.text(x0 + j * cell_w + cell_w / 2, y + row_h / 2, label[g][0], fontsize=9.5, ha="center",
                    va="center", color="white", fontweight="bold")
        ax.add_patch(Rectangle((bar_x, y + 0.12), bar_w * prob / sol.strategy[0][1] * 0.75, row_h - 0.24,
                               facecolor=ACCENT, edgecolor="none"))
        ax.text(bar_x + bar_w * prob / sol.strategy[0][1] * 0.75 + 0.06, y + row_h / 2, f"{prob:.3f}",
                fontsize=10, va="center", color=INK)
    # the hands, each with its colour
    y -= 0.45
    for i, g in enumerate(groups):
        xx, yy = x0 + 0.03, y - i * 0.36
        ax.add_patch(FancyBboxPatch((xx, yy - 0.13), cell_w - 0.06, 0.28, boxstyle="round,pad=0,rounding_size=0.05",
                                    facecolor=colour[g], edgecolor="none"))
        ax.text(xx + (cell_w - 0.06) / 2, yy + 0.01, label[g][0], fontsize=9, ha="center", va="center",
                color="white", fontweight="bold")
        ax.text(xx + cell_w + 0.05, yy + 0.01, label[g][1], fontsize=10, va="center", color=INK)
    return fig


_SHORT = {"high card": "high", "pair": "pair", "two pair": "2 pair", "three of a kind": "trips",
          "straight": "str.", "full house": "full", "flush": "fl.", "four of a kind": "quads",
          "straight flush": "SF"}


def _group_label(group: object) -> tuple[str, str]:
    """A short label (category and top rank) and the hand's cards with its value."""
    value = quintet.evaluate(group)
    top = value.ranks[0].char
    cards = sorted(group, key=lambda c: -int(c.rank))
    suits = {c.suit for c in cards}
    mark = SYMBOL[next(iter(suits))] if len(suits) == 1 else ""
    short = f"{_SHORT[value.category.label]} {top}{mark}"
    text = " ".join(f"{c.rank.char}{SYMBOL[c.suit]}" for c in cards)
    return short, f"{text}  ({value.category.label})"


# -- Kwartet: a probability matrix ----------------------------------------------------


def kwartet_probabilities() -> Figure:
    """Where each card is, as seat 0 sees it: after the deal and after a round of asks."""
    deck = kw.Deck.standard("AKQJ")
    k = kw.Knowledge(deck, players=3, me=0, hand=KWARTET_HAND, dealer=KWARTET_DEALER)
    before = k.probabilities()
    for asker, target, card, hit in KWARTET_ASKS:
        k.ask(asker=asker, target=target, card=card, success=hit)
    after = k.probabilities()
    cards = list(deck.cards)
    fig, axes = plt.subplots(1, 2, figsize=(5.6, 6.4), sharey=True)
    cols = ["you\n(0)", "player\n1", "player\n2", "pile"]
    for ax, probs, title in ((axes[0], before, "after the deal"), (axes[1], after, "after a round of asks")):
        matrix = probs.T          # rows: cards, columns: locations (seats, then the pile)
        ax.imshow(matrix, cmap="Blues", vmin=0, vmax=1, aspect="auto")
        for r in range(matrix.shape[0]):
            for c in range(matrix.shape[1]):
                v = matrix[r, c]
                if v <= 0:
                    continue
                text = "1" if v >= 1 - 1e-12 else f"{v:.2f}".lstrip("0")
                ax.text(c, r, text, ha="center", va="center", fontsize=10,
                        color="white" if v > 0.6 else INK)
        ax.set_xticks(range(len(cols)))
        ax.set_xticklabels(cols, fontsize=9.5)
        ax.xaxis.tick_top()
        ax.set_title(title, fontsize=11, color=INK, pad=34)
        ax.tick_params(length=0)
        for q in range(1, deck.n_quartets):
            ax.axhline(4 * q - 0.5, color="white", lw=2.5)
        for spine in ax.spines.values():
            spine.set_visible(False)
    axes[0].set_yticks(range(len(cards)))
    axes[0].set_yticklabels(cards, fontsize=10)
    fig.tight_layout()
    return fig


FIGURES: dict[str, Callable[[], Figure]] = {
    "klaverjas_deal.svg": klaverjas_deal,
    "klaverjas_bid.svg": klaverjas_bid,
    "quintet_equilibrium.svg": quintet_equilibrium,
    "kwartet_probabilities.svg": kwartet_probabilities,
}


def write_figures(srcdir: str | Path) -> list[Path]:
    """Draw every figure into ``srcdir/_generated``; returns the files written."""
    out = Path(srcdir) / OUT
    out.mkdir(exist_ok=True)
    _style()
    written = []
    for name, draw in FIGURES.items():
        fig = draw()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(fig)
        path = out / name
        data = buffer.getvalue()
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            written.append(path)
    return written


def _generate(app: object) -> None:
    write_figures(app.srcdir)  # type: ignore[attr-defined]


def setup(app: object) -> dict[str, object]:
    app.connect("builder-inited", _generate)  # type: ignore[attr-defined]
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
