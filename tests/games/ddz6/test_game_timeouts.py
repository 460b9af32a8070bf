"""Timed-out decisions in self-play (DDZ-75): the ``*_timeouts`` bots sometimes let a decision
time out, and the engine's marked default (target 1) is recorded; replay validates each one,
the same seed gives the same bytes, and the plain bots never time out (golden files stay)."""

from __future__ import annotations

import collections

import pytest

from engine.games import find_game
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.bots import TIMEOUT_RATE, TimeoutPolicy
from engine.games.ddz6.game import default_action
from engine.games.ddz6.setup import DEFAULT
from engine.log import write_log
from engine.replay import Replay, validate_events
from engine.sim import simulate

ACTIONS = ("BID", "DOUBLE", "SHOW_HAND", "SIDE_CHOICE", "PLAY", "PASS")
# The decisions each variant has (3v3 bids only in cases B1 and B2).
DECISIONS = {"3v3": ("BID", "DOUBLE", "PLAY", "PASS"),
             "2v4": ("BID", "SHOW_HAND", "PLAY", "PASS"),
             "zhengfan": ("SIDE_CHOICE", "SHOW_HAND", "PLAY", "PASS")}
N_GAMES = 40


def _marked(events) -> list:
    """The seat actions the engine supplied as defaults (``target`` 1)."""
    return [e for e in events if e.kind in ACTIONS and e.target == DEFAULT]


@pytest.fixture(scope="module")
def timed_out() -> dict[str, list]:
    """Seeded games of each variant with the random and greedy bots that time out."""
    return {v: [g.events for pol in ("random_timeouts", "greedy_timeouts")
                for g in simulate(f"ddz6_{v}", N_GAMES // 2, seed=75, policy_name=pol)]
            for v in VARIANTS}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_decision_kind_times_out_and_replays(timed_out, variant):
    games = timed_out[variant]
    kinds = collections.Counter(e.kind for ev in games for e in _marked(ev))
    for kind in DECISIONS[variant]:
        assert kinds[kind] > 0, f"no {kind} default in {len(games)} games: {dict(kinds)}"
    leads = [e for ev in games for e in _marked(ev) if e.kind == "PLAY"]
    assert all(len(e.cards) == 1 and e.tag.startswith("single:") for e in leads)
    for ev in games:
        assert validate_events(ev).status == "ok"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_marked_default_is_the_engines_default(timed_out, variant):
    """Every marked action is what default_action builds in the state before it (DDZ-75)."""
    checked = 0
    for ev in timed_out[variant][:10]:
        states = list(Replay(ev).states())
        for e, before in zip(ev[1:], states, strict=False):
            if e.kind in ACTIONS and e.target == DEFAULT:
                assert default_action(before) == e._replace(ts=0, digest=b"")
                checked += 1
    assert checked


def test_timeouts_are_rare_and_seeded(timed_out, tmp_path):
    """About TIMEOUT_RATE of the decisions time out; the same seed gives the same bytes."""
    games = timed_out["2v4"]
    decisions = sum(1 for ev in games for e in ev if e.kind in ACTIONS and e.tag != "forced")
    share = sum(len(_marked(ev)) for ev in games) / decisions
    assert TIMEOUT_RATE / 2 < share < TIMEOUT_RATE * 2
    runs = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.arrows"
        write_log(path, [g.events for g in simulate("ddz6_zhengfan", 3, seed=9,
                                                    policy_name="random_timeouts")])
        runs.append(path.read_bytes())
    assert runs[0] == runs[1]


@pytest.mark.parametrize("policy_name", ["random", "greedy"])
def test_plain_bots_never_time_out(policy_name):
    for v in VARIANTS:
        for g in simulate(f"ddz6_{v}", 4, seed=75, policy_name=policy_name):
            assert _marked(g.events) == []


def test_demo_and_conformance_play_with_timeouts():
    for v in VARIANTS:
        g = find_game(f"ddz6_{v}")
        assert isinstance(g.POLICIES[g.DEMO["policy"]](), TimeoutPolicy)
        assert all(isinstance(g.POLICIES[p](), TimeoutPolicy)
                   for p in g.CONFORMANCE["policies"])


def test_no_default_when_no_seat_acts():
    g = find_game("ddz6_2v4")
    final = next(iter(simulate("ddz6_2v4", 1, seed=1))).final
    assert g.is_over(final) and default_action(final) is None
