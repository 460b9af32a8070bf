"""A log read as a stream (``engine.log_stream``, ``liujia validate``) says exactly what the file
read whole says (``read_log``, ``file_verdict``): the same games, events, problems, codes,
offsets and messages, the same report rows, on every kind of damage and on interleaved games;
and it holds only the events of the games still open, never the whole file."""

from __future__ import annotations

import hashlib
import random
import struct
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.errors import LogIntegrityError
from engine.events import Event, seal_events
from engine.log import SEAL_END, SEAL_MAGIC, SEAL_SIZE, LogWriter, read_log, write_log
from engine.log_stream import LateEvent, StreamEnd, stream_log
from engine.sim import simulate
from engine.verdict import file_verdict, previous_game, stream_verdict
from liujia.commands.validate import _report, alone_whole, validate_alone, validate_file
from tests.engine.test_log_mangled import MUTATORS, corpus  # noqa: F401 - the fixture

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))


@pytest.fixture(scope="module")
def session():
    """Four 六人坑 games of one session (each names the one before it)."""
    return [g.events for g in simulate("keng", 4, seed=77, session_games=4)]


def _game(g) -> tuple:
    err = g.error
    return (g.game_id, list(g.events), g.complete,
            None if err is None else (err.code, str(err), err.seq, err.offset))


def _problem(p: LogIntegrityError) -> tuple:
    return (p.code, str(p), p.offset, p.game_id, p.seq)


def _stream(path: Path) -> tuple[StreamEnd, dict[int, tuple]]:
    got: dict[int, tuple] = {}

    def on_game(place, g):
        assert place not in got
        got[place] = _game(g)
    return stream_log(path, on_game, previous_game), got


def _same_as_read_log(path: Path) -> StreamEnd | None:
    """Assert that the stream gives what read_log gives; its end (None: no log, or late)."""
    try:
        log = read_log(path)
    except LogIntegrityError as exc:
        with pytest.raises(LogIntegrityError) as info:
            _stream(path)
        assert (type(info.value), _problem(info.value)) == (type(exc), _problem(exc))
        return None
    try:
        end, got = _stream(path)
    except LateEvent:
        return None
    assert got == {i: _game(g) for i, g in enumerate(log.games)}
    assert [_problem(p) for p in end.problems] == [_problem(p) for p in log.problems]
    assert (end.sealed, end.ok, end.games) == (log.sealed, log.ok, len(log.games))
    if log.signature is None:
        assert end.signature is None
    else:
        assert end.signature is not None
        assert (end.signature.valid, end.signature.problems) == (log.signature.valid,
                                                                 log.signature.problems)
    return end


def _same_report(path: Path, require: str = "none") -> None:
    """liujia validate's report of the file read as a stream is the file read whole's, also
    of the file validated on its own (a worker's: its links, kept games and final states)."""
    whole = _report(path, file_verdict(path, finals={}, require=require, trusted={}), require)
    streamed = validate_file(path, {}, require=require, trusted={})
    assert list(streamed.rows) == list(whole.rows)
    assert (streamed.sessions, streamed.damaged, streamed.signature) == \
        (whole.sessions, whole.damaged, whole.signature)
    alone, want = validate_alone(path, require=require), alone_whole(path, require=require)
    assert list(alone.rows) == list(want.rows)
    assert (alone.links, alone.kept, alone.sessions, alone.damaged, alone.io_error) == \
        (want.links, want.kept, want.sessions, want.damaged, want.io_error)
    assert alone.finals.keys() == want.finals.keys()
    assert all(alone.finals[k] == want.finals[k] for k in want.finals)


def _check(path: Path, require: str = "none") -> StreamEnd | None:
    end = _same_as_read_log(path)
    _same_report(path, require)
    return end


# ---------------------------------------------------------------- damage, one by one

def _sealed(stream: bytes) -> bytes:
    return stream + SEAL_MAGIC + hashlib.sha256(stream).digest() + \
        struct.pack("<Q", len(stream)) + SEAL_END


def _damaged(kind: str, path: Path, games: list[list[Event]]) -> None:
    """Write the games to path, damaged as ``kind`` says."""
    g0 = list(games[0])
    edits = {"gap": lambda g: g[:10] + g[11:],
             "duplicate": lambda g: g[:12] + g[11:],
             "digest": lambda g: g[:30] + [g[30]._replace(seat=(g[30].seat + 1) % 6)] + g[31:],
             "no_start": lambda g: seal_events(e._replace(seq=i, digest=b"")
                                               for i, e in enumerate(g[1:]))}
    if kind in edits:
        write_log(path, [edits[kind](g0), *games[1:]])
        return
    write_log(path, games, signer=KEY if kind.startswith("signed") else None)
    data = path.read_bytes()
    stream = data[:len(data) - SEAL_SIZE]
    half = len(data) // 2
    out = {"ok": data, "signed": data,
           "torn": data[:len(data) * 2 // 3],
           "unsealed": stream[:-8],                    # cut at the end-of-stream marker
           "tail_after_seal": data + bytes(4096),
           "flipped": data[:half] + bytes([data[half] ^ 1]) + data[half + 1:],
           "checksum": stream + SEAL_MAGIC + bytes(32) + data[-16:],     # the SHA-256 zeroed
           "trailing": _sealed(stream + b"junk" * 5),
           "seal_length": data[:-16] + struct.pack("<Q", 7) + SEAL_END,
           "signed_bad": data[:half] + bytes([data[half] ^ 4]) + data[half + 1:],
           "signed_block": data[:-16] + struct.pack("<Q", 5) + data[-8:],
           "empty": b"", "header": data[:40], "not_a_log": b"PK\x03\x04" + bytes(60)}
    path.write_bytes(out[kind])


# kind → the codes read_log reports (file problems, then broken games; None: no log at all)
KINDS = {"ok": [], "signed": [], "torn": ["unsealed", "torn"], "unsealed": ["unsealed"],
         "tail_after_seal": ["tail_after_seal"], "checksum": ["checksum"],
         "flipped": ["checksum", "gap", "gap"],
         "trailing": ["trailing"], "seal_length": ["seal_length"],
         "signed_bad": ["checksum", "gap", "gap"],
         "signed_block": ["bad_signature", "tail_after_seal"],
         "empty": ["unsealed"], "header": ["unsealed"], "not_a_log": None, "gap": ["gap"],
         "duplicate": ["duplicate"], "digest": ["digest"], "no_start": ["no_start"]}


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_damage_reads_the_same(tmp_path, session, kind):
    path = tmp_path / f"{kind}.arrows"
    _damaged(kind, path, session)
    end = _check(path)
    assert (None if end is None else [p.code for p in end.problems]
            + [g.error.code for g in read_log(path).games if g.error]) == KINDS[kind]
    if kind.startswith("signed"):
        _same_report(path, "trusted")


def test_mangled_logs_read_the_same(corpus, tmp_path):  # noqa: F811 - the fixture
    files, _truth = corpus
    rng = random.Random(31)
    for i in range(120):
        path = tmp_path / f"m{i:04d}.arrows"
        path.write_bytes(MUTATORS[i % len(MUTATORS)](rng, rng.choice(files), files))
        _check(path)


# ---------------------------------------------------------------- interleaved games

def _interleaved(path: Path, games: list[list[Event]], parts: list[tuple[int, int, int]]) -> None:
    """Write (game, start, stop) slices of the games as batches, in this order."""
    with LogWriter(path) as w:
        for k, a, b in parts:
            w.write_game(games[k][a:b])


def test_interleaved_games_read_the_same_and_hold_only_the_open_ones(tmp_path, session):
    a, b = session[0], session[2]
    path = tmp_path / "mixed.arrows"
    _interleaved(path, [a, b], [(0, 0, 20), (1, 0, 20), (0, 20, 50), (1, 20, 40),
                                (0, 50, len(a)), (1, 40, len(b))])
    end = _check(path)
    assert end is not None and end.ok and end.games == 2
    assert end.max_held == len(a) + 40           # a when it ends, and b's first 40


def test_a_session_game_that_ends_first_waits_for_the_game_it_names(tmp_path, session):
    """Game 2 names game 1 and ends before it: handed on after it, linked to its final state
    (a game that names no open game is not held back)."""
    g1, g2, g3 = session[0], session[1], session[3]
    path = tmp_path / "session.arrows"
    _interleaved(path, [g1, g2, g3], [(0, 0, 10), (1, 0, len(g2)), (2, 0, len(g3)),
                                      (0, 10, len(g1))])
    order: list[str] = []
    stream_log(path, lambda place, g: order.append(g.game_id), previous_game)
    assert order == [g3[0].game_id, g1[0].game_id, g2[0].game_id]
    places: list[int] = []
    stream_log(path, lambda place, g: places.append(place))      # no links known: in order
    assert places == [0, 1, 2]
    _check(path)
    rows = list(validate_file(path, {}).rows)
    assert [r["status"] for r in rows] == ["ok", "ok", "ok"]
    assert not any("previous_game" in r for r in rows[:2])      # linked within the file


def test_one_batch_of_several_games_reads_the_same(tmp_path, session):
    path = tmp_path / "one.arrows"
    with LogWriter(path) as w:
        w.write_game([e for pair in zip(session[0], session[1], strict=False) for e in pair])
    _check(path)


def test_a_game_continued_after_its_end_is_read_again_whole(tmp_path, session):
    """An event of a game after its GAME_END (here a copy of it) comes after the game was
    handed on: the stream says so, and the verdict reads the file again whole, undoing what
    the games handed on had noted of their final states."""
    path = tmp_path / "late.arrows"
    with LogWriter(path) as w:
        for g in session[:2]:
            w.write_game(g)
        w.write_game([session[0][-1]])
    with pytest.raises(LateEvent):
        stream_log(path, lambda place, g: None, previous_game)
    _same_report(path)
    finals: dict = {"other": 1}
    seen: list[int] = []
    fv = stream_verdict(path, lambda place, g, gv: seen.append(place), finals=finals)
    assert fv.stream is not None and [p.code for p in fv.problems] == []
    assert seen == [0, 1, 0, 1]             # both handed on, then again from the whole file
    whole: dict = {"other": 1}
    file_verdict(path, finals=whole)
    assert sorted(finals) == sorted(whole)


# ---------------------------------------------------------------- bounded memory

def test_the_stream_holds_one_game_not_the_file(tmp_path):
    games = [g.events for g in simulate("keng", 24, seed=5)]
    path = tmp_path / "many.arrows"
    write_log(path, games)
    end = _same_as_read_log(path)
    assert end is not None and end.ok and end.games == 24
    assert end.max_held == max(len(g) for g in games)          # one game at a time
    assert end.max_held * 10 < sum(len(g) for g in games)
