"""DD tables, par bidding and bid analysis (built on the double-dummy solver)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quartet_solver import klaverjas as kj
from quartet_solver.errors import InvalidStateError
from quartet_solver.klaverjas.analysis import analyse_bid, dd_table, par
from quartet_solver.klaverjas.dd import solve_deal

SUITS = "cdhs"


def _sample_deals(hand, seat: int, samples: int, seed: int | None) -> list:
    """The plain sampler: ``samples`` deals with ``hand`` at ``seat`` and the
    unseen cards, shuffled by ``random.Random(seed)`` once per deal, dealt 8 by
    8 to the other seats in order (what analyse_bid's mask sampler must match)."""
    import random

    from quartet_solver.cards import CardSet, Decks

    unseen = (Decks.piquet() - hand).cards()
    rng = random.Random(seed)
    deals = []
    for _ in range(samples):
        rng.shuffle(unseen)
        hands = [hand] * 4
        for i, s in enumerate(x for x in range(4) if x != seat):
            hands[s] = CardSet(unseen[8 * i : 8 * i + 8])
        deals.append(kj.Deal(tuple(hands)))
    return deals


@pytest.fixture(scope="module")
def deal():
    return kj.Deal.random(seed=21)


@pytest.fixture(scope="module")
def table(deal):
    return dd_table(deal, leader="E")


def test_dd_table_matches_single_solves(deal, table):
    for s in SUITS:
        assert table.net(s, "NS") == solve_deal(deal, s, declarer="N", leader="E")
        assert table.net(s, "EW") == solve_deal(deal, s, declarer="E", leader="E")
        for team in ("NS", "EW"):
            net, ns, ew = table.entries[(s, team)]
            # the principal variation reaches the net value with these raw points
            res = kj.solve(kj.PlayState(deal, s, "N" if team == "NS" else "E", "E"))
            final = kj.PlayState(deal, s, "N" if team == "NS" else "E", "E").play_all(res.pv)
            assert final.result().net == net and final.points == (ns, ew)
    assert len(table.to_list()) == 4 and "N/S play" in table.pretty()
    assert table.to_dict()["deal"] == deal.pbn()


def _par_reference(table, dealer, forced_rule="forehand"):
    """Minimax over the whole bidding tree (each player: pass or one of four suits)."""
    seats = [(dealer + 1 + i) % 4 for i in range(4)]
    forced = seats[0] if forced_rule == "forehand" else dealer

    def value_for_ns(declarer, suit):
        team = "NS" if declarer % 2 == 0 else "EW"
        net = table.entries[(suit, team)][0]
        return net if team == "NS" else -net

    def search(turn):
        if turn == 4:
            options = [value_for_ns(forced, s) for s in SUITS]
            return max(options) if forced % 2 == 0 else min(options)
        seat = seats[turn]
        options = [value_for_ns(seat, s) for s in SUITS] + [search(turn + 1)]
        return max(options) if seat % 2 == 0 else min(options)

    return search(0)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("dealer", ["N", "W"])
def test_par_equals_bidding_tree_minimax(seed, dealer):
    deal = kj.Deal.random(seed=100 + seed)
    p = par(deal, dealer)
    d = kj.SEATS.index(dealer)
    assert p.table.leader == kj.SEATS[(d + 1) % 4]
    assert p.net_ns == _par_reference(p.table, d)
    assert p.net == p.table.net(p.trump, "NS" if kj.SEATS.index(p.declarer) % 2 == 0 else "EW")
    assert p.bids[-1] == p.trump and all(b == "pass" for b in p.bids[:-1])


def test_par_with_dealer_forced():
    deal = kj.Deal.random(seed=5)
    rules = kj.Rules.AMSTERDAM.with_options(forced="dealer")
    p = par(deal, "S", rules=rules)
    assert p.net_ns == _par_reference(p.table, 2, "dealer")


def test_analyse_bid_is_deterministic_and_consistent():
    hand = "Jh 9h Ah Th As Ks Ad 7c"
    a = analyse_bid(hand, seat="E", dealer="N", samples=12, seed=3, processes=1)
    b = analyse_bid(hand, seat="E", dealer="N", samples=12, seed=3, executor=ThreadPoolExecutor(2))
    assert a.to_dict()["stats"] == b.to_dict()["stats"]
    assert [s.trump for s in a.stats] == list(SUITS)
    for s in a.stats:
        assert s.samples == 12 and 0 <= s.p_nat <= 1 and 0 <= s.p_pit <= 1 and s.ci95 >= 0
    # with the jack, nine, ace and ten of hearts, hearts is worth more than clubs
    by = {s.trump: s for s in a.stats}
    assert by["h"].mean > by["c"].mean
    assert a.recommended in ("c", "d", "h", "s", "pass")
    assert "recommended" in a.pretty()


class _SubmitOnly:
    """The least an executor must offer (what a dask.distributed Client offers):
    ``submit(fn, *args)`` returning an object with ``result()``; it runs the
    work at once and records the calls."""

    class _Done:
        def __init__(self, value):
            self._value = value

        def result(self):
            return self._value

    def __init__(self):
        self.calls = 0

    def submit(self, fn, *args):
        self.calls += 1
        return self._Done(fn(*args))


def test_analyse_bid_takes_any_submit_executor_and_reports_progress():
    hand = "Jc 9c Ac Tc Kd Qd 8h 7s"
    ex = _SubmitOnly()
    seen = []
    a = analyse_bid(hand, seat="S", dealer="E", samples=150, seed=4, executor=ex,
                    progress=lambda done, total: seen.append((done, total)))
    b = analyse_bid(hand, seat="S", dealer="E", samples=150, seed=4, processes=1)
    assert a.to_dict()["stats"] == b.to_dict()["stats"]
    assert (a.recommended, a.runner_up, a.margin) == (b.recommended, b.runner_up, b.margin)
    # the work went through the executor in chunks, and progress counted every deal
    assert ex.calls == len(seen) > 1
    assert [t for _, t in seen] == [150] * len(seen) and seen[-1][0] == 150
    assert all(x[0] < y[0] for x, y in zip(seen, seen[1:]))


def test_analyse_bid_matches_manual_sampling():
    from quartet_solver.cards import CardSet

    hand = CardSet("Jc 9c Ac Tc Kd Qd 8h 7s")
    res = analyse_bid(hand, seat="S", dealer="E", samples=5, seed=9, processes=1)
    deals = _sample_deals(hand, 2, 5, 9)
    nets = [solve_deal(d, "c", declarer="S", leader="S") for d in deals]
    assert res.stats[0].mean == pytest.approx(sum(nets) / 5)
    assert res.stats[0].p_nat == pytest.approx(sum(n < 0 for n in nets) / 5)
    for d in deals:
        assert d.hand("S") == hand and sum(len(h) for h in d.hands) == 32


@pytest.mark.parametrize("hand, seat, dealer, seed", [
    ("Jh 9h Ah Th As Ks Ad 7c", "E", "N", 3),      # a clear hearts hand
    ("7c 8c 7d 8d 9h 7s 8s 9s", "W", "S", 5),      # a weak hand: pass
    ("Jc 9c Jd 9d Ah Th As Ts", "N", "W", 11),     # two good trumps
])
def test_analyse_bid_stats_and_margin_match_manual_solves(hand, seat, dealer, seed):
    """Every trump's stats, the recommendation and the paired margin over the
    runner-up, against plain solves of the plainly sampled deals and the
    statistics module."""
    import statistics

    from quartet_solver.cards import CardSet

    n = 8
    res = analyse_bid(hand, seat=seat, dealer=dealer, samples=n, seed=seed, processes=1)
    deals = _sample_deals(CardSet(hand), "NESW".index(seat), n, seed)
    leader = "NESW"[("NESW".index(dealer) + 1) % 4]
    nets = {t: [solve_deal(d, t, declarer=seat, leader=leader) for d in deals] for t in "cdhs"}
    nets["pass"] = [0] * n
    for s in res.stats:
        xs = nets[s.trump]
        assert s.mean == pytest.approx(statistics.fmean(xs))
        assert s.ci95 == pytest.approx(1.96 * statistics.stdev(xs) / n ** 0.5)
        assert s.p_nat == pytest.approx(sum(x < 0 for x in xs) / n)
    means = {a: statistics.fmean(xs) for a, xs in nets.items()}
    ranked = sorted(means, key=lambda a: (-means[a], a != "pass"))  # a tie goes to pass
    assert res.recommended == ranked[0] and res.runner_up != res.recommended
    assert means[res.runner_up] == max(m for a, m in means.items() if a != res.recommended)
    diff = [x - y for x, y in zip(nets[res.recommended], nets[res.runner_up])]
    assert res.margin == pytest.approx(statistics.fmean(diff)) and res.margin >= 0
    assert res.margin_ci95 == pytest.approx(1.96 * statistics.stdev(diff) / n ** 0.5)
    d = res.to_dict()
    assert (d["runner_up"], d["margin"], d["margin_ci95"]) == (res.runner_up, res.margin, res.margin_ci95)
    assert f"margin over {res.runner_up}: " in res.pretty()


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(32)), st.integers(0, 3), st.integers(0, 6),
       st.one_of(st.none(), st.integers(0, 2**64)))
def test_sample_masks_are_the_sampled_deals(order, seat, samples, seed):
    """analyse_bid's sampler (kernel masks) deals the same samples as the plain
    one that builds the deals, seed for seed."""
    from quartet_solver.cards import Card, CardSet
    from quartet_solver.klaverjas.analysis import _sample_masks

    hand = CardSet([Card.from_index(20 + b) for b in order[:8]])
    if seed is None:
        # no seed: random samples, each a deal with the hand at the seat
        for masks in _sample_masks(hand, seat, samples, None):
            assert masks[seat] == hand.mask >> 20 and sum(masks) == (1 << 32) - 1
            assert all(bin(m).count("1") == 8 for m in masks)
        return
    deals = _sample_deals(hand, seat, samples, seed)
    assert list(_sample_masks(hand, seat, samples, seed)) == [tuple(h.mask >> 20 for h in d.hands) for d in deals]


def test_deal_value_pit_matches_play_state_replay():
    """The lean path of analyse_bid (kernel masks, the pit flag from trick
    winners along the solve's own line) against solve_deal and a replay of the
    line through PlayState, on strong hands where pit lines occur."""
    from quartet_solver.cards import CardSet
    from quartet_solver.klaverjas.dd import _deal_value_pit, _solve_deal_line

    rules = kj.Rules.AMSTERDAM
    pits = 0
    for d in _sample_deals(CardSet("Jh 9h Ah Th As Ks Ad 7c"), 1, 6, 3):
        masks = tuple(h.mask >> 20 for h in d.hands)
        for t, suit in enumerate(SUITS):
            value, pit = _deal_value_pit(masks, t, 1, 1, rules, 0)
            state = kj.PlayState(d, suit, "E", "E", rules=rules)
            v2, line = _solve_deal_line(state)
            assert value == v2 == solve_deal(d, suit, declarer="E", leader="E")
            want = all(tr.winner % 2 == 1 for tr in state.play_all(line).tricks)
            assert pit == want
            pits += pit
    assert pits > 0


def test_analyse_bid_errors():
    with pytest.raises(InvalidStateError, match="8 cards"):
        analyse_bid("Jh 9h", samples=2)
    with pytest.raises(InvalidStateError, match="samples"):
        analyse_bid("Jh 9h Ah Th As Ks Ad 7c", samples=0)
    for bad in (0, -2, 1.5, True, "2"):
        with pytest.raises(InvalidStateError, match=f"processes must be a positive int or None, got {bad!r}"):
            analyse_bid("Jh 9h Ah Th As Ks Ad 7c", samples=2, processes=bad)
    for bad in (1.5, float("nan"), [1]):
        with pytest.raises(InvalidStateError, match="seed must be"):
            analyse_bid("Jh 9h Ah Th As Ks Ad 7c", samples=2, seed=bad, processes=1)


def test_analyse_bid_refuses_more_than_max_samples():
    """Beyond MAX_SAMPLES the count is refused at once, naming the count and
    the maximum (once: 10**20 samples were all made before any solving, and the
    process grew to 15 GB)."""
    from quartet_solver.klaverjas.analysis import MAX_SAMPLES

    assert MAX_SAMPLES == 10_000_000
    for bad in (MAX_SAMPLES + 1, 99999999999999999999):
        with pytest.raises(InvalidStateError, match=f"at most MAX_SAMPLES = 10,000,000, got {bad}"):
            analyse_bid("Jh 9h Ah Th As Ks Ad 7c", samples=bad)


def _result(a):
    """A bid analysis as a dict, without its time."""
    d = a.to_dict()
    del d["seconds"]
    return d


def test_analyse_bid_is_the_same_on_every_executor():
    """The result for a seed does not depend on the executor or the number of
    workers (which set the chunk size and the order the chunks finish in)."""
    hand = "Jc 9c Ac Tc Kd Qd 8h 7s"
    ref = _result(analyse_bid(hand, seat="S", dealer="E", samples=150, seed="abc", processes=1))
    with ThreadPoolExecutor(3) as ex:
        assert _result(analyse_bid(hand, seat="S", dealer="E", samples=150, seed="abc", executor=ex)) == ref
    assert _result(analyse_bid(hand, seat="S", dealer="E", samples=150, seed="abc", processes=2)) == ref
    assert _result(analyse_bid(hand, seat="S", dealer="E", samples=150, seed="abc",
                               executor=_SubmitOnly(), processes=5)) == ref
    assert ref["seed"] == "abc" and ref["rules"] == kj.Rules.AMSTERDAM.to_dict()
    assert _result(analyse_bid(hand, seat="S", dealer="E", samples=150, seed="abd", processes=1)) != ref


def test_analyse_bid_without_seed_reports_the_seed_it_drew():
    hand = "Jc 9c Ac Tc Kd Qd 8h 7s"
    a = analyse_bid(hand, samples=5, processes=1)
    b = analyse_bid(hand, samples=5, processes=1)
    assert isinstance(a.seed, int) and a.seed != b.seed
    assert _result(analyse_bid(hand, samples=5, seed=a.seed, processes=1)) == _result(a)


class _Lazy:
    """An executor whose futures run only when their result is asked for, and
    record it, or their cancellation; ``fake`` rows (no solving) if given."""

    class Future:
        def __init__(self, executor, fn, args):
            self.executor, self.fn, self.args, self.ran, self.cancelled = executor, fn, args, False, False

        def result(self):
            self.ran = True
            self.executor.waiting -= 1
            return self.fn(*self.args)

        def cancel(self):
            self.cancelled = True
            return True

    def __init__(self, fake=None, keep=True):
        self.futures = []           # all of them, if keep
        self.waiting = self.most_waiting = 0
        self.fake, self.keep = fake, keep

    def submit(self, fn, *args):
        if self.fake is not None:
            fn = lambda part, *rest: [self.fake(m) for m in part]  # noqa: E731
        future = self.Future(self, fn, args)
        if self.keep:
            self.futures.append(future)
        self.waiting += 1
        self.most_waiting = max(self.most_waiting, self.waiting)
        return future


def test_analyse_bid_submits_lazily_and_cancels_on_interrupt():
    """An interrupt (here from the progress callback) stops the submitting and
    cancels every chunk submitted and not started (at most four chunks per
    worker are submitted and not yet taken back)."""
    def stop(done, total):
        raise KeyboardInterrupt

    ex = _Lazy()
    with pytest.raises(KeyboardInterrupt):
        analyse_bid("Jh 9h Ah Th As Ks Ad 7c", samples=5000, seed=1, executor=ex, processes=2, progress=stop)
    assert len(ex.futures) == 8 and ex.futures[0].ran
    assert all(f.cancelled and not f.ran for f in ex.futures[1:])


def test_analyse_bid_memory_does_not_grow_with_the_samples():
    """The samples are made chunk by chunk and the nets kept as running sums:
    50,000 samples (fake nets, no solving) peak at a small fraction of what the
    samples and the nets would take as lists (about 20 MB)."""
    import tracemalloc

    ex = _Lazy(fake=lambda masks: (masks[0] % 7 - 3, 0, masks[1] % 11 - 5, 1, 3, 0, -1, 0), keep=False)
    tracemalloc.start()
    try:
        a = analyse_bid("Jh 9h Ah Th As Ks Ad 7c", samples=50_000, seed=2, executor=ex, processes=2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, peak
    assert ex.most_waiting <= 8 and a.stats[0].samples == 50_000
    by = {s.trump: s for s in a.stats}
    assert by["h"].mean == 3 and by["h"].ci95 == 0 and by["s"].p_nat == 1 and by["d"].p_pit == 1


def test_running_sums_match_the_statistics_module():
    """The running sums give every action's and every pair's mean and interval
    as the statistics module does on the lists of nets."""
    import random
    import statistics

    from quartet_solver.klaverjas.analysis import _ACTIONS, _BidSums

    rng = random.Random(5)
    rows = [tuple(v for _ in range(4) for v in (rng.randrange(-300, 300), rng.randrange(2))) for _ in range(40)]
    sums = _BidSums()
    sums.add(rows[:13])
    sums.add(rows[13:])
    nets = {a: [r[2 * k] for r in rows] for k, a in enumerate(_ACTIONS[:4])} | {"pass": [0] * 40}
    for a in _ACTIONS:
        for b in _ACTIONS:
            diff = [x - y for x, y in zip(nets[a], nets[b])]
            mean, ci = sums.mean_ci95(a, b)
            assert mean == pytest.approx(statistics.fmean(diff))
            assert ci == pytest.approx(1.96 * statistics.stdev(diff) / 40 ** 0.5, abs=1e-9)
    assert sums.nat == [sum(x < 0 for x in nets[a]) for a in "cdhs"]
    assert sums.pit == [sum(r[2 * k + 1] for r in rows) for k in range(4)]


def test_close_call_json_seed_and_rules():
    """A margin inside its interval is flagged: close_call in the JSON form,
    "too close to call" in the text; the JSON form has the seed and the rules."""
    a = analyse_bid("Jc 9c Jd 9d Ah Th As Ts", seat="N", dealer="W", samples=8, seed=11, processes=1,
                    rules="rotterdam")
    d = a.to_dict()
    assert d["seed"] == 11 and d["rules"] == kj.Rules.named("rotterdam").to_dict()
    assert d["close_call"] is (a.margin <= a.margin_ci95) is a.close_call
    import dataclasses

    close = dataclasses.replace(a, margin=5.0, margin_ci95=12.0)
    clear = dataclasses.replace(a, margin=12.0, margin_ci95=5.0)
    assert close.close_call and close.to_dict()["close_call"] is True
    assert not clear.close_call and clear.to_dict()["close_call"] is False
    assert "too close to call" in close.pretty() and "too close to call" not in clear.pretty()
    assert f"recommended: {a.recommended} — too close to call: {a.runner_up}" in close.pretty()


def _benchmark(*args: str) -> subprocess.CompletedProcess:
    """Run benchmarks/klaverjas_dd.py with ``args``."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks", "klaverjas_dd.py")
    return subprocess.run([sys.executable, script, *args],
                          capture_output=True, text=True, timeout=300, cwd=tempfile.gettempdir())


def test_benchmark_script_runs():
    """benchmarks/klaverjas_dd.py with tiny sizes (it checks its solver against
    the plain minimax on the endgames it times, and that repeated passes search
    the same nodes and find the same values)."""
    out = _benchmark("--deals", "1", "--endgames", "3", "--bid-samples", "0", "--repeat", "2")
    assert out.returncode == 0, out.stderr
    assert "4 full-deal solves" in out.stdout and "values equal" in out.stdout
    assert "fastest of 2 passes" in out.stdout


def test_benchmark_script_bid_only():
    """The benchmark with no full deals and no endgames times analyse_bid alone;
    repeated runs must agree, and the fastest is reported."""
    out = _benchmark("--deals", "0", "--endgames", "0", "--bid-samples", "6", "--bid-repeat", "2")
    assert out.returncode == 0, out.stderr
    assert "full-deal solves" not in out.stdout
    assert "analyse_bid: 6 samples x 4 trumps" in out.stdout and "fastest of 2 runs" in out.stdout


def test_bid_analysis_arguments_are_checked_before_the_work():
    from concurrent.futures import ThreadPoolExecutor

    from quartet_solver.errors import ArgumentError
    from quartet_solver import klaverjas as kj

    hand = "Jc Ac Tc 9s As Ks 7h 8d"
    with pytest.raises(ArgumentError, match="executor must be"):
        kj.analyse_bid(hand, samples=2, seed=1, executor=5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="progress must be"):
        kj.analyse_bid(hand, samples=2, seed=1, processes=1, progress=5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="progress must be"):
        kj.play_match([kj.RuleBot()] * 4, seed=1, hands=2, progress=5)  # type: ignore[arg-type]
    with ThreadPoolExecutor(2) as ex:   # client= is executor=, as the other batch functions name it
        a = kj.analyse_bid(hand, samples=4, seed=1, client=ex)
        b = kj.analyse_bid(hand, samples=4, seed=1, executor=ex)
        with pytest.raises(ArgumentError, match="not both"):
            kj.analyse_bid(hand, samples=4, seed=1, client=ex, executor=ex)
    assert a.to_dict()["stats"] == b.to_dict()["stats"]
    # one sample gives no interval: always too close to call
    assert kj.analyse_bid(hand, seat="S", dealer="E", samples=1, seed=1, processes=1).close_call


def test_results_json_carries_the_value():
    from quartet_solver import klaverjas as kj
    from quartet_solver.klaverjas.bots import RuleBot
    from quartet_solver.klaverjas.match import play_hand

    deal = kj.Deal.random(seed=5)
    par = kj.par(deal, "N")
    bid = kj.analyse_bid("Jc Ac Tc 9s As Ks 7h 8d", samples=3, seed=1, processes=1)
    review = kj.review(play_hand([RuleBot()] * 4, deal, dealer="N"))
    for result in (par, bid, review):
        assert result.to_dict()["value"] == result.value


def test_a_table_too_large_for_memory_is_an_argument_error(monkeypatch):
    from quartet_solver import klaverjas as kj
    from quartet_solver.errors import ArgumentError
    from quartet_solver.klaverjas import dd

    def no_memory(bits):
        raise MemoryError("cannot allocate the transposition table")

    monkeypatch.setattr(dd, "KlaverjasKernel", no_memory)
    state = kj.PlayState(kj.Deal.random(seed=3), trump="h", declarer="N", leader="E")
    with pytest.raises(ArgumentError, match="tt_bits=29: no memory"):
        kj.solve(state, tt_bits=29)
