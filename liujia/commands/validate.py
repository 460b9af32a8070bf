"""``liujia validate``: replay every game of the logs and report ok / illegal / incomplete / corrupt."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from engine.errors import LogIntegrityError
from engine.games.frame import outcome_text
from engine.log import LogWriter, read_log
from engine.replay import game_module, validate_events
from liujia.commands._common import FOUND, OK, existing_paths, fail


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("validate", help="replay and check every game in Arrow event logs",
                       description="Replay every game in the logs through the engine. Per game: "
                       "ok, illegal (seq, seat, rule id, reason), incomplete (no GAME_END) or "
                       "corrupt (what and where). Exit 0 if all is ok, 1 if anything is not.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files or folders of *.arrows")
    p.add_argument("--json", action="store_true", help="one JSON object per game (and per "
                   "damaged file) on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--salvage", metavar="DIR", help="write the intact, verified prefix of every "
                   "damaged file to DIR/<name>.salvaged.arrows")
    return p


def _file_row(path: Path, err: LogIntegrityError) -> dict[str, Any]:
    return {"file": str(path), "game_id": err.game_id or None, "status": "corrupt",
            "code": err.code, "offset": err.offset if err.offset >= 0 else None,
            "reason": str(err)}


def _line(row: dict[str, Any]) -> str:
    st = row["status"]
    gid = row.get("game_id") or "-"
    if st == "ok":
        r = row.get("result") or {}
        how = str(r.get("reason", "ended")) if r else ""
        if "deciding_seat" in r:
            how += f" by seat {r['deciding_seat']}"
        won = outcome_text(row.get("outcomes"), row.get("winning_side"))
        return f"ok          {gid}  {row['events']} events  {how}".rstrip() + f", {won}"
    if st == "illegal":
        where = f"seq {row.get('seq')} seat {row.get('seat')}"
        rid = row.get("rule_id")
        return f"illegal     {gid}  {where}  " + (f"{rid}: " if rid else "") + row["reason"]
    if st == "incomplete":
        return f"incomplete  {gid}  {row['reason']}"
    return f"corrupt     {gid}  {row['reason']}"


def validate_paths(paths: list[Path], salvage: Path | None = None,
                   progress: bool = False) -> list[dict[str, Any]]:
    """Rows of the validation report: one per game, one per file-level problem."""
    rows: list[dict[str, Any]] = []
    finals: dict[str, Any] = {}
    for path in tqdm(paths, unit="file", desc="validate", disable=not progress, leave=False):
        try:
            log = read_log(path)
        except LogIntegrityError as exc:
            row = _file_row(path, exc)
            row["status"] = "not_a_log" if exc.code == "not_a_log" else "corrupt"
            rows.append(row)
            continue
        for prob in log.problems:
            rows.append(_file_row(path, prob))
        for g in log.games:
            if g.error is not None:
                row = _file_row(path, g.error)
                row["game_id"] = g.game_id
                row["intact_events"] = len(g.events)
                rows.append(row)
                continue
            v = validate_events(g.events)
            row = {"file": str(path), **v.to_json()}
            if v.status == "incomplete" and log.problems:
                row["reason"] += " (the file is damaged: see the file-level row)"
            elif v.status == "incomplete":
                row["reason"] = str(v.error)
            if v.status == "ok":
                _check_session(row, g.events[0], finals)
                finals[g.game_id] = v.state
            rows.append(row)
        if salvage is not None and not log.ok:
            salvage.mkdir(parents=True, exist_ok=True)
            with LogWriter(salvage / (path.stem + ".salvaged.arrows")) as w:
                for g in log.games:
                    w.write_game(g.events)
    return rows


def _check_session(row: dict[str, Any], start: Any, finals: dict[str, Any]) -> None:
    """The game's ``check_session`` (六人坑 KENG-7 and the like) against the previous game of a
    session, when it is here."""
    prev = json.loads(start.payload).get("previous_game")
    if prev not in finals:
        return
    err = game_module(start).check_session(start, finals[prev])
    if err is not None:
        row.update(status="illegal", seq=0, seat=err.seat, rule_id=err.rule_id,
                   reason=err.reason)


def run(args: argparse.Namespace) -> int:
    """Validate and print the report."""
    found = existing_paths(args.paths)
    if isinstance(found, str):
        return fail(found)
    salvage = Path(args.salvage) if args.salvage else None
    if salvage is not None and salvage.exists() and not salvage.is_dir():
        return fail(f"--salvage {args.salvage}: not a folder")
    try:
        rows = validate_paths(found, salvage, progress=not args.quiet and sys.stderr.isatty())
    except OSError as exc:
        return fail(f"--salvage {args.salvage}: cannot write there ({exc.strerror or exc})")
    for row in rows:
        print(json.dumps(row, ensure_ascii=False) if args.json else
              (f"{row['file']}: " + _line(row)))
    counts: dict[str, int] = {}
    for row in rows:
        if row.get("game_id") or row["status"] == "ok":
            counts[row["status"]] = counts.get(row["status"], 0) + 1
    bad_files = sorted({r["file"] for r in rows if r["status"] != "ok"})
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no games"
    print(f"{len(found)} file(s): {summary}; {len(bad_files)} file(s) with problems",
          file=sys.stderr if args.json else sys.stdout)
    salvaged = sorted(salvage.glob("*.salvaged.arrows")) if salvage and salvage.is_dir() else []
    if args.salvage and bad_files and salvaged:
        print(f"intact prefixes written to {args.salvage} ({len(salvaged)} file(s))",
              file=sys.stderr)
    return OK if not bad_files else FOUND
