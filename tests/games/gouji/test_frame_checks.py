"""The frame every 够级 event goes through first (``engine.games.frame.check_frame``): it belongs
to this game, it carries the next seq, the game is not over (GJ-33).

An event carrying another game's id is refused as malformed (field ``game_id``), as 六人坑
refuses it, in every stage and also while the engine owes derived events (GJ-48): the game id
and the seq are checked before the owed events are compared, and before the game-over rule.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event, seal_events
from engine.games import gouji
from engine.games.gouji.state import OVER
from engine.replay import validate_events
from engine.sim import simulate

SITUATIONS = ("cut", "deal", "play", "owed", "game_end")


@pytest.fixture(scope="module")
def games():
    """Two seeded games of one session: the first has a cut, the second starts at the deal."""
    return list(simulate("gouji", 2, seed=5, session_games=2))


def _before(events: list[Event], pick) -> tuple[object, Event]:
    """The state just before the first event (after GAME_START) that ``pick(state, event)``
    selects, and that event."""
    s = gouji.initial_state(events[0])
    for e in events[1:]:
        if pick(s, e):
            return s, e
        gouji.step(s, e)
    raise AssertionError("no such event")


def _situation(games, name: str) -> tuple[object, Event]:
    first = games[0].events
    if name == "cut":
        return _before(first, lambda s, e: e.kind == "CUT")
    if name == "deal":
        return _before(games[1].events, lambda s, e: e.kind == "DEAL")
    if name == "play":
        return _before(first, lambda s, e: s.stage == "play" and not s.owed and e.seq > 20)
    if name == "owed":
        return _before(first, lambda s, e: bool(s.owed) and e.kind == "ROUND_END")
    return _before(first, lambda s, e: e.kind == "GAME_END")


@pytest.mark.parametrize("name", SITUATIONS)
def test_event_of_another_game_is_refused_first(games, name):
    """A wrong game id is refused (InvalidEvent, field game_id) before anything else, and a
    wrong seq too (field seq); the state is left as it was and the right event still applies."""
    s, e = _situation(games, name)
    assert bool(s.owed) == (name in ("owed", "game_end"))
    before = s.copy()
    for bad, field in ((e._replace(game_id="gouji-other"), "game_id"),
                       (e._replace(game_id="gouji-other", seq=e.seq + 5), "game_id"),
                       (e._replace(seq=e.seq + 1), "seq"),
                       (e._replace(seq=e.seq - 1), "seq")):
        with pytest.raises(InvalidEvent) as info:
            gouji.check(s, bad)
        assert info.value.field == field, (name, bad)
        assert info.value.game_id == s.game_id and info.value.seq == bad.seq
        with pytest.raises(InvalidEvent):
            gouji.step(s, bad)
        assert s == before
    after = gouji.apply(s, e)
    assert after.seq == s.seq + 1


def test_over_is_checked_after_the_frame(games):
    """Once the game is over, another event is GJ-33, but one of another game or with a wrong
    seq is malformed first."""
    final = games[0].final
    assert final.stage == OVER and not final.owed
    e = Event("PASS", seat=0, game_id=final.game_id, seq=final.seq)
    with pytest.raises(IllegalMove) as info:
        gouji.check(final, e)
    assert info.value.rule_id == "GJ-33"
    with pytest.raises(InvalidEvent) as bad:
        gouji.check(final, e._replace(game_id="gouji-other"))
    assert bad.value.field == "game_id"
    with pytest.raises(InvalidEvent) as bad:
        gouji.check(final, e._replace(seq=final.seq + 1))
    assert bad.value.field == "seq"


@pytest.mark.parametrize("kind", ["PLAY", "ROUND_END", "GAME_END"])
def test_replay_refuses_a_log_with_another_games_event(games, kind):
    """Replay (validate) of a game with one event carrying another game's id — an action, an
    owed derived event, the final event — stops there, as for 六人坑."""
    events = list(games[0].events)
    i = max(j for j, e in enumerate(events) if e.kind == kind)
    events[i] = events[i]._replace(game_id="gouji-other")
    v = validate_events(seal_events(events))
    assert v.status == "illegal" and v.events == i
    assert isinstance(v.error, InvalidEvent) and v.error.field == "game_id"
    keng_events = list(simulate("keng", 1, seed=5))[0].events
    keng_events[3] = keng_events[3]._replace(game_id="keng-other")
    k = validate_events(seal_events(keng_events))
    assert (k.status, type(k.error), k.error.field) == ("illegal", InvalidEvent, "game_id")
