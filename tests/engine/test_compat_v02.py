"""六人斗地主 positions written by liujia 0.2.0 (tests/data/compat/v0.2/positions, before
``round.last``: each seat's last act of the round) still load, to the state replay reaches at
that step of the same seeded game, and write back the same JSON with ``round.last`` added."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.games import find_game
from engine.replay import Replay
from engine.sim import simulate

ROOT = Path(__file__).resolve().parents[1] / "data" / "compat" / "v0.2" / "positions"
PATHS = sorted(ROOT.glob("*.json"))


def test_the_compat_positions_are_there():
    assert {p.name.split("-")[0] for p in PATHS} == {"ddz6_3v3", "ddz6_2v4", "ddz6_zhengfan"}
    assert len(PATHS) == 15


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_old_ddz6_positions_load_and_mean_the_same(path):
    game, seed, step = path.stem.split("-")
    old = json.loads(path.read_text(encoding="utf-8"))
    g = find_game(game)
    s = g.from_position(old)
    replayed = Replay(next(iter(simulate(game, 1, seed=int(seed)))).events).state_at(int(step))
    new = g.to_position(s)
    assert "last" not in old["round"] and "last" in new["round"]
    known = new["round"].pop("last")
    assert new == old                                   # every other field means the same
    want = g.to_position(replayed)["round"]["last"]     # what the acts really were
    assert all(k is None or k == w for k, w in zip(known, want, strict=True))
    top = old["round"]["top_seat"]
    if top is not None:
        assert known[top] == want[top]                  # the top play's maker is known
