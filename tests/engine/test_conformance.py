"""The conformance suite: seeded random playouts of every registered game, checked at every step.

Checks (STYLE.md): legal actions exist unless the game is over; every listed action passes
``check``; ``apply`` never mutates its input; each face's count is conserved; replaying the log
reproduces the live state and result; an Arrow write/read round trip keeps events and digests;
every game ends under the game's end conditions.
"""

from __future__ import annotations

import collections
import random

import pytest

from engine.events import seal_events
from engine.games import GAMES, find_game
from engine.log import read_log, write_log
from engine.replay import Replay, validate_events
from engine.sim import policy

OPTION_SETS = {
    "keng": [
        {},
        {"keng_hand_size": 8, "keng_hand_limit": 18, "keng_tens": False,
         "keng_black_jokers": 6, "keng_red_jokers": 6, "keng_rj_stack_value": 4,
         "keng_k_on_rj": True, "keng_pair_action": "once", "keng_draw_when_able": True},
        {"keng_hand_size": 6, "keng_hand_limit": 32, "keng_black_jokers": 4,
         "keng_red_jokers": 5},
    ],
}
GAMES_PER_SET = 70


def _face_counts(s):
    c = collections.Counter(s.stock)
    c.update(s.table)
    c.update(s.top)
    for h in s.hands:
        c.update(h)
    return c


def _playout(g, gid, seed, opts, pol):
    rng = random.Random(seed)
    e0 = g.start_event(gid, [f"p{i}" for i in range(6)], rng, g.Options(**opts))
    s = g.initial_state(e0)
    deck = collections.Counter(e0.cards)
    events = [e0]
    while not g.is_over(s):
        actions = g.legal_actions(s)
        assert actions, f"{gid} seq {s.seq}: no legal action in an unfinished game"
        before = s.copy()
        for a in actions:
            g.check(s, a)
        assert s == before, f"{gid} seq {s.seq}: check changed its input"
        a = g.auto_event(s, rng)
        if a is None:
            a = pol.choose(s, rng)
        new = g.apply(s, a)
        assert s == before, f"{gid} seq {s.seq}: apply changed its input"
        if s.phase != "deal" and new.phase != "deal":
            assert _face_counts(new) == deck, f"{gid} seq {s.seq}: cards not conserved"
        events.append(a)
        s = new
    assert g.legal_actions(s) == []
    return seal_events(events), s


def _assert_end(s, gid):
    r = s.result
    assert r["reason"] in ("out", "over_limit", "stalemate"), gid
    seat = r["deciding_seat"]
    if r["reason"] == "out":
        assert s.hands[seat] == () and r["winning_team"] == ("even", "odd")[seat % 2]
    elif r["reason"] == "over_limit":
        assert len(s.hands[seat]) > s.options.keng_hand_limit
        assert r["winning_team"] == ("even", "odd")[1 - seat % 2]
    else:
        assert r["winning_team"] is None and not s.stock and not s.table


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("policy_name", ["random", "greedy"])
def test_conformance(game, policy_name, tmp_path):
    g = find_game(game)
    pol = policy(game, policy_name)
    games, finals = [], []
    kinds = collections.Counter()
    n = GAMES_PER_SET if policy_name == "random" else GAMES_PER_SET // 2
    for k, opts in enumerate(OPTION_SETS[game]):
        for i in range(n):
            gid = f"{game}-{policy_name}-{k}-{i}"
            events, final = _playout(g, gid, 1000 * k + i, opts, pol)
            _assert_end(final, gid)
            games.append(events)
            finals.append(final)
            kinds.update(e.kind for e in events)
    path = tmp_path / "conformance.arrows"
    write_log(path, games)
    log = read_log(path)
    assert log.ok
    assert [x.events for x in log.games] == games
    for events, final in zip(games, finals, strict=True):
        v = validate_events(events)
        assert v.status == "ok", v.to_json()
        assert v.state == final
        assert v.state.result == final.result
        rep = Replay(events)
        assert rep.final == final
    if policy_name == "random":
        for kind in ("PLAY", "ACCEPT", "DRAW", "PASS", "DUEL_START", "DUEL_PLAY", "DUEL_END",
                     "SNATCH", "LAST_CARD", "REPORT_PENALTY", "COUNT", "RESHUFFLE"):
            assert kinds[kind] > 0, f"self-play never produced {kind}: coverage is too thin"


def test_same_seed_same_bytes(tmp_path):
    from engine.sim import simulate
    a = [g.events for g in simulate("keng", 12, seed=99)]
    b = [g.events for g in simulate("keng", 12, seed=99)]
    c = [g.events for g in simulate("keng", 12, seed=100)]
    write_log(tmp_path / "a.arrows", a)
    write_log(tmp_path / "b.arrows", b)
    write_log(tmp_path / "c.arrows", c)
    assert (tmp_path / "a.arrows").read_bytes() == (tmp_path / "b.arrows").read_bytes()
    assert (tmp_path / "a.arrows").read_bytes() != (tmp_path / "c.arrows").read_bytes()
