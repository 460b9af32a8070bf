"""Self-play of whole liuhu games (sessions of ``hands`` hands, LH-65 … LH-68) with the random
and greedy bots over the conformance option sets: replay rebuilds the state (LH-71, LH-73),
the same seed gives the same bytes, each later hand follows ``session_start``."""

from __future__ import annotations

import json

import pytest

from engine.games import liuhu as lh
from engine.log import write_log
from engine.replay import validate_events
from engine.sim import simulate

SETS = lh.CONFORMANCE["option_sets"]


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("k", range(len(SETS)))
def test_sessions_replay_and_follow_the_previous_hand(policy, k):
    opts = lh.Options(**SETS[k])
    hands = opts.hands
    games = list(simulate("liuhu", hands + 1, seed=40 + k, policy_name=policy, options=opts,
                          session_games=hands + 1))
    for i, sim in enumerate(games):
        v = validate_events(sim.events)
        assert v.status == "ok" and v.state == sim.final
        p = json.loads(sim.events[0].payload)
        if i == 0:
            continue
        prev = games[i - 1].final
        assert lh.check_session(sim.events[0], prev) is None
        if i < hands:
            assert p["hand"] == i + 1 and p["dealer"] == prev.next_dealer         # LH-66/67
            assert p["balances"] == lh.result(prev)["balances"]                   # LH-68
        else:
            assert p["hand"] == 1 and p["balances"] == [0] * 6                    # a new game
    assert sum(lh.result(games[hands - 1].final)["balances"]) == 0                # zero-sum


def test_check_session_cites_the_rule_lh8_lh65_lh66_lh67_lh68():
    opts = lh.Options(hands=3)
    a, b = list(simulate("liuhu", 2, seed=7, policy_name="greedy", options=opts,
                         session_games=2))
    prev, e0 = a.final, b.events[0]
    p = json.loads(e0.payload)

    def verdict(**changes):
        q = dict(p, **changes)
        return lh.check_session(e0._replace(payload=json.dumps(q)), prev).rule_id

    dealer_rule = "LH-66" if prev.hus else "LH-67"
    assert verdict(dealer=(p["dealer"] + 1) % 6) == dealer_rule
    assert verdict(balances=[1, -1, 0, 0, 0, 0]) == "LH-68"
    assert verdict(hand=3) == "LH-68"
    assert verdict(first_dealer=(p["first_dealer"] + 1) % 6) == "LH-65"
    assert verdict(options=dict(p["options"], min_hu=3)) == "LH-8"
    assert verdict(previous_game="other-game") == "LH-68"


def test_same_seed_same_bytes(tmp_path):
    opts = lh.Options(**SETS[1])
    for name in ("a", "b"):
        write_log(tmp_path / f"{name}.arrows",
                  [x.events for x in simulate("liuhu", 2, seed=3, options=opts,
                                              policy_name="greedy")])
    assert (tmp_path / "a.arrows").read_bytes() == (tmp_path / "b.arrows").read_bytes()
