"""``liujia demo``: what a newcomer runs first — a seeded demo corpus in a warehouse, then the
dashboard. A second run finds the games already there and only starts the dashboard."""

from __future__ import annotations

import argparse
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from engine.errors import EngineError
from engine.games import GAMES, about, find_game
from engine.sim import options_tag
from liujia.commands._common import fail, safe_text
from liujia.commands.serve import (
    access_token,
    add_server_options,
    free_port,
    remote_refusal,
    resolve_db,
    serve,
    url,
)
from liujia.commands.simulate import write_games

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from ingest.run import IngestSummary

DEFAULT_GAMES = 5100
DEFAULT_SEED = 2026
GAMES_PER_FILE = 500
# The styles the demo plants (engine.styles.STYLES), recorded nowhere in the logs: which
# player plays how, and what the analysis should find, is docs/demo.md. Every other player
# of the pool plays UNSTYLED.
PLAYER_STYLES = {
    "player-01": "aggressive",
    "player-02": "cautious",
    "player-03": "claimer",
    "player-04": "hoarder",
    "player-05": "strong",
    "player-06": "weak",
}
UNSTYLED = "mixed"


def corpus() -> tuple[tuple[str, int], ...]:
    """The demo corpus: each game registered now with its share of --games, its
    ``DEMO["weight"]`` (a game of many events and slow self-play gets a small weight)."""
    return tuple((game, int(find_game(game).DEMO["weight"])) for game in GAMES)


class DemoError(RuntimeError):
    """The demo cannot use the warehouse as it is; the message says what to run."""


def corpus_plan(games: int) -> list[tuple[str, int]]:
    """How many of the demo's games each game of the corpus gets: shares of ``games``, each at
    least one, the rounding remainder to the first."""
    shares = corpus()
    total = sum(share for _, share in shares)
    plan = [(game, max(1, games * share // total)) for game, share in shares]
    first, n = plan[0]
    plan[0] = (first, max(1, n + games - sum(k for _, k in plan)))
    return plan


def _titles() -> str:
    """The titles of the games registered now (a built-in game's without loading it)."""
    return ", ".join(about(game)[0] for game in GAMES)


def _what(plan: list[tuple[str, int]]) -> str:
    """'3,300 games, 3,000 <title> and 300 <title>' (or '3,000 games of <title>' for one game)."""
    total = sum(n for _, n in plan)
    if len(plan) == 1:
        return f"{total:,} games of {find_game(plan[0][0]).TITLE}"
    return f"{total:,} games, " + " and ".join(f"{n:,} {find_game(game).TITLE}"
                                               for game, n in plan)


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("demo", help="load a seeded demo corpus (if the warehouse is empty) "
                       "and start the dashboard",
                       description="The first command to run: if the warehouse is empty, "
                       f"simulate a seeded corpus of {_titles()} games, write them as Arrow logs next "
                       "to the warehouse and ingest them; then print where everything is and "
                       "start the dashboard. A second run reuses the data.")
    add_server_options(p, lake=False)
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help="games to simulate into an empty warehouse, shared out between the "
                   f"games in fixed proportions, printed when it starts (default "
                   f"{DEFAULT_GAMES:,})")
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


def corpus_parts(games: int, seed: int) -> list[tuple[str, int, int, dict]]:
    """The demo's series of log files: (game, games, seed, options) for each option set of
    each game's ``DEMO`` (a game's share split evenly between its option sets; every set after
    the first gets a seed of its own, so that game ids never repeat)."""
    parts = []
    for game, n in corpus_plan(games):
        sets = find_game(game).DEMO.get("option_sets") or [{}]
        for k, opts in enumerate(sets):
            share = n // len(sets) + (k < n % len(sets))
            if share:
                parts.append((game, share, seed + 7919 * k, opts))
    return parts


def _write_one(out: Path, game: str, n: int, seed: int, opts: dict,
               progress: bool) -> list[Path]:
    g = find_game(game)
    options = g.Options(**opts) if opts else None
    for old in out.glob(f"{game}{options_tag(game, options)}-demo-seed{seed}-*.arrows"):
        old.unlink()        # a previous, interrupted demo: start clean (same seed, same bytes)
    files, _ = write_games(out, game, n, seed, per_file=GAMES_PER_FILE, prefix="demo-",
                           options=options, policy_name=UNSTYLED,
                           player_policies=PLAYER_STYLES,
                           session_games=int(g.DEMO.get("session_games", 8)),
                           progress=progress)
    return files


def _background(jobs: int) -> ProcessPoolExecutor | None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    """Forked processes for the games after the first, when forking is safe (no other thread)
    and there is a second CPU; else None (everything runs here, one game after the other)."""
    if jobs < 1 or threading.active_count() != 1 or (os.cpu_count() or 1) < 2 \
            or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"))


def write_corpus(out: Path, games: int, seed: int, progress: bool = True) -> list[Path]:
    """Simulate the seeded demo corpus (``corpus_plan``) and write it as sealed logs of
    GAMES_PER_FILE games each, one series of files per game. The games after the first are
    simulated in background processes while the first runs here (with the progress bar); each
    game has its own generator, so the files are the same either way."""
    out.mkdir(parents=True, exist_ok=True)
    plan = corpus_parts(games, seed)
    pool = _background(min(len(plan) - 1, 2))
    try:
        later: list[Future[list[Path]]] = [] if pool is None else [
            pool.submit(_write_one, out, *part, False) for part in plan[1:]]
        files = _write_one(out, *plan[0], progress)
        if pool is None:
            for part in plan[1:]:
                files += _write_one(out, *part, progress)
        for f in later:
            files += f.result()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return files


def _sources(db: Path) -> list[str]:
    from warehouse.db import connect

    con = connect(db, read_only=True, any_version=True)
    try:
        return [r[0] for r in con.execute("SELECT DISTINCT source_file FROM games ORDER BY 1")
                .fetchall()]
    finally:
        con.close()


def _is_demo_log(db: Path, source: str) -> bool:
    return Path(source).resolve().parent == data_dir(db).resolve()


def _summary(s: IngestSummary, t0: float) -> str:
    return (f"{s.command} run {s.run_id}: {s.games_read:,} games read, {s.loaded:,} loaded, "
            f"{s.already_present:,} already present, {s.quarantined:,} quarantined, "
            f"{s.events_loaded:,} events in {time.perf_counter() - t0:.1f} s")


def _rebuild_old(db: Path, version: int, games: int, seed: int, progress: bool) -> str:
    """A warehouse of an older schema: rebuilt from a fresh demo corpus if it is the demo's
    (every game loaded from the demo logs), else DemoError naming the rebuild to run."""
    from ingest import rebuild_paths
    from warehouse.schema import SCHEMA_VERSION

    sources = _sources(db)
    old = f"the warehouse {db} has schema version {version}, this liujia writes {SCHEMA_VERSION}"
    if not all(_is_demo_log(db, f) for f in sources):
        folders = sorted({str(Path(f).parent) for f in sources})
        shown = " ".join(folders[:5]) + (" …" if len(folders) > 5 else "")
        raise DemoError(f"{old}, and it holds games of logs other than the demo's: convert it "
                        f"with `liujia rebuild {shown} --db {db}` (every folder of logs it "
                        f"should hold), or use another warehouse: `liujia demo --db FILE`")
    # The old demo's games are the demo's own simulation, and a newer demo plays them anew
    # (its players' styles, docs/demo.md): the same game ids with other moves. Their anchors
    # would quarantine every one as changed, so the demo forgets them (an empty anchors file,
    # not seeded again from the old games) before it rebuilds from its new logs.
    from warehouse.anchors import anchor_path
    anchor_path(db).write_bytes(b"")
    folder = data_dir(db)
    t0 = time.perf_counter()
    print(f"{old[0].upper()}{old[1:]} (an older demo): rebuilding it, simulating "
          f"{_what(corpus_plan(games))} (seed {seed}), into {folder}", flush=True)
    files = write_corpus(folder, games, seed, progress)
    print(f"Rebuilding {db} from {len(files)} log files", flush=True)
    return _summary(rebuild_paths([str(f) for f in files], db=db, progress=progress), t0)


def prepare(db: Path, games: int, seed: int, progress: bool = True) -> tuple[bool, str]:
    """Fill an empty warehouse with the demo corpus, or rebuild an older demo warehouse;
    (True if it was written, summary line)."""
    from warehouse.db import stored_schema_version
    from warehouse.schema import SCHEMA_VERSION

    version = stored_schema_version(db)
    if version is not None and version != SCHEMA_VERSION:
        return True, _rebuild_old(db, version, games, seed, progress)
    have = warehouse_games(db)
    if have:
        return False, f"warehouse {db} already holds {have:,} games: reusing them"
    from ingest import ingest_paths

    folder = data_dir(db)
    t0 = time.perf_counter()
    print(f"The warehouse {db} is empty: simulating {_what(corpus_plan(games))} (seed {seed}), "
          f"into {folder}", flush=True)
    files = write_corpus(folder, games, seed, progress)
    print(f"Loading {len(files)} log files into {db}", flush=True)
    return True, _summary(ingest_paths([str(f) for f in files], db=db, progress=progress), t0)


def first_games(db: Path) -> list[str]:
    """The ids of the games to open first: the most recent game of each game type, in the
    order of the corpus."""
    from warehouse.db import connect

    con = connect(db, read_only=True)
    try:
        rows = con.execute("SELECT game, arg_max(game_id, (started, game_id)) FROM games "
                           "GROUP BY game ORDER BY game").fetchall()
    finally:
        con.close()
    order = [game for game, _ in corpus()]
    rows.sort(key=lambda r: order.index(r[0]) if r[0] in order else len(order))
    return [gid for _, gid in rows]


def run(args: argparse.Namespace) -> int:
    """Prepare the demo corpus, say where things are, start the dashboard."""
    if args.games < 1:
        return fail("--games must be at least 1")
    refused = remote_refusal(args)
    if refused is not None:
        return refused
    import duckdb

    from warehouse.db import WarehouseError

    db = resolve_db(args.db)
    try:
        _, summary = prepare(db, args.games, args.seed)
        games = first_games(db)
    except DemoError as exc:
        return fail(f"demo: {exc}")
    except (EngineError, OSError, duckdb.Error, WarehouseError) as exc:
        return fail(f"demo: {db}: {exc}")
    print(safe_text(summary))
    print("\n" + safe_text(f"Warehouse:  {db}"))
    if data_dir(db).is_dir():
        print(safe_text(f"Demo logs:  {data_dir(db)}"))
    port = args.port or free_port(args.address)
    token = access_token(args.address)

    def link(page: str = "", query: str = "") -> str:
        return url(args.address, port, page, query, token)

    print("\n" + safe_text(f"Dashboard:  {link()}"))
    print(safe_text(f"  overview    {link()}  games by type, results, recent games"))
    for i, game in enumerate(games):
        replay = link("replay", f"game={quote(game)}&step=0&view=auditor")
        print(safe_text(f"  {'replay' if i == 0 else '':<10}  {replay}"))
    if games:
        print("              step with previous/next or the slider; switch the perspective "
              "to a seat to see only what it saw")
    print(safe_text(f"  players     {link('players')}  every player: record, profile, "
                    "tendencies with their intervals"))
    if games:
        audit = link("audit", f"game={quote(games[0])}")
        print(safe_text(f"  audit       {audit}  one game's audit report (also from each "
                        "replay step)"))
    print(safe_text(f"  quarantine  {link('quarantine')}  games the ingest refused"))
    if args.no_serve:
        print("\n" + safe_text(f"Start it with:  liujia serve --db {db} --port {port}"))
        return 0
    print(flush=True)
    return serve(db, port, args.address, token)
