"""The sessions tests' corpus: twelve seeded 六人坑 games in sessions of four (`liujia simulate
--session-games 4`), two more games without a session id, ingested with `liujia ingest`; and
each session's totals computed independently of the warehouse, from the logs' own events (the
GAME_START's session, players and time, the GAME_END's winning team: KENG scores +1 for the
winning team's seats, −1 for the others, 0 when nobody won)."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from engine.events import seal_events
from engine.log import read_log, write_log
from engine.sim import BASE_TS, GAME_US, play_game, policy
from liujia.cli import main

SEED = 3            # its three sessions: two won by a team (three players tied), one all level
LOOSE = 2           # games without a session id


def build(root: Path, evil: str | None = None) -> Path:
    """Simulate and ingest the corpus under root; returns the warehouse file. ``evil``: seat 1
    of the first session (one of its winners) is renamed to it in every game (an id the engine
    refuses, so ingest runs with that check off, as a warehouse someone sent; the deals are
    then not committed to, since the commitment covers the GAME_START)."""
    logs = root / "logs"
    assert main(["simulate", "--game", "keng", "--games", "12", "--session-games", "4",
                 "--seed", str(SEED), "--out", str(logs), "--quiet",
                 *(["--no-commit"] if evil is not None else [])]) == 0
    rng = random.Random(5)
    pols = [policy("keng", "random") for _ in range(6)]
    loose = [play_game("keng", f"keng-loose-{i:02d}", [f"player-{i:02d}" for i in range(6)],
                       rng, pols, ts0=BASE_TS + (20 + i) * GAME_US).events
             for i in range(LOOSE)]
    write_log(logs / "loose.arrows", loose)
    if evil is not None:
        _rename(logs, evil)
    db = root / "w.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        if evil is not None:
            mp.setattr("engine.games.common.id_problem", lambda value: None)
        assert main(["ingest", str(logs), "--db", str(db), "--quiet", "-j", "1"]) == 0
    return db


def _rename(logs: Path, evil: str) -> None:
    """Rename seat 1 of the first session in every game's GAME_START, re-sealed."""
    for f in sorted(logs.glob("*.arrows")):
        games = []
        for g in read_log(f).games:
            start = g.events[0]
            p = json.loads(start.payload)
            if (p.get("session") or "").endswith("-00000"):
                p["players"][1] = evil
                start = start._replace(payload=json.dumps(p, sort_keys=True,
                                                          separators=(",", ":")))
            games.append(seal_events([start, *g.events[1:]]))
        write_log(f, games)


def expected(logs: Path) -> dict[str, Any]:
    """From the logs alone: per session its games in start order (game id, start µs, each
    seat's player and score), the totals per player and the winners (empty when level); and
    the games without a session."""
    games, loose = defaultdict(list), []
    for f in sorted(logs.glob("*.arrows")):
        for g in read_log(f).games:
            start, end = json.loads(g.events[0].payload), json.loads(g.events[-1].payload)
            team = end.get("winning_team")
            scores = [0 if team is None else 1 if ("even", "odd")[s % 2] == team else -1
                      for s in range(6)]
            row = {"game_id": g.game_id, "ts": g.events[0].ts, "players": start["players"],
                   "scores": scores}
            if start.get("session"):
                games[start["session"]].append(row)
            else:
                loose.append(row)
    sessions = {}
    for sid, rows in games.items():
        rows.sort(key=lambda r: (r["ts"], r["game_id"]))
        totals: dict[str, int] = defaultdict(int)
        for r in rows:
            for p, s in zip(r["players"], r["scores"], strict=True):
                totals[p] += s
        top = max(totals.values())
        level = len(set(totals.values())) == 1
        sessions[sid] = {"games": rows, "totals": dict(totals), "top": top, "level": level,
                         "winners": [] if level else sorted(p for p, t in totals.items()
                                                            if t == top)}
    return {"sessions": sessions, "loose": loose}
