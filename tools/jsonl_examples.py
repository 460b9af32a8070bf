"""Regenerate docs/examples/*.jsonl: one short self-play game of every registered game in the
liujia.jsonl/1 interchange format (docs/interchange.md).

Each example is made the way a user would: ``liujia simulate`` writes seeded games (sessions of
one game, so that each stands alone) to a sealed Arrow log, and the shortest game of more than
``MIN_EVENTS`` events is written as JSON Lines. Run from the repository root:

    .venv/bin/python tools/jsonl_examples.py

The examples in docs/ are of the games liujia ships (``engine.games.BUILT_IN``); a plug-in
game keeps its example with its test data, written by ``tools/jsonl_examples.py GAME FILE``
(the tests' 小墩: ``LIUJIA_GAMES=toy_tricks=tests.toygame .venv/bin/python
tools/jsonl_examples.py toy_tricks tests/games/toygame/toy_tricks.jsonl``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games import BUILT_IN  # noqa: E402
from engine.jsonl import JsonlWriter  # noqa: E402
from engine.log import read_log  # noqa: E402
from liujia.cli import main  # noqa: E402

OUT = ROOT / "docs" / "examples"
SEED = 1
CANDIDATES = 40
MIN_EVENTS = 30
OPTIONS = {"modaoshuang": ["mds_players=4"]}


def example(game: str, folder: Path) -> list:
    """The events of the example game of one registered game."""
    opts = [a for o in OPTIONS.get(game, []) for a in ("--option", o)]
    code = main(["simulate", "--game", game, "--games", str(CANDIDATES), "--seed", str(SEED),
                 "--session-games", "1", "--out", str(folder), "--quiet", *opts])
    if code != 0:
        raise SystemExit(f"liujia simulate --game {game} failed ({code})")
    games = [g.events for f in sorted(folder.glob("*.arrows")) for g in read_log(f).games]
    return min((g for g in games if len(g) > MIN_EVENTS), key=len)


def write_example(game: str, path: Path) -> None:
    """Write the worked example of one registered game to path."""
    with tempfile.TemporaryDirectory() as tmp:
        events = example(game, Path(tmp))
    with JsonlWriter(path, generator="liujia simulate (tools/jsonl_examples.py)") as w:
        w.write_game(events)
    print(f"{game}: {events[0].game_id}, {len(events)} events")


def run(args: list[str]) -> None:
    """Write docs/examples/<game>.jsonl for every shipped game, or (GAME FILE) one game's."""
    if args:
        game, path = args
        write_example(game, Path(path))
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for game in BUILT_IN:
        write_example(game, OUT / f"{game}.jsonl")


if __name__ == "__main__":
    run(sys.argv[1:])
