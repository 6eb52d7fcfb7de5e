"""The API conventions of docs/api_conventions.md, checked over the public API:
options keyword-only, results frozen with value/to_dict/pretty, no public name
of the package reused for something else by a game, the documented calls of
every game accepted as documented, and the old spellings still working."""

from __future__ import annotations

import dataclasses
import inspect
import json
import warnings

import pytest

import quartet_solver
from quartet_solver import klaverjas as kj
from quartet_solver import kwartet as kw
from quartet_solver import quintet

GAMES = (quintet, kj, kw)

# parameters that only change how the work is done: keyword-only wherever they appear
OPTIONS = {"rules", "seed", "samples", "bid_samples", "processes", "client", "executor", "progress", "node_limit",
           "time_limit", "time_budget", "tt_bits", "pv", "event", "date", "kickers", "points", "tol",
           "max_iterations", "stuk", "weight", "viewer", "epsilon", "hands", "first_dealer", "number", "games",
           "exact", "fmt", "max_asks", "candidates", "quartet_weight", "rotate", "k", "variant"}
# the functions whose options are checked (the games that follow the convention)
CHECKED = (quintet, kj, kw)
# a random deal's seed and a daily deal's date are what the call is about
SUBJECTS = {("Deal.random", "seed"), ("Deal.daily", "date"), ("RandomBot()", "seed"), ("random_deals", "seed"),
            ("Knowledge.apply", "event")}


def _callables(module):
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj) and obj.__module__.startswith(module.__name__):
            if not dataclasses.is_dataclass(obj) and "__init__" in vars(obj):
                yield f"{name}()", obj.__init__
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                func = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                if inspect.isfunction(func):
                    yield f"{name}.{attr}", func


@pytest.mark.parametrize("module", CHECKED, ids=lambda m: m.__name__)
def test_options_are_keyword_only(module):
    positional = []
    for name, func in _callables(module):
        for p in inspect.signature(func).parameters.values():
            if p.name in OPTIONS and p.kind is not p.KEYWORD_ONLY and (name, p.name) not in SUBJECTS:
                positional.append(f"{name}: {p.name}")
    assert positional == []


SOLVER_RESULTS = [kj.DDResult, kj.Par, kj.BidAnalysis, kj.HandReview, quintet.Solution, quintet.RevealSolution,
                  quintet.RevealEquilibrium, quintet.RevealResponse, quintet.SolveManyResult]


@pytest.mark.parametrize("cls", SOLVER_RESULTS, ids=lambda c: c.__name__)
def test_solver_results_are_frozen_with_value_to_dict_and_pretty(cls):
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    fields = {f.name for f in dataclasses.fields(cls)}
    assert "value" in fields or isinstance(getattr(cls, "value", None), property)
    assert callable(getattr(cls, "to_dict", None)) and callable(getattr(cls, "pretty", None))


def test_results_round_trip_through_json_and_text():
    deal = kj.Deal.random(seed=3)
    results = [
        kj.solve(kj.PlayState(deal, trump="s", declarer="E", leader="S")),
        kj.par(deal, dealer="W"),
        kj.analyse_bid(deal.hands[1], seat="E", dealer="N", samples=4, seed=1, processes=1),
        quintet.solve(quintet.Deal.random(seed=2, k=2)),
    ]
    for res in results:
        data = json.loads(json.dumps(res.to_dict()))
        assert isinstance(res.pretty(), str) and res.pretty()
        if "value" in data:
            assert data["value"] == pytest.approx(res.value)


def test_no_public_name_of_the_package_means_something_else_in_a_game():
    for name in quartet_solver.__all__:
        for game in GAMES:
            if name in getattr(game, "__all__", ()):
                assert getattr(game, name) is getattr(quartet_solver, name), f"{game.__name__}.{name}"


def test_within_a_game_every_public_name_is_one_thing():
    for game in GAMES:
        assert len(game.__all__) == len(set(game.__all__)), game.__name__
        for name in game.__all__:
            assert hasattr(game, name), f"{game.__name__}.{name}"


def _accepts(func, *args, **kwargs) -> None:
    inspect.signature(func).bind(*args, **kwargs)


def test_the_documented_calls_are_accepted():
    """The calls the API documents (with placeholders), bound to the signatures."""
    _accepts(quintet.evaluate, "Ah Kh Qh Jh Th", kickers="full")
    _accepts(quintet.score, "a", "b", points=(3, 4, 5, 6, 7))
    _accepts(quintet.solve, "deal", points=(3, 4, 5, 6, 7))
    _accepts(quintet.best_response, "deal", "opponent", points=(3, 4))
    _accepts(quintet.solve_many, ["deal"], client=None)
    _accepts(kj.PlayState, "deal", trump="h", declarer="N", leader="E", rules=kj.Rules.AMSTERDAM)
    _accepts(kj.dd_table, "deal", leader="E", rules="amsterdam")
    _accepts(kj.analyse_bid, "hand", seat="E", dealer="N", samples=500, rules="amsterdam", seed=1)
    _accepts(kj.sample_deals, "view", 10, seed=None)
    _accepts(kj.SamplingBot, seed=1)
    _accepts(kj.review, "record")
    _accepts(kj.dd_tables, ["deal"], "N", rules="amsterdam", client=None)
    _accepts(kw.Deck.standard, ranks="AKQJ")
    _accepts(kw.Knowledge, "deck", players=3, me=0, hand="Ac Ad Qc Jc Js")
    _accepts(kw.Game, "deck", players=4, seed=1, rules=kw.Rules())
    _accepts(quintet.solve, "deal", variant="reveal")
    _accepts(quintet.best_response, "deal", "strategy", variant="reveal")
    _accepts(kw.Knowledge.sample, "k", 10, seed=None)
    _accepts(kw.PlanningBot, seed=1)


def test_old_spellings_work_with_a_warning():
    deal = kj.Deal.random(seed=7)
    with pytest.warns(DeprecationWarning, match=r"dd_table\(\.\.\., rules=\.\.\.\)"):
        old = kj.dd_table(deal, "E", "rotterdam")
    assert old == kj.dd_table(deal, "E", rules="rotterdam")
    with pytest.warns(DeprecationWarning, match="node_limit="):
        assert kj.solve(kj.PlayState(deal, "h", "N", "E"), 10**9).value == \
            kj.solve(kj.PlayState(deal, "h", "N", "E")).value
    with pytest.raises(TypeError, match="multiple values"), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        kj.dd_table(deal, "E", "rotterdam", rules="amsterdam")
