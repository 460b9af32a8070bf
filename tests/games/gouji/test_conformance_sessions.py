"""Conformance over seeded 够级 sessions (hundreds of games), checked at every step.

At each step: the game waits for someone or owes an event, and that seat has a legal action;
a sample of the listed actions passes ``check``; ``apply`` never changes its input; the 196
cards are conserved (hands, dead cards and played cards); the position round-trips through
JSON; a play's recorded 够级 flag equals GJ-19 evaluated after its consequences. At the end:
the six positions are distinct, points follow them and the team totals are opposite numbers
(GJ-31, GJ-32); the log replays to the live state; the next game continues the session
(GJ-5, GJ-9, GJ-35).
"""

from __future__ import annotations

import collections
import json
import random

import pytest

from engine.events import seal_events
from engine.games import gouji
from engine.games.gouji.cards import PACK
from engine.games.gouji.position import from_position, to_position
from engine.games.gouji.turns import gouji_now
from engine.replay import validate_events
from engine.sim import policy

PACK_COUNTS = collections.Counter(PACK)
SESSIONS = {
    # (policy, options): sessions of 8 games
    ("random", ()): 9,
    ("random", (("kaidian_effect", "record"),)): 9,
    ("random", (("men_scope", "threes_only"), ("judged_counts_as_out", False))): 5,
    ("greedy", ()): 5,
}
SAMPLE = 12


def _session(pol_name, opts, seed, n_games=8):
    rng = random.Random(seed)
    pol = policy("gouji", pol_name)
    options = gouji.Options(**dict(opts))
    players = [f"p{seed}-{i}" for i in range(6)]
    prev = None
    out = []
    for k in range(n_games):
        kw = gouji.session_start(prev) if prev is not None else {}
        gid = f"gouji-conf-{seed}-{k}"
        e0 = gouji.start_event(gid, players, rng, options, session=f"s{seed}",
                               previous_game=prev.game_id if prev else None, **kw)
        if prev is not None:
            assert gouji.check_session(e0, prev) is None
        s = gouji.initial_state(e0)
        events = [e0]
        kinds = collections.Counter()
        while not gouji.is_over(s):
            actions = gouji.legal_actions(s)
            assert actions, f"{gid} seq {s.seq}: no legal action"
            before = s.copy()
            for a in rng.sample(actions, min(SAMPLE, len(actions))):
                gouji.check(s, a)
            a = gouji.auto_event(s, rng)
            if a is None:
                seat = gouji.due_seat(s)
                assert seat >= 0, f"{gid} seq {s.seq}: nobody to act and nothing owed"
                a = pol.choose(s, rng)
            new = gouji.apply(s, a)
            assert s == before, f"{gid} seq {s.seq}: apply changed its input"
            if new.stage not in ("cut", "direction", "deal"):
                c = collections.Counter(new.played)
                for h in new.hands:
                    c.update(h)
                assert c == PACK_COUNTS, f"{gid} seq {s.seq}: cards not conserved"
            if a.kind == "PLAY" and "void" not in a.tag and new.top_seat == a.seat:
                assert ("gouji" in a.tag.split("+")) == gouji_now(new), \
                    f"{gid} seq {s.seq}: 够级 flag {a.tag} disagrees with GJ-19 after the play"
            assert from_position(json.loads(json.dumps(to_position(new)))) == new, \
                f"{gid} seq {s.seq}: position does not round-trip"
            events.append(a)
            kinds[a.kind] += 1
            s = new
        r = s.result
        assert sorted(r["positions"]) == [1, 2, 3, 4, 5, 6]
        assert r["team_totals"]["even"] == -r["team_totals"]["odd"]
        assert sum(r["points"]) == 0
        if r["chuansanhu"]:
            team = 0 if r["chuansanhu"] == "even" else 1
            assert {r["positions"][i] for i in range(team, 6, 2)} == {1, 2, 3}
            assert r["team_totals"][r["chuansanhu"]] == 3
        sealed = seal_events(events)
        v = validate_events(sealed)
        assert v.status == "ok", v.to_json()
        assert v.state == s
        out.append((sealed, s, kinds))
        prev = s
    return out


@pytest.mark.parametrize(("pol_name", "opts"), list(SESSIONS))
def test_gouji_sessions_conform(pol_name, opts):
    kinds = collections.Counter()
    games = 0
    for k in range(SESSIONS[(pol_name, opts)]):
        for _events, final, kk in _session(pol_name, opts, seed=100 * k + len(opts)):
            kinds.update(kk)
            games += 1
            assert final.stage == "over"
    assert games >= 40
    assert kinds["PLAY"] and kinds["PASS"] and kinds["OUT"]
    if pol_name == "random" and opts == (("kaidian_effect", "record"),):
        for kind in ("RANG", "BURN_START", "BURN_END", "XUANDIAN", "HEDIAN", "OPENED"):
            assert kinds[kind] > 0, f"self-play never produced {kind}"
