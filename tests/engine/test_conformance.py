"""The conformance suite: seeded random and greedy playouts of every registered game, checked at
every step, from the data each game supplies (``CONFORMANCE``: option sets, games per set, the
event kinds self-play must reach, optionally ``policies``: further self-play policies of the
game, run like greedy) — a game supplies data, the loops live here.

At every step: legal actions exist unless the game is over, and each names the seat
``to_move`` waits for or an out-of-turn seat of the game; every listed action passes
``check``; ``apply`` never mutates its input; each face's count is conserved
(``face_counts``); the position round-trips through JSON to an equal state; no seat's
``view`` shows a face that seat has not seen in an event it could see. At the end: the
outcomes agree with the sides and the scores, replaying the log reproduces the live state, and
an Arrow write/read keeps events and digests. Sessions start from ``session_start`` and pass
``check_session``; events and positions are fuzzed.
"""

from __future__ import annotations

import collections
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import seal_events
from engine.games import GAMES, find_game
from engine.games.base import Game
from engine.games.frame import DRAW, FIXED_SIDES, FORMED_SIDES, NO_SIDES, RESULTS, WIN
from engine.log import read_log, write_log
from engine.replay import Replay, validate_events
from engine.sim import policy, simulate

GAME_IDS = sorted(GAMES)
VIEW_EVERY = 7          # a seat's view is checked at every 7th step (and at the end)


def _data(game):
    data = getattr(find_game(game), "CONFORMANCE", None)
    assert isinstance(data, dict) and data.get("option_sets") and data.get("games"), \
        f"{game}: its package must supply CONFORMANCE data (option sets, games per set)"
    return data


@pytest.mark.parametrize("game", GAME_IDS)
def test_game_provides_the_interface_and_its_data(game):
    g = find_game(game)
    assert isinstance(g, Game), f"{game} is not a declared engine.games.base.Game"
    assert g.GAME_ID == game
    assert isinstance(g.TITLE, str) and g.TITLE
    assert isinstance(g.RULE_PREFIX, str) and g.RULE_PREFIX.isupper()
    assert g.SIDES in (NO_SIDES, FIXED_SIDES, FORMED_SIDES)
    assert g.DEMO["weight"] >= 1 and g.DEMO["option_sets"]
    data = _data(game)
    assert data["required_kinds"], f"{game}: name the event kinds self-play must produce"
    for opts in data["option_sets"]:
        assert 2 <= g.seat_count(g.Options(**opts)) <= 8
    for name in ("random", "greedy"):
        assert policy(game, name) is not None


def _faces_in(obj, out):
    """Every card face a view shows: strings of lists whose items are all faces."""
    if isinstance(obj, dict):
        for v in obj.values():
            _faces_in(v, out)
    elif isinstance(obj, list):
        if obj and all(isinstance(x, str) for x in obj):
            try:
                out.update(parse_face(x) for x in obj)
                return out
            except EngineError:
                pass
        for v in obj:
            _faces_in(v, out)
    return out


def _check_views(g, s, seen, gid):
    """No seat's view shows a face it has not seen in an event it could see or in its own
    hand (a deal event may carry every seat's cards: each sees its own part)."""
    for seat in range(len(s.players)):
        view = g.view(s, seat)
        shown = _faces_in(view, set())
        own = view["hands"][seat]
        own = _faces_in([own], set()) if isinstance(own, list) else set()
        leaked = shown - seen[seat] - own
        assert not leaked, f"{gid} seq {s.seq}: seat {seat}'s view shows unseen faces {leaked}"
    json.dumps(g.view(s, None))


def _check_position(g, s, gid):
    pos = json.loads(json.dumps(g.to_position(s)))
    assert g.from_position(pos) == s, f"{gid} seq {s.seq}: the position does not round-trip"


def _playout(g, gid, seed, opts, pol, *, check_all=True):
    rng = random.Random(seed)
    options = g.Options(**opts)
    n = g.seat_count(options)
    e0 = g.start_event(gid, [f"p{i}" for i in range(n)], rng, options)
    s = g.initial_state(e0)
    assert len(s.players) == n
    deck = collections.Counter(e0.cards) or None   # else: the first counts the game gives
    seen = [set() for _ in range(n)]
    events = [e0]
    step = 0
    while not g.is_over(s):
        actions = g.legal_actions(s)
        assert actions, f"{gid} seq {s.seq}: no legal action in an unfinished game"
        before = s.copy()
        mover = g.to_move(s)
        if g.next_auto(s) is None:
            assert 0 <= mover < n, f"{gid} seq {s.seq}: to_move {mover} while a seat must act"
            assert any(a.seat == mover for a in actions), f"{gid}: to_move has no action"
        for a in actions if check_all else actions[:8]:
            g.check(s, a)
        assert s == before, f"{gid} seq {s.seq}: check changed its input"
        a = g.auto_event(s, rng)
        if a is None:
            a = pol.choose(s, rng)
        new = g.apply(s, a)
        assert s == before, f"{gid} seq {s.seq}: apply changed its input"
        counts = g.face_counts(new)
        if counts is not None:
            deck = deck or counts
            assert counts == deck, f"{gid} seq {s.seq}: cards not conserved"
        a = a._replace(game_id=gid, seq=s.seq)
        public = _faces_in(json.loads(a.payload), set()) if a.payload else set()
        for seat in range(n):
            part = g.seen_event(a, seat).cards
            assert set(part) <= set(a.cards) and (part == a.cards) == g.cards_visible(a, seat)
            seen[seat].update(part)
            if g.cards_visible(a, seat):
                seen[seat].update(public)
        assert g.seen_event(a, None) == a
        events.append(a)
        s = new
        step += 1
        if step % VIEW_EVERY == 0:
            _check_views(g, s, seen, gid)
            _check_position(g, s, gid)
    _check_views(g, s, seen, gid)
    _check_position(g, s, gid)
    assert g.legal_actions(s) == [] and g.to_move(s) == -1
    return seal_events(events), s


def _assert_outcomes(g, s, gid):
    """A finished game has one outcome per seat; winners and losers agree with the sides."""
    out = g.outcomes(s)
    n = len(s.players)
    assert out is not None and len(out) == n, gid
    assert all(o.result in RESULTS and isinstance(o.score, int) for o in out), gid
    assert isinstance(g.result(s), dict), gid
    sides = g.sides(s)
    assert len(sides) == n, gid
    if g.SIDES == NO_SIDES:
        assert sides == (None,) * n, gid
    won = [i for i, o in enumerate(out) if o.result == WIN]
    if any(o.result == DRAW for o in out) and (g.SIDES != NO_SIDES or not won):
        assert all(o.result == DRAW for o in out), f"{gid}: a draw is a draw for every seat"
    # beside a winner, a seat that draws took no part in the result: it neither won nor paid
    assert all(o.score == 0 for o in out if o.result == DRAW and won), gid
    if g.SIDES == FIXED_SIDES and won:
        assert {sides[i] for i in won} == {sides[won[0]]}, gid
        assert all(o.result == WIN for i, o in enumerate(out) if sides[i] == sides[won[0]])
    places = [o.place for o in out if o.place is not None]
    assert len(places) == len(set(places)), f"{gid}: two seats share a place"


def _cases(game):
    data = _data(game)
    for k, opts in enumerate(data["option_sets"]):
        for pol in ("random", "greedy", *data.get("policies", ())):
            yield k, opts, pol, data["games"] if pol == "random" else max(1, data["games"] // 2)


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("policy_name", ["random", "greedy"])
def test_conformance(game, policy_name, tmp_path):
    g = find_game(game)
    data = _data(game)
    pol = policy(game, policy_name)
    games, finals = [], []
    kinds = collections.Counter()
    for k, opts, pname, n in _cases(game):
        if pname != policy_name:
            continue
        for i in range(n):
            gid = f"{game}-{policy_name}-{k}-{i}"
            events, final = _playout(g, gid, 1000 * k + i, opts, pol,
                                     check_all=data.get("check_all", True))
            _assert_outcomes(g, final, gid)
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
        assert g.result(v.state) == g.result(final)
        assert Replay(events).final == final
    if policy_name == "random":
        for kind in data["required_kinds"]:
            assert kinds[kind] > 0, f"self-play never produced {kind}: coverage is too thin"


GAME_POLICIES = [(game, name) for game in GAME_IDS
                 for name in getattr(find_game(game), "CONFORMANCE", {}).get("policies", ())]


@pytest.mark.parametrize(("game", "policy_name"), GAME_POLICIES)
def test_conformance_of_game_policies(game, policy_name, tmp_path):
    """A game's further policies (``CONFORMANCE["policies"]``, e.g. bots whose decisions time
    out) go through the same checks."""
    test_conformance(game, policy_name, tmp_path)


@pytest.mark.parametrize("game", GAME_IDS)
def test_sessions_follow_session_start(game):
    """simulate() starts each later game of a session from the game's session_start, and the
    game's check_session accepts what it made, for every option set."""
    g = find_game(game)
    for opts in _data(game)["option_sets"][:3]:
        games = list(simulate(game, 4, seed=5, session_games=2, options=g.Options(**opts)))
        for i, sim in enumerate(games):
            if i % 2:
                assert g.check_session(sim.events[0], games[i - 1].final) is None
                assert isinstance(g.session_start(games[i - 1].final), dict)
                assert json.loads(sim.events[0].payload)["previous_game"] == \
                    games[i - 1].events[0].game_id


@pytest.mark.parametrize("game", GAME_IDS)
def test_same_seed_same_bytes(game, tmp_path):
    g = find_game(game)
    opts = g.Options(**_data(game)["option_sets"][0])
    runs = {}
    for name, seed in (("a", 99), ("b", 99), ("c", 100)):
        write_log(tmp_path / f"{name}.arrows",
                  [x.events for x in simulate(game, 3, seed=seed, options=opts)])
        runs[name] = (tmp_path / f"{name}.arrows").read_bytes()
    assert runs["a"] == runs["b"] != runs["c"]


@pytest.fixture(scope="module")
def sample_states():
    """States of one seeded game per registered game, every few steps."""
    out = {}
    for game in GAME_IDS:
        g = find_game(game)
        opts = g.Options(**_data(game)["option_sets"][0])
        sim = next(simulate(game, 1, seed=3, options=opts))
        rep = Replay(sim.events)
        out[game] = [rep.state_at(i) for i in range(0, len(rep), max(1, len(rep) // 12))]
    return out


_fields = st.sampled_from(["kind", "seat", "cards", "target", "value", "tag", "payload"])
_values = st.one_of(st.integers(-3, 60), st.text(max_size=6),
                    st.lists(st.integers(0, 53), max_size=5), st.none())


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game=st.sampled_from(GAME_IDS), pick=st.integers(0, 10_000), field=_fields,
       value=_values)
def test_fuzzed_events_are_refused_with_a_typed_error(sample_states, game, pick, field, value):
    """A legal action with one field changed is legal or raises an EngineError; the state it
    was checked against is unchanged."""
    g = find_game(game)
    states = sample_states[game]
    s = states[pick % len(states)]
    actions = g.legal_actions(s)
    if not actions:
        return
    a = actions[pick % len(actions)]
    try:
        if field == "cards":
            a = a._replace(cards=tuple(value) if isinstance(value, list) else ())
        elif field in ("seat", "target", "value"):
            a = a._replace(**{field: value if isinstance(value, int) else -1})
        elif field == "payload":
            a = a._replace(payload=None if value is None else json.dumps(value))
        else:
            a = a._replace(**{field: value if isinstance(value, str) else ""})
    except (TypeError, ValueError):
        return
    before = s.copy()
    try:
        g.check(s, a)
    except EngineError:
        pass
    assert s == before


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game=st.sampled_from(GAME_IDS), pick=st.integers(0, 10_000), value=_values,
       key_pick=st.integers(0, 10_000))
def test_fuzzed_positions_load_or_raise_typed(sample_states, game, pick, value, key_pick):
    """A position with one field replaced loads or raises an EngineError, never another
    exception."""
    g = find_game(game)
    states = sample_states[game]
    pos = json.loads(json.dumps(g.to_position(states[pick % len(states)])))
    keys = sorted(pos)
    pos[keys[key_pick % len(keys)]] = value
    try:
        g.from_position(pos)
    except EngineError:
        pass
