"""The sealed, hash-chained event log: round trips and every kind of damage is reported."""

from __future__ import annotations

import pytest

from engine.errors import LogIntegrityError
from engine.events import Event, seal_events
from engine.log import LogWriter, NotALog, read_log, write_log


def _originals(games):
    return {g[0].game_id: g for g in games}


def _assert_only_true_data(log, games):
    """Whatever the reader accepts as verified is a prefix of the true events of that game."""
    orig = _originals(games)
    for g in log.games:
        if g.game_id not in orig:       # a changed game id: reported, nothing verified
            assert g.error is not None and not g.events
            continue
        true = orig[g.game_id]
        assert g.events == true[:len(g.events)], f"{g.game_id}: verified events were changed"


def _read_or_error(path):
    try:
        return read_log(path)
    except LogIntegrityError:
        return None


def test_round_trip_events_and_digests(tmp_path, small_games):
    path = tmp_path / "a.arrows"
    write_log(path, small_games)
    log = read_log(path)
    assert log.ok and log.sealed
    assert [g.events for g in log.games] == small_games
    assert all(g.complete for g in log.games)
    assert [g.final_digest for g in log.games] == [g[-1].digest for g in small_games]


def test_same_events_same_bytes(tmp_path, small_games):
    write_log(tmp_path / "a.arrows", small_games)
    write_log(tmp_path / "b.arrows", small_games)
    assert (tmp_path / "a.arrows").read_bytes() == (tmp_path / "b.arrows").read_bytes()


def test_flipped_bytes_are_all_reported(tmp_path, small_games):
    path = tmp_path / "a.arrows"
    write_log(path, small_games)
    data = path.read_bytes()
    bad = tmp_path / "bad.arrows"
    positions = sorted(set(range(0, len(data), max(1, len(data) // 400)))
                       | set(range(len(data) - 64, len(data))) | set(range(0, 64)))
    for i in positions:
        b = bytearray(data)
        b[i] ^= 0x5A
        bad.write_bytes(bytes(b))
        log = _read_or_error(bad)
        if log is None:
            continue
        assert not log.ok, f"flip at byte {i} of {len(data)} went unnoticed"
        _assert_only_true_data(log, small_games)


def test_truncation_is_reported_and_prefix_kept(tmp_path, small_games):
    path = tmp_path / "a.arrows"
    write_log(path, small_games)
    data = path.read_bytes()
    bad = tmp_path / "cut.arrows"
    kept_first_game = 0
    for cut in range(1, len(data), max(1, len(data) // 300)):
        bad.write_bytes(data[:cut])
        log = _read_or_error(bad)
        if log is None:
            continue
        assert not log.ok and not log.sealed, f"cut at {cut} went unnoticed"
        _assert_only_true_data(log, small_games)
        if log.games and log.games[0].complete:
            kept_first_game += 1
    assert kept_first_game > 0, "a cut after the first game should keep it whole"


def test_cut_at_batch_boundary_is_unsealed(tmp_path, small_games):
    """A writer that died after two games: no seal, both games intact and offered."""
    path = tmp_path / "torn.arrows"
    w = LogWriter(path)
    w.write_game(small_games[0])
    w.write_game(small_games[1])
    w._sink.close()          # the process died: no end-of-stream, no seal
    log = read_log(path)
    assert not log.sealed
    assert [p.code for p in log.problems][0] == "unsealed"
    assert [g.events for g in log.games] == small_games[:2]


@pytest.mark.parametrize("n", [1, 8, 4096])
def test_zero_filled_tail(tmp_path, small_games, n):
    path = tmp_path / "z.arrows"
    write_log(path, small_games)
    with open(path, "ab") as f:
        f.write(bytes(n))
    log = read_log(path)
    assert not log.ok
    assert "tail_after_seal" in [p.code for p in log.problems]
    assert [g.events for g in log.games] == small_games


def _rewrite(tmp_path, events):
    path = tmp_path / "edited.arrows"
    write_log(path, [events])
    return read_log(path)


def test_dropped_event(tmp_path, small_games):
    g = list(small_games[0])
    del g[10]
    log = _rewrite(tmp_path, g)
    assert log.games[0].error.code == "gap" and log.games[0].error.seq == 10
    assert log.games[0].events == small_games[0][:10]


def test_duplicated_event(tmp_path, small_games):
    g = list(small_games[0])
    g.insert(11, g[10])
    log = _rewrite(tmp_path, g)
    assert log.games[0].error.code == "duplicate" and log.games[0].error.seq == 11


def test_reordered_events(tmp_path, small_games):
    g = list(small_games[0])
    g[20], g[21] = g[21], g[20]
    log = _rewrite(tmp_path, g)
    assert log.games[0].error.code in ("gap", "duplicate") and log.games[0].error.seq == 20


def test_changed_field_breaks_the_chain(tmp_path, small_games):
    g = list(small_games[0])
    g[30] = g[30]._replace(seat=(g[30].seat + 1) % 6)
    log = _rewrite(tmp_path, g)
    assert log.games[0].error.code == "digest" and log.games[0].error.seq == 30
    assert log.games[0].events == small_games[0][:30]


def test_renumbered_resealed_game_is_left_to_the_engine(tmp_path, small_games):
    """A re-sealed edit passes the chain check: the engine's replay must catch it instead."""
    from engine.replay import validate_events
    g = list(small_games[0])
    plays = [i for i, e in enumerate(g) if e.kind == "PLAY"]
    i = plays[3]
    g[i] = g[i]._replace(seat=(g[i].seat + 1) % 6)
    resealed = seal_events(e._replace(digest=b"") for e in g)
    log = _rewrite(tmp_path, resealed)
    assert log.ok
    v = validate_events(log.games[0].events)
    assert v.status == "illegal" and v.error.seq == i


def test_not_a_log(tmp_path):
    p = tmp_path / "notes.arrows"
    p.write_text("hello, this is not Arrow")
    with pytest.raises(NotALog) as exc:
        read_log(p)
    assert exc.value.code == "not_a_log" and str(p) in str(exc.value)


def test_arrow_stream_of_another_schema(tmp_path):
    import pyarrow as pa
    p = tmp_path / "other.arrows"
    t = pa.table({"x": [1, 2, 3]})
    with pa.OSFile(str(p), "wb") as f, pa.ipc.new_stream(f, t.schema) as w:
        w.write_table(t)
    with pytest.raises(NotALog, match="not in the liujia event schema"):
        read_log(p)


def test_missing_file(tmp_path):
    with pytest.raises(NotALog, match="cannot open"):
        read_log(tmp_path / "nope.arrows")


def test_game_without_start(tmp_path):
    e = seal_events([Event("PLAY", seat=1, cards=(3,), game_id="g", seq=0)])
    log = _rewrite(tmp_path, e)
    assert log.games[0].error.code == "no_start"


def test_stream_header_is_what_the_writer_writes(tmp_path, small_games):
    from engine.log import STREAM_HEADER
    write_log(tmp_path / "a.arrows", small_games)
    assert (tmp_path / "a.arrows").read_bytes().startswith(STREAM_HEADER)


@pytest.mark.parametrize("size", [0, 1, 3, 4, 8, 64, -1])
def test_empty_or_cut_within_the_header_is_an_unfinished_log(tmp_path, small_games, size):
    """A writer killed right after creating the file leaves it empty or holding part of the
    header: an unsealed log of no games (code ``unsealed``), not ``not_a_log``."""
    from engine.log import STREAM_HEADER
    p = tmp_path / "new.arrows"
    p.write_bytes(STREAM_HEADER[:size])
    log = read_log(p)
    assert not log.ok and not log.sealed and log.games == []
    assert [pr.code for pr in log.problems] == ["unsealed"]
    assert ("the file is empty" in str(log.problems[0])) == (size == 0)


@pytest.mark.parametrize("data", [b"\xfe", b"\x00" * 10, b"\xff\xff\xff\xff\x70\x03\x00\x01",
                                  b"PK\x03\x04"])
def test_short_files_that_are_something_else_are_not_logs(tmp_path, data):
    p = tmp_path / "other.arrows"
    p.write_bytes(data)
    with pytest.raises(NotALog) as exc:
        read_log(p)
    assert exc.value.code == "not_a_log"


def test_not_a_regular_file_is_refused_without_blocking(tmp_path):
    import os
    import threading
    fifo = tmp_path / "pipe.arrows"
    os.mkfifo(fifo)                      # opening it for reading would wait for a writer
    for p in (fifo, tmp_path):
        caught: list[BaseException] = []

        def read(p=p, caught=caught):
            try:
                read_log(p)
            except BaseException as exc:  # noqa: BLE001 - looked at below
                caught.append(exc)
        t = threading.Thread(target=read, daemon=True)
        t.start()
        t.join(10)
        if t.is_alive():                 # unblock the reader before failing
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            t.join(10)
            pytest.fail(f"read_log({p.name}) blocked")
        [err] = caught
        assert isinstance(err, NotALog) and err.code == "io"
        assert err.message == "not a regular file"


def test_scan_log_files_reports_what_it_cannot_read(tmp_path, monkeypatch):
    import errno
    import os

    from engine.log import scan_log_files
    (tmp_path / "a" / "deep").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    for name in ("a/x.arrows", "a/deep/y.arrows", "b/z.arrows", "b/notes.txt"):
        (tmp_path / name).write_bytes(b"")
    files, errors = scan_log_files([tmp_path])
    assert [f.relative_to(tmp_path).as_posix() for f in files] == \
        ["a/deep/y.arrows", "a/x.arrows", "b/z.arrows"]
    assert errors == []
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path) == str(tmp_path / "b"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)
    monkeypatch.setattr(os, "scandir", scandir)
    files, errors = scan_log_files([tmp_path, tmp_path / "missing.arrows"])
    assert [f.name for f in files] == ["y.arrows", "x.arrows"]
    assert [type(e) for e in errors] == [PermissionError, FileNotFoundError]
    assert errors[0].filename == str(tmp_path / "b")


def test_a_batch_that_does_not_fit_the_digest_layout_is_bad_batch(tmp_path):
    """A game id longer than its u16 length prefix: reported, never a struct/overflow error."""
    e = Event("PLAY", seat=1, cards=(3,), game_id="g" * 70000, seq=0, digest=bytes(16))
    write_log(tmp_path / "long.arrows", [[e]])
    log = read_log(tmp_path / "long.arrows")
    assert [p.code for p in log.problems] == ["bad_batch"] and log.games == []
