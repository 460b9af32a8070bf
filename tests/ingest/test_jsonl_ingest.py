"""ingest_paths on liujia.jsonl files: the same games as from Arrow logs, a bad line quarantines
only its game (with file, line and field), --strict, gzip, folders, idempotent re-runs."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import duckdb

from engine.jsonl import write_jsonl
from engine.log import write_log
from ingest import ingest_paths, rebuild_paths
from ingest.arrow_logs import read_file


def _q(db: Path) -> list[dict]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.sql("SELECT * FROM quarantine ORDER BY file_offset").to_arrow_table() \
            .to_pylist()


def _scalar(db: Path, sql: str):
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()[0][0]


def _edit(path: Path, line: int, change) -> None:
    lines = path.read_text().splitlines()
    lines[line - 1] = change(lines[line - 1])
    path.write_text("\n".join(lines) + "\n")


def test_jsonl_loads_the_same_rows_as_arrow(tmp_path, games):
    write_log(tmp_path / "a.arrows", games[:5])
    write_jsonl(tmp_path / "b.jsonl", games[:5])
    arrow = read_file(tmp_path / "a.arrows")
    text = read_file(tmp_path / "b.jsonl")
    assert text.ok_ids == arrow.ok_ids and text.ok_digests == arrow.ok_digests
    assert text.events.equals(arrow.events) and text.games.drop(["source_file"]).equals(
        arrow.games.drop(["source_file"]))
    assert text.seats.equals(arrow.seats) and text.decisions.equals(arrow.decisions)
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path / "b.jsonl"], db=db, progress=False)
    assert (s.games_read, s.loaded, s.quarantined) == (5, 5, 0) and s.clean
    s = ingest_paths([tmp_path / "a.arrows"], db=db, progress=False)
    assert (s.loaded, s.already_present) == (0, 5)           # the same games, by digest


def test_one_bad_line_quarantines_its_game_and_the_others_load(tmp_path, games):
    p = tmp_path / "a.jsonl.gz"
    plain = tmp_path / "a.jsonl"
    write_jsonl(plain, games[:4])
    n_bad = 1 + len(games[0]) + len(games[1]) + 10             # game 3, seq 9
    _edit(plain, n_bad, lambda x: x.replace('"seq": 9', '"seq": "nine"'))
    n_tamper = 1 + 3                                            # game 1, seq 2
    _edit(plain, n_tamper, lambda x: json.dumps({**json.loads(x), "seat": 9}))
    p.write_bytes(gzip.compress(plain.read_bytes()))
    plain.unlink()
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path], db=db, progress=False)
    assert (s.files, s.games_read, s.loaded, s.quarantined) == (1, 4, 2, 2) and s.reconciles
    q = _q(db)
    assert [(r["game_id"], r["stage"], r["code"], r["seq"]) for r in q] == [
        (games[0][0].game_id, "log", "digest", 2),
        (games[2][0].game_id, "log", "bad_field", 9)]
    assert f"{p}:{n_tamper}" in q[0]["reason"] and f"{p}:{n_bad}" in q[1]["reason"]
    assert "field seq" in q[1]["reason"] and q[1]["events"] == 9 and q[1]["raw"]
    loaded = {r[0] for r in duckdb.connect(str(db), read_only=True).execute(
        "SELECT game_id FROM games").fetchall()}
    assert loaded == {games[1][0].game_id, games[3][0].game_id}
    again = ingest_paths([tmp_path], db=db, progress=False)   # idempotent
    assert (again.loaded, again.already_present, again.quarantined) == (0, 2, 2)
    assert len(_q(db)) == 2


def test_an_illegal_move_names_its_line(tmp_path, games, illegal):
    p = tmp_path / "a.jsonl"
    write_jsonl(p, [games[0], illegal])
    s = ingest_paths([p], db=tmp_path / "w.duckdb", progress=False)
    (rec,) = s.issues
    assert (rec.stage, rec.code) == ("replay", "illegal") and rec.rule_id
    assert f"(at {p}:{1 + len(games[0]) + rec.seq + 1})" in rec.reason


def test_unknown_fields_warn_or_quarantine_with_strict(tmp_path, games):
    p = tmp_path / "a.jsonl"
    write_jsonl(p, games[:2])
    _edit(p, 5, lambda x: x[:-1] + ', "note": "hi"}')
    s = ingest_paths([p], db=tmp_path / "w.duckdb", progress=False)
    assert s.clean and s.loaded == 2
    assert len(s.warnings) == 1 and f"{p}:5" in s.warnings[0] and "'note'" in s.warnings[0]
    r = ingest_paths([p], db=tmp_path / "s.duckdb", progress=False, strict=True)
    assert (r.loaded, r.quarantined) == (1, 1) and not r.warnings
    assert r.issues[0].code == "unknown_field" and f"{p}:5" in r.issues[0].reason
    b = rebuild_paths([p], db=tmp_path / "s.duckdb", progress=False, strict=True)
    assert (b.loaded, b.quarantined) == (1, 1)


def test_file_level_problems_of_jsonl_are_quarantined(tmp_path, games):
    (tmp_path / "a.jsonl").write_text('{"format": "liujia.jsonl/9"}\n')
    (tmp_path / "b.jsonl").write_text("")
    write_jsonl(tmp_path / "c.jsonl", games[:1])
    db = tmp_path / "w.duckdb"
    s = ingest_paths([tmp_path], db=db, progress=False)
    assert (s.files, s.loaded, s.files_quarantined) == (3, 1, 2)
    codes = sorted((Path(r["file"]).name, r["code"]) for r in _q(db))
    assert codes == [("a.jsonl", "unsupported_format"), ("b.jsonl", "empty")]


def test_a_worker_pool_reads_jsonl_too(tmp_path, games):
    for i in range(3):
        write_jsonl(tmp_path / f"{i}.jsonl", games[3 * i: 3 * i + 3])
    p = tmp_path / "0.jsonl"
    _edit(p, 3, lambda x: x[:-1] + ', "x": 1}')
    s = ingest_paths([tmp_path], db=tmp_path / "w.duckdb", progress=False, workers=2,
                     strict=True)
    assert (s.games_read, s.loaded, s.quarantined) == (9, 8, 1)
    assert json.loads(json.dumps(s.to_json(), default=str))["issues"][0]["code"] == \
        "unknown_field"
