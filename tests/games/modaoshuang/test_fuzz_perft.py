"""摸到爽 robustness and regression counts.

- Fuzzing (hypothesis): arbitrary events against real states, damaged starts and mutated
  positions either work or raise a typed EngineError (rule ids MDS-n); nothing else escapes.
- Perft: the number of legal action sequences to a small depth from fixed positions; a change
  in move generation shows up as a changed count.
"""

from __future__ import annotations

import json
from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, IllegalMove
from engine.events import Event
from engine.games import modaoshuang as mds
from engine.replay import Replay

from .conftest import playout, pos

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12,
)
KINDS = ["PLAY", "DRAW", "NO_PLAY", "REPORT", "GIFT", "DEAL", "SUIT_DRAW", "ROUND_END",
         "MISSED_REPORT", "PHASE_SHOUDAOSHUANG", "GAME_END", "GAME_START", "BOGUS"]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=1)
def _replays() -> tuple[Replay, ...]:
    return tuple(Replay(playout(seed, opts, pol)[0]) for seed, opts, pol in (
        (1, {"mds_players": 3}, "random"),
        (2, {"mds_players": 5, "mds_joker_violation": "illegal", "mds_zhamo": False},
         "random"),
        (3, {"mds_players": 4, "mds_one_card_report": True, "mds_hand_size": 8}, "greedy")))


def _state(data):
    rep = data.draw(st.sampled_from(_replays()))
    return rep.state_at(data.draw(st.integers(0, len(rep) - 1)))


@FUZZ
@given(data=st.data())
def test_random_events_are_judged_not_crashed(data):
    """Arbitrary events against real states are applied or rejected with a typed error citing
    an MDS rule; a rejected event changes nothing."""
    s = _state(data)
    e = Event(
        data.draw(st.sampled_from(KINDS)),
        seat=data.draw(st.integers(-2, 6)),
        cards=tuple(data.draw(st.lists(st.integers(0, 60), max_size=4))),
        target=data.draw(st.integers(-2, 6)),
        value=data.draw(st.integers(-2, 5)),
        tag=data.draw(st.sampled_from(["", "turn", "penalty", "no_suit", "no_lead", "final",
                                       "report", "joker", "out", "x"])),
        payload=data.draw(st.sampled_from([None, "{}", "not json", '{"winner": 0}'])),
        game_id=s.game_id, seq=data.draw(st.sampled_from([s.seq, s.seq, s.seq, s.seq + 1])),
    )
    before = s.copy()
    try:
        mds.apply(s, e)
    except IllegalMove as exc:
        assert exc.rule_id.startswith("MDS-")
    except EngineError:
        pass
    assert s == before


@FUZZ
@given(data=st.data())
def test_legal_actions_with_one_field_changed_are_judged_not_crashed(data):
    """A legal action with one field damaged is applied or refused with a typed error."""
    s = _state(data)
    acts = mds.legal_actions(s)
    if not acts:
        return
    a = data.draw(st.sampled_from(acts))
    field = data.draw(st.sampled_from(["seat", "cards", "target", "value", "tag", "kind"]))
    value = {
        "seat": st.integers(-1, 5), "target": st.integers(-1, 5), "value": st.integers(-1, 4),
        "cards": st.lists(st.integers(0, 53), max_size=3).map(tuple),
        "tag": st.sampled_from(["", "turn", "penalty", "final", "no_suit"]),
        "kind": st.sampled_from(KINDS),
    }[field]
    e = a._replace(**{field: data.draw(value)})
    try:
        mds.apply(s, e)
    except EngineError:
        pass


@FUZZ
@given(data=st.data())
def test_mutated_positions_load_or_raise_typed(data):
    """MDS-42: a damaged position loads or raises a typed error; a loaded one is usable."""
    p = mds.to_position(_state(data))
    key = data.draw(st.sampled_from(sorted(p)))
    if isinstance(p[key], dict) and data.draw(st.booleans()):
        sub = data.draw(st.sampled_from(sorted(p[key]) or ["x"]))
        p[key][sub] = data.draw(json_values)
    else:
        p[key] = data.draw(json_values)
    try:
        s = mds.from_position(p)
    except EngineError:
        return
    for a in mds.legal_actions(s)[:6]:
        mds.check(s, a)
    mds.view(s, 0)
    mds.GAME.render(s, None)


@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from(["options", "players", "first_leader", "first_leader_rule",
                            "game", "rules_version", "previous_game"]), value=json_values)
def test_damaged_starts_are_refused_with_a_typed_error(key, value):
    """MDS-7 / MDS-8: a GAME_START with a damaged payload starts or raises a typed error."""
    e0 = _replays()[0].events[0]
    p = json.loads(e0.payload)
    p[key] = value
    try:
        mds.initial_state(e0._replace(payload=json.dumps(p)))
    except EngineError:
        pass


# ---------------------------------------------------------------- perft

def _perft(s, depth: int) -> int:
    if depth == 0 or mds.is_over(s):
        return 1
    return sum(_perft(mds.apply(s, a), depth - 1) for a in mds.legal_actions(s))


def test_perft_from_a_drawing_phase_round():
    """MDS-12 / MDS-16 / MDS-17 / MDS-21: action-sequence counts from a fixed lead. By hand:
    depth 1 = three suited leads + BJ and RJ naming each suit = 11; depth 2 = 2h, 9h: 4h, Kh
    or 诈摸 (3 each); 3s: draw (1); each joker: s 1, h 3, c 1, d 2 = 7 each; total 21."""
    s = pos(["2h 3s 9h BJ RJ", "4h 5d Kh", "6c 8d"], stock="Ts Js Qs Ks As 2c",
            leader=0)
    assert [_perft(s, d) for d in range(1, 5)] == PERFT_DRAWING


def test_perft_from_a_shoudaoshuang_round():
    """MDS-29 / MDS-30 / MDS-32 / MDS-22: counts in the 收到爽 phase with a stuck leader. By
    hand: seat 0 cannot lead (1); seat 1 leads any of 4; seat 2 has one answer each (4); then
    seat 3 answers, and seat 2 may report the two cards it has left (8)."""
    s = pos(["BJ", "4h 5d Kh 7s", "6c 8d 9h", "Ts Js"], leader=0,
            options={"mds_joker_violation": "illegal"})
    assert [_perft(s, d) for d in range(1, 6)] == PERFT_SHOU


PERFT_DRAWING = [11, 21, 46, 78]
PERFT_SHOU = [1, 4, 4, 8, 8]
