"""Ingest and rebuild against forged logs (issue 13): anchors outlive a rebuild and catch a
rewritten game; signatures and deal commitments are checked; --require refuses unsigned or
untrusted logs."""

from __future__ import annotations

import json
import struct

import duckdb
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.events import seal_events
from engine.log import write_log
from engine.signing import key_id, public_bytes
from engine.sim import simulate
from ingest import ingest_paths, rebuild_paths
from warehouse.anchors import anchor_path, load

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


@pytest.fixture(scope="module")
def games():
    return [g.events for g in simulate("keng", 4, seed=8, session_games=4, commit=True)]


def _rechained(events):
    return seal_events([e._replace(digest=b"") for e in events])


def _quarantine(db) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT stage, code, game_id, reason FROM quarantine "
                           "ORDER BY game_id").fetchall()


def test_anchors_outlive_a_rebuild_and_catch_a_rewritten_game(tmp_path, games):
    logs, db = tmp_path / "logs", tmp_path / "w.duckdb"
    logs.mkdir()
    write_log(logs / "a.arrows", games)
    s = ingest_paths([logs], db=db, progress=False)
    assert s.loaded == 4 and s.anchors_added == 4
    anchored, problems = load(db)
    assert set(anchored) == {g[0].game_id for g in games} and not problems
    # the forger replaces game 2 by another legal game under its id and re-seals the file
    other = next(iter(simulate("keng", 1, seed=77))).events
    forged = _rechained([e._replace(game_id=games[2][0].game_id) for e in other])
    (logs / "a.arrows").unlink()
    write_log(logs / "a.arrows", [games[0], games[1], forged, games[3]])
    r = rebuild_paths([logs], db=db, progress=False)
    assert r.loaded == 2 and r.anchors_added == 0       # game 3 follows the forged one: KENG-7
    (stage, code, gid, reason), (_, _, nxt, _) = _quarantine(db)
    assert (stage, code, gid) == ("anchor", "anchor", games[2][0].game_id)
    assert nxt == games[3][0].game_id
    assert "contradicts its anchor" in reason and games[2][-1].digest.hex() in reason
    assert load(db)[0][gid].final_digest == games[2][-1].digest.hex()   # the anchor stays
    rebuild_paths([logs], db=db, progress=False)                      # and the next rebuild
    assert [q[1] for q in _quarantine(db)][0] == "anchor"


def test_a_warehouse_without_anchors_gets_them_from_its_games(tmp_path, games):
    logs, db = tmp_path / "logs", tmp_path / "w.duckdb"
    logs.mkdir()
    write_log(logs / "a.arrows", games[:2])
    ingest_paths([logs], db=db, progress=False)
    anchor_path(db).unlink()                                          # as before anchors
    write_log(logs / "b.arrows", games[2:])
    ingest_paths([logs], db=db, progress=False)
    assert set(load(db)[0]) == {g[0].game_id for g in games}


def test_an_unreadable_anchor_line_is_skipped_not_fatal(tmp_path, games):
    logs, db = tmp_path / "logs", tmp_path / "w.duckdb"
    logs.mkdir()
    write_log(logs / "a.arrows", games[:1])
    ingest_paths([logs], db=db, progress=False)
    with open(anchor_path(db), "ab") as f:
        f.write(b"\x1b[2J not json\n")
    anchored, problems = load(db)
    assert len(anchored) == 1 and len(problems) == 1 and ":2: not an anchor line" in problems[0]


def test_signature_policy_and_bad_signatures(tmp_path, games):
    logs, db = tmp_path / "logs", tmp_path / "w.duckdb"
    logs.mkdir()
    write_log(logs / "plain.arrows", games[:2])
    write_log(logs / "signed.arrows", games[2:], signer=KEY)
    trusted = {key_id(public_bytes(KEY))}
    s = ingest_paths([logs], db=db, progress=False, require="trusted", trusted=trusted)
    assert (s.loaded, s.quarantined) == (2, 2)
    assert s.signatures == {"unsigned": 1, "trusted": 1}
    assert {q[:2] for q in _quarantine(db)} == {("signature", "unsigned")}
    s = ingest_paths([logs], db=tmp_path / "x.duckdb", progress=False, require="trusted")
    assert s.quarantined == 4 and s.signatures == {"unsigned": 1, "untrusted": 1}
    # a signed file changed after signing: its games are never loaded
    data = bytearray((logs / "signed.arrows").read_bytes())
    (size,) = struct.unpack("<Q", bytes(data[-16:-8]))
    i = data.index(b'"games":[["', len(data) - size) + 11
    data[i] ^= 1
    (logs / "signed.arrows").write_bytes(bytes(data))
    s = ingest_paths([logs / "signed.arrows"], db=tmp_path / "y.duckdb", progress=False)
    assert s.loaded == 0 and {q[:2] for q in _quarantine(tmp_path / "y.duckdb")} == {
        ("signature", "bad_signature")}


def test_a_deal_changed_after_its_commitment_is_quarantined(tmp_path, games):
    g = [e._replace(digest=b"") for e in games[0]]
    deck = list(g[0].cards)
    j = next(k for k in range(1, len(deck)) if deck[k] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    start = json.loads(g[0].payload)
    assert start["commitment"].startswith("sha256:")
    forged = _rechained([g[0]._replace(cards=tuple(deck)), *g[1:]])
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "a.arrows", [forged])
    s = ingest_paths([logs], db=tmp_path / "w.duckdb", progress=False)
    if s.quarantined == 0:          # the swap made the deal illegal for the engine instead
        pytest.fail("a changed deal was loaded")
    codes = {q[1] for q in _quarantine(tmp_path / "w.duckdb")}
    assert codes <= {"commitment", "illegal", "invalid_event"} and codes
