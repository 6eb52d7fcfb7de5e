"""Batch APIs: klaverjas.dd_tables and quintet.solve_many give what the
one-deal functions give, whatever runs them: in-process, a process pool of
their own, a thread pool, a real dask.distributed LocalCluster of two worker
processes -- also when one of its workers is killed mid-run."""

from __future__ import annotations

import os
import signal
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from quartet_solver import klaverjas as kj
from quartet_solver import quintet
from quartet_solver.errors import InvalidStateError, NotationError
from quartet_solver.klaverjas.batch import MAX_DEALS, random_deals

N_DEALS = 10
SEED = 2024


@pytest.fixture(scope="module")
def local_nets():
    """The reference: ``N_DEALS`` random deals solved in this process."""
    return kj.dd_tables(N_DEALS, leader="E", seed=SEED, processes=1)


def _table_nets(deals, leader="E", rules=kj.Rules.AMSTERDAM):
    return np.array([[[kj.dd_table(d, leader, rules=rules).net(t, team) for team in (0, 1)] for t in "cdhs"]
                     for d in deals])


def test_dd_tables_equals_dd_table_entry_by_entry(local_nets):
    deals = list(random_deals(N_DEALS, SEED))
    assert local_nets.shape == (N_DEALS, 4, 2) and local_nets.dtype.kind == "i"
    assert (local_nets == _table_nets(deals)).all()
    # the given deals (and their PBN text) solve to the same as the seeded ones
    assert (kj.dd_tables(deals, leader="E", processes=1) == local_nets).all()
    assert (kj.dd_tables([d.pbn() for d in deals[:3]], leader=1, processes=1) == local_nets[:3]).all()


def test_dd_tables_on_two_processes_and_threads_equals_one(local_nets):
    assert (kj.dd_tables(N_DEALS, leader="E", seed=SEED, processes=2) == local_nets).all()
    with ThreadPoolExecutor(2) as pool:
        assert (kj.dd_tables(N_DEALS, leader="E", seed=SEED, client=pool) == local_nets).all()


def test_dd_tables_other_leader_and_rules():
    deals = list(random_deals(3, "other"))
    rotterdam = kj.Rules.named("rotterdam")
    nets = kj.dd_tables(3, leader="S", rules=rotterdam, seed="other", processes=1)
    assert (nets == _table_nets(deals, "S", rotterdam)).all()


def test_random_deals_and_prefixes():
    deals = list(random_deals(5, 7))
    assert deals == [kj.Deal.random(f"7#{i}") for i in range(5)]
    assert list(random_deals(3, 7)) == deals[:3]
    assert list(random_deals(3, "7")) != deals[:3]


def test_progress_counts_up_to_the_total():
    seen = []
    kj.dd_tables(5, seed=1, processes=1, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (5, 5) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert kj.dd_tables([], processes=1).shape == (0, 4, 2)


def test_dd_tables_on_a_cluster_equals_the_local_run(dask_client, local_nets):
    nets = kj.dd_tables(N_DEALS, leader="E", seed=SEED, client=dask_client)
    assert (nets == local_nets).all()


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(dask_client):
    """One worker process is killed (SIGKILL) while it holds chunks; the
    scheduler runs them again on the other, the nanny restarts it, and the
    result is that of the local run."""
    n, seed = 60, "kill"
    before = dask_client.run(os.getpid)
    killed: dict[str, object] = {}

    def progress(done, total):
        if killed:
            return
        busy = {w: keys for w, keys in dask_client.processing().items() if keys}
        if not busy:
            return
        worker = sorted(busy)[0]
        killed.update(worker=worker, pid=before[worker], held=len(busy[worker]), at=done)
        os.kill(before[worker], signal.SIGKILL)

    nets = kj.dd_tables(n, leader="E", seed=seed, client=dask_client, progress=progress)
    assert killed and killed["held"] >= 1 and killed["at"] < n, killed
    assert (nets == kj.dd_tables(n, leader="E", seed=seed, processes=1)).all()
    dask_client.wait_for_workers(2, timeout=60)    # the nanny restarted the killed worker
    assert killed["pid"] not in dask_client.run(os.getpid).values()


def test_bad_input_is_an_invalid_state_error():
    deal = kj.Deal.random(seed=1)
    for call in (
        lambda: kj.dd_tables("N:AKQJT987... ...", processes=1),
        lambda: kj.dd_tables(-1, seed=1),
        lambda: kj.dd_tables(MAX_DEALS + 1, seed=1),
        lambda: kj.dd_tables(2.0, seed=1),
        lambda: kj.dd_tables(True, seed=1),
        lambda: kj.dd_tables([deal, 3], processes=1),
        lambda: kj.dd_tables([quintet.Deal.random(seed=1)], processes=1),
        lambda: kj.dd_tables([deal], seed=3),
        lambda: kj.dd_tables(2, seed=-1),
        lambda: kj.dd_tables(2, seed=1.5),
        lambda: kj.dd_tables(2, seed=1, processes=0),
        lambda: kj.dd_tables(2, seed=1, client=object()),
        lambda: kj.dd_tables(2, seed=1, progress="yes"),
        lambda: kj.dd_tables(2, seed=1, rules=kj.Rules(pit=10**6)),
        lambda: quintet.solve_many("Ah Kh", processes=1),
        lambda: quintet.solve_many(-1),
        lambda: quintet.solve_many([deal], processes=1),
        lambda: quintet.solve_many([quintet.Deal.random(seed=1)], seed=2),
        lambda: quintet.solve_many(2, seed=1, processes=-2),
        lambda: quintet.solve_many(2, seed=1, points=(1, 2)),
        lambda: quintet.solve_many(2, seed=1, kickers="none"),
    ):
        with pytest.raises(InvalidStateError):
            call()
    with pytest.raises(NotationError):        # a seat that does not parse, as dd_table says
        kj.dd_tables(2, leader="X", seed=1)


def test_solve_many_equals_solve_per_deal(dask_client):
    deals = list(quintet.batch.random_deals(3, 11))
    res = quintet.solve_many(3, seed=11, processes=1)
    assert len(res) == 3 and res.seed == 11 and res.deals() == deals
    for i, deal in enumerate(deals):
        sol = quintet.solve(deal)
        assert res.value[i] == sol.value and res.support_size[i] == sol.support_size
        assert res.pure_value[i] == sol.pure_value
        assert res.exploitability[i] == pytest.approx(sol.exploitability, abs=1e-12)
        assert res.seconds[i] > 0
    assert res.pure_loss.tolist() == (res.value - res.pure_value).tolist()
    given = quintet.solve_many([str(d) for d in deals[:2]], client=dask_client)
    assert given.seed is None and given.support_size.tolist() == res.support_size[:2].tolist()
    assert given.pure_value.tolist() == res.pure_value[:2].tolist()
    d = res.to_dict()
    assert d["deals"] == [str(x) for x in deals] and d["support_size"] == res.support_size.tolist()


def test_solve_many_to_dataframe():
    res = quintet.solve_many([quintet.Deal.random(seed=1, k=2)], processes=1)
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pandas"):
            res.to_dataframe()
    else:
        assert list(res.to_dataframe()["support_size"]) == res.support_size.tolist()


@pytest.mark.skipif(not hasattr(os, "killpg") or not os.path.isdir("/proc"),
                    reason="needs POSIX process groups and /proc")
def test_ctrl_c_stops_dd_tables_and_its_workers():
    from test_klaverjas_bid_interrupt import SECONDS, _interrupt

    script = ("import sys; from quartet_solver.klaverjas import dd_tables; "
              "sys.stderr.write('started\\n'); sys.stderr.flush(); "
              "dd_tables(5000, seed=1, processes=2)")
    code, took, err = _interrupt([sys.executable, "-c", script], b"started", processes=3)
    assert code != 0 and "KeyboardInterrupt" in err
    assert took < SECONDS


# -- the studies ------------------------------------------------------------------------


def test_bid_study_groups_match_the_cards_and_dd_table():
    """The study's features and outcomes, recomputed from the cards and
    dd_table for every seat x trump of its deals."""
    from quartet_solver.klaverjas.studies import HOLDINGS, bid_study

    n = 6
    study = bid_study(n, seed=9, processes=1, dealer="W")      # the leader is N
    assert study.cases == n * 16 and sum(g.n for g in study.by_holding) == study.cases
    cases: dict[str, list[int]] = {h: [] for h in HOLDINGS}
    picked = []
    for deal in random_deals(n, 9):
        table = kj.dd_table(deal, leader="N")
        for seat, hand in enumerate(deal.hands):
            for trump in "cdhs":
                ranks = {c.rank.char for c in hand if c.suit.char == trump}
                jack, nine, ace = "J" in ranks, "9" in ranks, "A" in ranks
                holding = (HOLDINGS[0] if jack and nine else HOLDINGS[1] if jack else
                           HOLDINGS[2] if nine and ace else HOLDINGS[3] if nine else HOLDINGS[4])
                net = table.net(trump, seat % 2)
                cases[holding].append(net)
                if (jack or nine and ace) and len(ranks) >= 3:
                    picked.append(net)
    for g in study.by_holding:
        nets = np.array(cases[g.label])
        assert g.n == len(nets)
        if g.n:
            assert g.p_made == pytest.approx((nets >= 0).mean()) and g.mean_net == pytest.approx(nets.mean())
    first = study.advice[0].groups[0]
    assert first.n == len(picked) and first.mean_net == pytest.approx(np.mean(picked))
    assert sum(g.n for g in study.by_position) == sum(g.n for g in study.by_side_aces) == len(picked)
    assert study.advice[0].verdict in ("supported", "contradicted", "mixed")
    assert "DOUBLE DUMMY" in study.pretty() and study.to_dict()["analysis"].startswith("double-dummy")


def test_hand_features_match_the_cards():
    from quartet_solver.klaverjas.studies import hand_features

    hands = [h for d in random_deals(5, 3) for h in d.hands]
    f = hand_features(np.array([h.mask >> 20 for h in hands]))
    for i, hand in enumerate(hands):
        for t, trump in enumerate("cdhs"):
            ranks = [c.rank.char for c in hand if c.suit.char == trump]
            side = [c.rank.char for c in hand if c.suit.char != trump]
            assert f["trumps"][i, t] == len(ranks)
            assert (f["jack"][i, t], f["nine"][i, t], f["ace"][i, t], f["ten"][i, t]) == \
                   ("J" in ranks, "9" in ranks, "A" in ranks, "T" in ranks)
            assert (f["side_aces"][i, t], f["side_tens"][i, t]) == (side.count("A"), side.count("T"))


def test_quintet_study_losses():
    from quartet_solver.quintet.studies import HABITS, greedy_split, quintet_study

    study = quintet_study(2, seed=5, processes=1)
    deals = list(quintet.batch.random_deals(2, 5))
    for i, deal in enumerate(deals):
        sol = quintet.solve(deal)
        assert study.support_size[i] == sol.support_size
        assert study.losses[HABITS.index("max-min pure arrangement"), i] == pytest.approx(sol.pure_loss)
        greedy = greedy_split(deal)
        greedy.check(deal)
        assert list(greedy.strengths()) == sorted(greedy.strengths())
    # no pure habit does better than the max-min pure arrangement; none beats the value
    pure_rows = [HABITS.index(h) for h in HABITS if "shuffled" not in h]
    assert (study.losses[pure_rows] >= study.losses[HABITS.index("max-min pure arrangement")] - 1e-9).all()
    assert (study.losses >= -1e-9).all()
