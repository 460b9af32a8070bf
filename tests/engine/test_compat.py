"""Logs and positions written by liujia 0.1 (tests/data/compat/v0.1, made before the shared
game frame) still load and mean the same: every game validates with the same result, scores
and outcome, every saved position loads to the state replay reaches at its step and writes back
the same JSON, and the same seed still simulates byte-identical files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.games import find_game
from engine.games.frame import WIN
from engine.log import log_files, read_log, write_log
from engine.replay import Replay, validate_events
from engine.sim import simulate

ROOT = Path(__file__).resolve().parents[1] / "data" / "compat" / "v0.1"
EXPECTED = json.loads((ROOT / "expected.json").read_text(encoding="utf-8"))


def _games():
    out = {}
    for f in log_files([str(ROOT)]):
        log = read_log(f)
        assert log.ok, f
        out.update({g.game_id: g.events for g in log.games})
    return out


GAMES = _games()


def test_the_compat_set_is_complete():
    assert set(GAMES) == set(EXPECTED) and len(GAMES) == 9
    assert {find_game(json.loads(e[0].payload)["game"]).GAME_ID for e in GAMES.values()} == {
        "keng", "gouji"}


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_old_logs_validate_with_the_same_result(game_id):
    want = EXPECTED[game_id]
    events = GAMES[game_id]
    v = validate_events(events)
    assert v.status == "ok", v.to_json()
    assert len(events) == want["events"] and events[-1].digest.hex() == want["final_digest"]
    g = v.game
    assert json.loads(json.dumps(g.result(v.state))) == want["result"]
    outcomes = g.outcomes(v.state)
    assert [o.score for o in outcomes] == want["scores"]
    sides = g.sides(v.state)
    won = {sides[i] for i, o in enumerate(outcomes) if o.result == WIN}
    assert won == ({want["winning_team"]} if want["winning_team"] else set())


@pytest.mark.parametrize("path", sorted((ROOT / "positions").glob("*.json")),
                         ids=lambda p: p.stem)
def test_old_positions_load_and_mean_the_same(path):
    pos = json.loads(path.read_text(encoding="utf-8"))
    game_id, step = path.stem.rsplit("-", 1)
    g = find_game(pos["game"])
    state = g.from_position(pos)
    assert state == Replay(GAMES[game_id]).state_at(int(step))
    assert json.loads(json.dumps(g.to_position(state))) == pos


@pytest.mark.parametrize(("game", "games", "seed", "session"),
                         [("keng", 6, 11, 8), ("gouji", 3, 12, 3)])
def test_the_same_seed_still_gives_the_same_bytes(game, games, seed, session, tmp_path):
    [old] = log_files([str(ROOT / game)])
    write_log(tmp_path / "new.arrows",
              [s.events for s in simulate(game, games, seed, session_games=session)])
    assert (tmp_path / "new.arrows").read_bytes() == old.read_bytes()
