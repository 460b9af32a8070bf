"""The Parquet lake (``liujia lake build``, ``warehouse.lake``): it holds, table by table, what
the warehouse holds for the same logs (quarantine and reviews included); it grows
incrementally and a re-run adds nothing; a changed log claiming a game it holds is quarantined;
a build killed before its manifest leaves the lake as it was and the next build clears what it
left; the readers answer from it as from the warehouse; and a lake from a stranger is refused
field by field, and read without access beyond its folder."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine.events import seal_events
from engine.log import write_log
from engine.review import Settings
from engine.sim import simulate
from ingest import ingest_paths
from ingest.lake import build_lake
from liujia.cli import main
from warehouse import lake
from warehouse.db import connect
from warehouse.errors import NotAWarehouse, WarehouseMissing

REVIEW = Settings(seed=3, min_worlds=8, max_worlds=8, batch=8, candidates=3)
# the columns that say when or in which run a row came, not what it is
RUN_COLUMNS = {"run_id", "first_seen", "started", "finished", "seconds", "paths", "command"}
TABLES = ("games", "seats", "events", "decisions", "facts", "reviews", "quarantine",
          "ingested_files", "tendency_counts", "result_counts")


def _bad_game():
    """A sealed 六人坑 game whose first PASS became a play of a card the seat lacks."""
    events = next(iter(simulate("keng", 1, seed=12))).events
    i = next(i for i, e in enumerate(events) if e.kind == "PASS")
    bad = events[i]._replace(kind="PLAY", cards=(53,), value=0)
    return seal_events([*events[:i], bad, *events[i + 1:]])


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, toy_game):
    """Logs in two batches: 六人坑 and 小墩 games (one quarantined) and 够级 games."""
    root = tmp_path_factory.mktemp("lake")
    a, b = root / "a", root / "b"
    a.mkdir()
    b.mkdir()
    keng = [g.events for g in simulate("keng", 6, seed=21)]
    write_log(a / "keng.arrows", keng[:3])
    write_log(a / "keng2.arrows", [*keng[3:], _bad_game()])
    write_log(a / "toy.arrows", [g.events for g in simulate(toy_game, 4, seed=5)])
    write_log(b / "gouji.arrows", [g.events for g in simulate("gouji", 2, seed=8)])
    return root


def contents(path: Path) -> dict[str, list[str]]:
    """Every table's rows (without their run's columns), sorted, through liujia's reader."""
    con = connect(path, read_only=True)
    try:
        out = {}
        for t in TABLES:
            cols = [c for c, _ in lake.columns()[t] if c not in RUN_COLUMNS]
            rows = con.execute(f"SELECT {', '.join(cols)} FROM {t}").fetchall()
            out[t] = sorted(map(repr, rows))
        return out
    finally:
        con.close()


@pytest.fixture(scope="module")
def built(corpus):
    """The lake and the warehouse of batch a, then of batches a and b."""
    lk, db = corpus / "lake", corpus / "w.duckdb"
    first = build_lake([corpus / "a"], lk, progress=False)
    after_a = contents(lk)
    ingest_paths([corpus / "a"], db=db, progress=False)
    db_a = contents(db)
    second = build_lake([corpus / "a", corpus / "b"], lk, progress=False)
    ingest_paths([corpus / "a", corpus / "b"], db=db, progress=False)
    return {"lake": lk, "db": db, "first": first, "second": second, "after_a": after_a,
            "db_a": db_a}


def test_the_lake_holds_what_the_warehouse_holds(built):
    assert built["first"].loaded == 10 and built["first"].quarantined == 1
    assert built["after_a"] == built["db_a"]
    now, want = contents(built["lake"]), contents(built["db"])
    for t in TABLES:
        assert now[t] == want[t], t
    assert len(now["quarantine"]) == 1 and len(now["games"]) == 12
    assert now["tendency_counts"] and now["result_counts"]


def test_reviews_land_in_the_lake_as_in_the_warehouse(corpus, tmp_path):
    lk, db = tmp_path / "lake", tmp_path / "w.duckdb"
    s = build_lake([corpus / "a" / "toy.arrows"], lk, progress=False, review=REVIEW)
    ingest_paths([corpus / "a" / "toy.arrows"], db=db, progress=False, review=REVIEW)
    now = contents(lk)
    assert s.reviewed > 0 and len(now["reviews"]) == s.reviewed
    assert now["reviews"] == contents(db)["reviews"]


def test_a_second_batch_adds_only_its_games_and_a_rerun_adds_nothing(built, corpus):
    s = built["second"]
    assert (s.loaded, s.files_skipped, s.already_present) == (2, 2, 10)   # keng2 read again
    before = contents(built["lake"])
    version = lake.read_manifest(built["lake"]).version
    again = build_lake([corpus / "a", corpus / "b"], built["lake"], progress=False)
    assert again.loaded == 0 and again.quarantined == 1       # the same bad game, same row
    assert contents(built["lake"]) == before
    m = lake.read_manifest(built["lake"])
    assert m.version == version + 1
    assert sum(f["rows"] for f in m.files["ingest_runs"]) == 3   # the run is recorded


def test_files_are_partitioned_by_game_and_month(built):
    m = lake.read_manifest(built["lake"])
    parts = {tuple(p.split("/")[1:3]) for p in m.paths("events")}
    con = connect(built["lake"], read_only=True)
    want = {(f"game_type={g}", f"month={m_}") for g, m_ in con.execute(
        "SELECT DISTINCT game, strftime(started AT TIME ZONE 'UTC', '%Y-%m') FROM games"
    ).fetchall()}
    con.close()
    assert parts == want
    for rel in m.paths("events"):
        t = pq.read_table(built["lake"] / rel)
        game = rel.split("/")[1].removeprefix("game_type=")
        assert set(t["game_id"].to_pylist()) <= {
            g for g in t["game_id"].to_pylist() if g}        # rows of that partition only
        keys = list(zip(t["game_id"].to_pylist(), t["seq"].to_pylist(), strict=True))
        assert keys == sorted(keys), rel                      # sorted for pruning
        assert game in {"keng", "gouji", "toy_tricks"}


def test_a_changed_log_claiming_a_game_is_quarantined(built, corpus, tmp_path):
    lk = tmp_path / "lake"
    shutil.copytree(built["lake"], lk)
    keng = [g.events for g in simulate("keng", 6, seed=21)]
    g = keng[0]
    i = next(i for i, e in enumerate(g) if e.kind == "PASS")
    changed = seal_events([*g[:i], g[i]._replace(ts=g[i].ts + 1), *g[i + 1:]])
    write_log(tmp_path / "changed.arrows", [changed])
    s = build_lake([tmp_path / "changed.arrows"], lk, progress=False)
    assert s.quarantined == 1 and s.issues[0].code == "conflict"
    con = connect(lk, read_only=True)
    digest = con.execute("SELECT final_digest FROM games WHERE game_id = ?",
                         [g[0].game_id]).fetchall()
    con.close()
    assert digest == [(g[-1].digest,)]


def _run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "liujia", *args],
                            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_build_killed_before_its_manifest_changes_nothing(corpus, tmp_path):
    lk = tmp_path / "lake"
    build_lake([corpus / "a"], lk, progress=False)
    before, manifest = contents(lk), (lk / lake.MANIFEST).read_bytes()
    flag = tmp_path / "paused"
    p = _run_cli("lake", "build", str(corpus / "b"), "--out", str(lk), "-q",
                 env={"LIUJIA_PAUSE_AT": "lake-manifest", "LIUJIA_PAUSE_FILE": str(flag)})
    deadline = time.monotonic() + 120
    while not flag.exists():
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.02)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert (lk / lake.MANIFEST).read_bytes() == manifest
    assert contents(lk) == before                    # the gouji files are there, not read
    listed = {p for t in lake.DATA_TABLES for p in lake.read_manifest(lk).paths(t)}
    on_disk = {f.relative_to(lk).as_posix() for f in lk.rglob("*.parquet")}
    assert any("gouji" in f for f in on_disk - listed)
    s = build_lake([corpus / "b"], lk, progress=False)
    assert s.loaded == 2
    on_disk = {f.relative_to(lk).as_posix() for f in lk.rglob("*.parquet")}
    listed = {p for t in lake.DATA_TABLES for p in lake.read_manifest(lk).paths(t)}
    counts_prev = {f for f in on_disk if f.startswith("counts/")}
    assert on_disk - listed <= counts_prev           # only the previous version's counts
    assert not (lk / ".build").exists()


def test_the_commands_read_a_lake_as_they_read_the_warehouse(built, capsys):
    con = connect(built["db"], read_only=True)
    player = con.execute("SELECT min(player_id) FROM seats").fetchall()[0][0]
    con.close()
    for cmd in (["players"], ["find", "--fact", "snatched>=1"], ["stats", "--player", player],
                ["sessions"]):
        assert main([*cmd, "--db", str(built["db"])]) in (0, 1)
        want = capsys.readouterr().out
        assert main([*cmd, "--lake", str(built["lake"])]) in (0, 1)
        assert capsys.readouterr().out == want, cmd
    assert main(["lake", "info", str(built["lake"]), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["tables"]["games"]["rows"] == 12


def test_lake_command_errors(built, corpus, tmp_path, capsys):
    with pytest.raises(SystemExit) as out:
        main(["players", "--lake", str(corpus / "a")])
    assert out.value.code == 2 and "not a liujia lake" in capsys.readouterr().err
    assert main(["lake", "build", str(corpus / "b"), "--out", str(corpus / "a")]) == 2
    assert "not a liujia lake and not empty" in capsys.readouterr().err
    assert main(["ingest", str(corpus / "b"), "--db", str(built["lake"])]) == 2
    assert "Parquet lake" in capsys.readouterr().err
    assert main(["lake", "build", str(corpus / "a"), "--out", str(tmp_path / "n"), "-q"]) == 1
    assert "quarantined (1)" in capsys.readouterr().out


# ------------------------------------------------------------------ a lake from a stranger

@pytest.fixture
def copy(built, tmp_path):
    lk = tmp_path / "lake"
    shutil.copytree(built["lake"], lk)
    return lk


def _edit(lk: Path, change) -> None:
    doc = json.loads((lk / lake.MANIFEST).read_text())
    change(doc)
    (lk / lake.MANIFEST).write_text(json.dumps(doc))


def _refused(lk: Path) -> str:
    with pytest.raises(NotAWarehouse) as err:
        connect(lk, read_only=True)
    return str(err.value)


@pytest.mark.parametrize("path, why", [
    ("../outside.parquet", "shape"), ("/etc/passwd", "shape"),
    ("events/game_type=keng/month=2026-01/../../../x.parquet", "shape"),
    ("events/game_type=keng/month=2026-01/missing.parquet", "missing"),
])
def test_a_manifest_listing_a_path_it_may_not_is_refused(copy, path, why):
    _edit(copy, lambda d: d["tables"]["events"].append({"path": path, "rows": 1}))
    assert why in _refused(copy)


def test_a_linked_file_or_folder_is_refused(copy, tmp_path):
    rel = lake.read_manifest(copy).paths("events")[0]
    target = copy / rel
    outside = tmp_path / "outside.parquet"
    shutil.move(target, outside)
    target.symlink_to(outside)
    assert "symbolic link" in _refused(copy)
    target.unlink()
    folder = target.parent
    shutil.move(folder, tmp_path / "moved")
    folder.symlink_to(tmp_path / "moved")
    (tmp_path / "moved" / target.name).unlink(missing_ok=True)
    shutil.copy(outside, tmp_path / "moved" / target.name)
    assert "symbolic link" in _refused(copy)


@pytest.mark.parametrize("change, why", [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(schema_version=1), "schema_version"),
    (lambda d: d.update(version="2"), "version"),
    (lambda d: d.update(meta={"a": 1}), "meta"),
    (lambda d: d["tables"].update(other=[]), "unknown table"),
    (lambda d: d["tables"].update(games={}), "tables.games is not a list"),
    (lambda d: d["tables"]["games"].__setitem__(0, {"path": 3}), "tables.games[0]"),
])
def test_a_manifest_field_that_is_wrong_is_named(copy, change, why):
    _edit(copy, change)
    assert why in _refused(copy)


def test_a_manifest_too_big_or_not_json_is_refused(copy, monkeypatch):
    (copy / lake.MANIFEST).write_bytes(b"{not json")
    assert "not JSON" in _refused(copy)
    (copy / lake.MANIFEST).write_bytes(b" " * 2000 + b"{}")
    monkeypatch.setattr(lake, "MAX_MANIFEST_BYTES", 1000)
    assert "larger than" in _refused(copy)
    (copy / lake.MANIFEST).unlink()
    with pytest.raises(WarehouseMissing):
        connect(copy, read_only=True)


def test_a_file_with_other_columns_is_refused(copy):
    rel = lake.read_manifest(copy).paths("games")[0]
    t = pq.read_table(copy / rel)
    t = t.set_column(t.schema.get_field_index("events"), "events",
                     pa.array(["many"] * t.num_rows))
    pq.write_table(t, copy / rel)
    assert "column events is VARCHAR, the games table has INTEGER" in _refused(copy)


def test_a_lake_connection_reads_nothing_beyond_its_folder(copy, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("a\n1\n")
    con = connect(copy, read_only=True)
    try:
        for sql in (f"SELECT * FROM read_csv('{secret}')",
                    f"SELECT * FROM read_parquet('{copy}/../secret.csv')",
                    "SET enable_external_access = true",
                    f"COPY (SELECT 1) TO '{tmp_path}/out.csv'"):
            with pytest.raises(duckdb.Error):
                con.execute(sql)
        assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == 12
    finally:
        con.close()
