"""摸到爽 conformance: seeded random and greedy playouts for 3, 4 and 5 players and every option
value (``CONFORMANCE["option_sets"]``), checked at every step, plus replay, determinism, the
Arrow round trip, event kinds reached and sessions (MDS-8, MDS-36, MDS-41, MDS-42)."""

from __future__ import annotations

import collections
import json
import random

import pytest

from engine.cards import parse_face
from engine.errors import InvalidEvent
from engine.events import batch_to_events, events_to_batch, seal_events
from engine.games import modaoshuang as mds
from engine.replay import Replay, validate_events

from .conftest import players, playout

OPTION_SETS = mds.CONFORMANCE["option_sets"]
DECK = collections.Counter(range(54))
SKIP_KEYS = {"players", "options", "result", "outcomes"}


def test_option_sets_cover_every_option_value():
    """MDS-7: every value of every option is played by the conformance option sets."""
    seen = collections.defaultdict(set)
    for o in OPTION_SETS:
        for k, v in mds.Options(**o).to_dict().items():
            seen[k].add(v)
    assert seen["mds_players"] == {3, 4, 5} and seen["mds_hand_size"] == set(range(3, 9))
    for k in ("mds_zhamo", "mds_one_card_report"):
        assert seen[k] == {True, False}
    assert seen["mds_settlement"] == {"negative", "chips"}
    assert seen["mds_joker_violation"] == {"penalty", "illegal"}
    assert seen["mds_dianpao"] == {"leader", "preceding"}


def _faces_in(obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k not in SKIP_KEYS:
                _faces_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _faces_in(v, out)
    elif isinstance(obj, str):
        try:
            out.add(parse_face(obj))
        except InvalidEvent:
            pass
    return out


def _check_views(s, known):
    """MDS-41: a seat's view shows only faces it has seen (from the events it saw)."""
    for seat in range(s.n):
        v = mds.view(s, seat)
        json.dumps(v)
        assert all(isinstance(h, int) for i, h in enumerate(v["hands"]) if i != seat)
        shown = _faces_in(v, set())
        assert shown <= known[seat], (seat, s.seq, shown - known[seat])


def _checked_playout(seed, opts, policy):
    """A playout with every per-step check of the conformance suite."""
    rng = random.Random(seed)
    o = mds.Options(**opts)
    e0 = mds.start_event(f"conf-{seed}", players(o.mds_players), rng, o)
    s = mds.initial_state(e0)
    events = [e0]
    pol = mds.POLICIES[policy]()
    known = [set() for _ in range(o.mds_players)]
    while not mds.is_over(s):
        actions = mds.legal_actions(s)
        assert actions, f"seq {s.seq}: no legal action in an unfinished game"
        before = s.copy()
        for a in actions:
            mds.check(s, a)
        a = pol.choose(s, rng)
        assert mds.to_move(s) in (-1, a.seat) or a.kind == "REPORT"
        new = mds.apply(s, a)
        assert s == before, f"seq {s.seq}: apply or check changed its input"
        counts = mds.face_counts(new)
        assert counts is None or counts == DECK, f"seq {s.seq}: cards not conserved"
        assert mds.from_position(json.loads(json.dumps(mds.to_position(new)))) == new
        for seat in range(o.mds_players):
            known[seat].update(mds.seen_event(a, seat).cards)
        _check_views(new, known)
        events.append(a)
        s = new
    assert mds.legal_actions(s) == [] and mds.to_move(s) == -1
    return events, s


def _assert_end(s):
    """MDS-33 to MDS-39: one winner without cards; outcomes agree with the result."""
    r = mds.result(s)
    w = r["winner"]
    assert s.hands[w] == () and r["final_hands"][w] == []
    oc = mds.outcomes(s)
    assert [o.result for o in oc].count("win") == 1 and oc[w].place == 1
    assert [o.score for o in oc] == r["scores"]
    if r["settlement"] == "chips":
        assert sum(r["scores"]) == 0
    else:
        assert r["scores"][w] == 0 and sum(r["scores"]) == -sum(r["payments"])
    assert sum(r["payments"]) == sum(r["base_losses"])


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_conformance_every_step(k, policy):
    """Legal actions exist and pass check; apply never mutates; 54 cards; positions round-trip;
    views show only what a seat knows; replay equals the live state."""
    for i in range(2):
        events, s = _checked_playout(100 * k + i, OPTION_SETS[k], policy)
        _assert_end(s)
        rep = Replay(events)
        assert rep.final == s
        assert validate_events(seal_events(events)).status == "ok"


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_conformance_replay_determinism_and_arrow(k):
    """Same seed, same events; a replay equals the live state; an Arrow batch keeps events."""
    opts = OPTION_SETS[k]
    for seed in range(4):
        for policy in ("random", "greedy"):
            events, s = playout(seed, opts, policy)
            again, _ = playout(seed, opts, policy)
            assert again == events
            sealed = seal_events(events)
            assert batch_to_events(events_to_batch(sealed)) == sealed
            assert Replay(sealed).final == s
            _assert_end(s)


def test_random_self_play_reaches_every_event_kind():
    """Every event kind of section 13 occurs in seeded random self-play."""
    kinds = collections.Counter()
    for k, opts in enumerate(OPTION_SETS):
        for seed in range(8):
            events, _ = playout(1000 * k + seed, opts, "random")
            kinds.update(e.kind for e in events)
    assert set(mds.CONFORMANCE["required_kinds"]) <= set(kinds), kinds
    assert set(kinds) == set(mds.CONFORMANCE["required_kinds"])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_mds_36_sessions_pass_the_first_leader_on(n):
    """MDS-36 / MDS-8: each later game is led by the previous winner; check_session accepts
    that and refuses a wrong leader, also when the start says it is a first game."""
    prev = None
    for i in range(4):
        kw = mds.session_start(prev) if prev is not None else {}
        prev_id = prev.game_id if prev is not None else None
        rng = random.Random(10 * n + i)
        e0 = mds.start_event(f"s{n}-{i}", players(n), rng, mds.Options(mds_players=n),
                             previous_game=prev_id, **kw)
        if prev is not None:
            assert e0.value == prev.winner and e0.tag == "previous"
            assert mds.check_session(e0, prev) is None
            wrong = (prev.winner + 1) % n
            p = json.loads(e0.payload)
            p.update(first_leader=wrong, first_leader_rule="random")
            bad = e0._replace(payload=json.dumps(p), value=wrong, tag="random")
            mds.initial_state(bad)                    # a valid start on its own
            assert mds.check_session(bad, prev).rule_id == "MDS-36"
        s = mds.initial_state(e0)
        pol = mds.POLICIES["random"]()
        while not mds.is_over(s):
            mds.step(s, pol.choose(s, rng))
        prev = s
