"""KENG-7 across a session: a later game cannot opt out of the opener rule by labelling itself.

A 六人坑 game whose GAME_START names a previous game of its session is opened by the seat that
decided that game, whatever ``opener_rule`` it records: a start labelled ``random`` that names a
previous game is refused (KENG-7), by ``initial_state`` alone and by ``check_session`` against
the previous game, so ``liujia validate`` reports it. Logs written by liujia 0.1 (first game of
a session ``random`` with no previous game, later ones ``previous``) still validate.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.errors import IllegalMove
from engine.events import Event, seal_events
from engine.games import keng
from engine.log import write_log
from engine.sim import SimGame, play_game, policy, simulate
from liujia.cli import main

COMPAT = Path(__file__).resolve().parents[2] / "data" / "compat" / "v0.1" / "keng"


def _relabel(e0: Event, **changes) -> Event:
    """GAME_START with payload fields changed; the tag follows opener_rule, value the opener."""
    p = json.loads(e0.payload)
    p.update(changes)
    return e0._replace(payload=json.dumps(p, sort_keys=True, separators=(",", ":")),
                       tag=p["opener_rule"], value=p["opener"])


@pytest.fixture(scope="module")
def session() -> list[SimGame]:
    """The first two games of a seeded session (the second opened by KENG-7)."""
    return list(simulate("keng", 2, seed=31, session_games=2))


def _later_game(first: SimGame, opener: int, seed: int) -> list[Event]:
    """A complete, otherwise legal later game opened by ``opener`` that names ``first`` as its
    previous game but labels its opener a random draw (sealed)."""
    p0 = json.loads(first.events[0].payload)
    sim = play_game("keng", "keng-label-000001", p0["players"], random.Random(seed),
                    [policy("keng", "random") for _ in range(6)],
                    previous_game=first.events[0].game_id, session=p0["session"],
                    opener=opener)
    events = [_relabel(sim.events[0], opener_rule="random"), *sim.events[1:]]
    return seal_events(events)


def test_check_session_refuses_a_random_label_naming_a_previous_game(session):
    """KENG-7: check_session applies whenever the start names a previous game: labelled
    'random', it is refused whoever opens (the deciding seat or another one)."""
    first, second = session
    decider = keng.session_start(first.final)["opener"]
    assert json.loads(second.events[0].payload)["opener_rule"] == "previous"
    assert keng.check_session(second.events[0], first.final) is None
    for opener in (decider, (decider + 1) % 6):
        start = _relabel(second.events[0], opener_rule="random", opener=opener)
        err = keng.check_session(start, first.final)
        assert isinstance(err, IllegalMove), opener
        assert (err.rule_id, err.seq, err.game_id) == ("KENG-7", 0, start.game_id)
        assert "'random'" in err.reason and first.events[0].game_id in err.reason
        assert "previous" in err.reason


def test_check_session_still_accepts_a_first_game_and_checks_previous(session):
    """The label still decides nothing by itself the other way round: a first game ('random',
    no previous game) passes, a 'previous' game with the wrong opener is refused."""
    first, second = session
    assert json.loads(first.events[0].payload)["previous_game"] is None
    assert keng.check_session(first.events[0], first.final) is None
    decider = keng.session_start(first.final)["opener"]
    wrong = _relabel(second.events[0], opener=(decider + 2) % 6)
    err = keng.check_session(wrong, first.final)
    assert err is not None and err.rule_id == "KENG-7"
    with pytest.raises(IllegalMove) as info:
        keng.initial_state(_relabel(second.events[0], opener_rule="random"))
    assert info.value.rule_id == "KENG-7" and "previous game" in info.value.reason


@pytest.mark.parametrize("shift", [0, 3], ids=["deciding-seat-opens", "another-seat-opens"])
def test_validate_refuses_a_relabelled_later_game(session, tmp_path, capsys, shift):
    """End to end: a two-game log whose second game names the first but says 'random' is
    illegal (KENG-7, seq 0) in ``liujia validate``, whoever opens it; the first game and the
    0.1 compatibility logs stay ok."""
    first = session[0]
    opener = (keng.session_start(first.final)["opener"] + shift) % 6
    later = _later_game(first, opener, seed=7 + shift)
    path = tmp_path / "relabelled.arrows"
    write_log(path, [first.events, later])
    assert main(["validate", "--json", str(path), str(COMPAT)]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    by_game = {r["game_id"]: r for r in rows if r["file"] == str(path)}
    assert by_game[first.events[0].game_id]["status"] == "ok"
    bad = by_game["keng-label-000001"]
    assert (bad["status"], bad["rule_id"], bad["seq"]) == ("illegal", "KENG-7", 0)
    assert "'random'" in bad["reason"] and first.events[0].game_id in bad["reason"]
    compat = [r for r in rows if r["file"] != str(path)]
    assert len(compat) >= 2 and all(r["status"] == "ok" for r in compat)
