"""``liujia demo``: what a newcomer runs first — a seeded demo corpus in a warehouse, then the
dashboard. A second run finds the games already there and only starts the dashboard."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine.errors import EngineError
from engine.games import find_game
from liujia.commands._common import fail
from liujia.commands.serve import add_server_options, free_port, resolve_db, serve, url
from liujia.commands.simulate import write_games

DEFAULT_GAMES = 3000
DEFAULT_SEED = 2026
GAMES_PER_FILE = 500
# The demo corpus: each game id with its share of --games, e.g. (("keng", 2), ("gouji", 1)).
CORPUS: tuple[tuple[str, int], ...] = (("keng", 1),)


def corpus_plan(games: int) -> list[tuple[str, int]]:
    """How many of the demo's games each game of CORPUS gets: shares of ``games``, each at least
    one, the rounding remainder to the first."""
    total = sum(share for _, share in CORPUS)
    plan = [(game, max(1, games * share // total)) for game, share in CORPUS]
    first, n = plan[0]
    plan[0] = (first, max(1, n + games - sum(k for _, k in plan)))
    return plan


def _titles() -> str:
    return " and ".join(find_game(game).TITLE for game, _ in CORPUS)


def _what(plan: list[tuple[str, int]]) -> str:
    """'3,000 六人坑 games' or '2,000 六人坑 and 1,000 够级 games'."""
    return " and ".join(f"{n:,} {find_game(game).TITLE}" for game, n in plan) + " games"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("demo", help="load a seeded demo corpus (if the warehouse is empty) "
                       "and start the dashboard",
                       description="The first command to run: if the warehouse is empty, "
                       f"simulate a seeded corpus of {_titles()} games, write them as Arrow logs next "
                       "to the warehouse and ingest them; then print where everything is and "
                       "start the dashboard. A second run reuses the data.")
    add_server_options(p)
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help=f"games to simulate into an empty warehouse (default {DEFAULT_GAMES})")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help=f"seed of the simulation (default {DEFAULT_SEED})")
    p.add_argument("--no-serve", action="store_true",
                   help="do everything but start the dashboard")
    return p


def data_dir(db: Path) -> Path:
    """The folder of the demo's Arrow logs: next to the warehouse file."""
    return db.parent / f"{db.stem}-demo-logs"


def warehouse_games(db: Path) -> int:
    """Number of games in the warehouse (0 when the file is missing)."""
    from warehouse.db import connect
    from warehouse.queries import counts

    if not db.is_file():
        return 0
    con = connect(db, read_only=True)
    try:
        return int(counts(con).get("games", 0))
    finally:
        con.close()


def write_corpus(out: Path, games: int, seed: int, progress: bool = True) -> list[Path]:
    """Simulate the seeded demo corpus (``corpus_plan``) and write it as sealed logs of
    GAMES_PER_FILE games each, one series of files per game."""
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for game, n in corpus_plan(games):
        for old in out.glob(f"{game}-demo-*.arrows"):
            old.unlink()    # a previous, interrupted demo: start clean (same seed, same bytes)
        written, _ = write_games(out, game, n, seed, per_file=GAMES_PER_FILE, prefix="demo-",
                                 progress=progress)
        files += written
    return files


def prepare(db: Path, games: int, seed: int, progress: bool = True) -> tuple[bool, str]:
    """Fill an empty warehouse with the demo corpus; (True if it was created, summary line)."""
    have = warehouse_games(db)
    if have:
        return False, f"warehouse {db} already holds {have:,} games: reusing them"
    from ingest import ingest_paths

    folder = data_dir(db)
    t0 = time.perf_counter()
    print(f"The warehouse {db} is empty: simulating {_what(corpus_plan(games))} (seed {seed}) "
          f"into {folder}", flush=True)
    files = write_corpus(folder, games, seed, progress)
    print(f"Loading {len(files)} log files into {db}", flush=True)
    s = ingest_paths([str(f) for f in files], db=db, progress=progress)
    summary = (f"ingest run {s.run_id}: {s.games_read:,} games read, {s.loaded:,} loaded, "
               f"{s.already_present:,} already present, {s.quarantined:,} quarantined, "
               f"{s.events_loaded:,} events in {time.perf_counter() - t0:.1f} s")
    return True, summary


def first_game(db: Path) -> str | None:
    """The id of a game to open first (the most recent one)."""
    from warehouse.db import connect
    from warehouse.queries import recent_games

    con = connect(db, read_only=True)
    try:
        t = recent_games(con, 1)
    finally:
        con.close()
    return t.column("game_id")[0].as_py() if t.num_rows else None


def run(args: argparse.Namespace) -> int:
    """Prepare the demo corpus, say where things are, start the dashboard."""
    if args.games < 1:
        return fail("--games must be at least 1")
    import duckdb

    db = resolve_db(args.db)
    try:
        _, summary = prepare(db, args.games, args.seed)
        game = first_game(db)
    except (EngineError, OSError, duckdb.Error) as exc:
        return fail(f"demo: {db}: {exc}")
    print(summary)
    print(f"\nWarehouse:  {db}")
    if data_dir(db).is_dir():
        print(f"Demo logs:  {data_dir(db)}")
    port = args.port or free_port(args.address)
    print(f"\nDashboard:  {url(args.address, port)}")
    print(f"  overview    {url(args.address, port)}  games by type, results by "
          "team, recent games")
    if game:
        print(f"  replay      {url(args.address, port, 'replay', f'game={game}&step=0&view=auditor')}")
        print("              step with previous/next or the slider; switch the perspective "
              "to a seat to see only what it saw")
    print(f"  quarantine  {url(args.address, port, 'quarantine')}  games the ingest refused")
    if args.no_serve:
        print(f"\nStart it with:  liujia serve --db {db} --port {port}")
        return 0
    print(flush=True)
    return serve(db, port, args.address)
