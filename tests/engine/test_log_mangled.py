"""Mangled logs never crash the reading path (issue 9): seeded self-play logs of every
registered game, mangled (bit flips, cuts at random offsets, zero-filled tails, spliced files,
random bytes, empty files, garbage headers, huge length fields), go through
``engine.log.read_log`` and the validate command's per-file path in-process, and a handful
through the real CLI. Every file is ok / incomplete / corrupt / illegal with one-line reasons,
a file is ok only if its bytes are a log's as written (or, re-sealed, its events are), and
whatever the reader verifies is a prefix of the true events of that game.

In the suite a few hundred files; ``LIUJIA_FUZZ_FILES=1000`` (or more) for the full run, and
``LIUJIA_FUZZ_SEED`` for another draw. The counts per verdict class are printed (``-s``)."""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

import pytest

from engine.errors import LogIntegrityError
from engine.events import seal_events
from engine.games import GAMES, find_game
from engine.log import SEAL_SIZE, read_log, write_log
from engine.sim import simulate
from liujia.commands.validate import validate_file

N_FILES = int(os.environ.get("LIUJIA_FUZZ_FILES", "400"))
SEED = int(os.environ.get("LIUJIA_FUZZ_SEED", "9"))
ROOT = Path(__file__).resolve().parents[2]
STATUSES = {"ok", "incomplete", "corrupt", "illegal", "not_a_log"}
MARKER = b"\xff\xff\xff\xff"
HUGE = (0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0x10000000, 1 << 20)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Per registered game (its first demo option set): a log of three games of a session,
    a log of one game, and a log of one game with a move re-sealed onto the wrong seat (the
    chain verifies, the engine calls it illegal); the true events of every game by id."""
    d = tmp_path_factory.mktemp("corpus")
    files: list[bytes] = []
    truth: dict[str, list] = {}
    for i, game in enumerate(GAMES):
        g = find_game(game)
        opts = g.Options(**g.DEMO["option_sets"][0])
        sims = [s.events for s in simulate(game, 4, seed=100 + i, options=opts,
                                           session_games=3)]
        edited = _wrong_seat(sims[0], random.Random(i))
        for evs in (*sims, edited):
            truth[evs[0].game_id] = evs
        for name, part in ((f"{game}-3.arrows", sims[:3]), (f"{game}-1.arrows", sims[3:]),
                           (f"{game}-edited.arrows", [edited])):
            write_log(d / name, part)
            files.append((d / name).read_bytes())
    return files, truth


def _wrong_seat(events: list, rng: random.Random) -> list:
    """The game under another id with one seated move given to the next seat, re-sealed."""
    i = rng.choice([k for k, e in enumerate(events) if k > 10 and e.seat >= 0])
    n = len(json.loads(events[0].payload)["players"])
    bad = [e._replace(game_id=e.game_id + "-edited", digest=b"") for e in events]
    bad[i] = bad[i]._replace(seat=(bad[i].seat + 1) % n)
    return seal_events(bad)


# ---------------------------------------------------------------- mutators

def _flip(rng, data, files):
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 8))):
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


def _flip_resealed(rng, data, files):
    """A flip with the file's seal recomputed: only the hash chain can tell."""
    import hashlib
    body = bytearray(data[:-SEAL_SIZE])
    body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
    return bytes(body) + b"LJSEAL01" + hashlib.sha256(body).digest() + \
        struct.pack("<Q", len(body)) + b"LJEND001"


def _cut(rng, data, files):
    return data[:rng.randrange(len(data))]


def _zero_tail(rng, data, files):
    k = rng.randrange(len(data))
    if rng.random() < 0.5:
        return data[:k] + bytes(len(data) - k)              # zeroed in place (a crash)
    return data[:k] + bytes(rng.randrange(1, 5000))         # cut, then zero-filled


def _splice(rng, data, files):
    other = rng.choice(files)
    return data[:rng.randrange(len(data))] + other[rng.randrange(len(other)):]


def _random_bytes(rng, data, files):
    head = MARKER if rng.random() < 0.5 else b""
    return head + rng.randbytes(rng.randrange(0, 5000))


def _empty(rng, data, files):
    return b""


def _garbage_header(rng, data, files):
    k = rng.randrange(1, 64)
    return rng.randbytes(k) + data[k:]


def _huge_length(rng, data, files):
    """A message length after a continuation marker, a flatbuffer field near one, or the
    seal's stream length set huge."""
    b = bytearray(data)
    marks = [i for i in range(0, len(b) - 8, 8) if b[i:i + 4] == MARKER]
    what = rng.randrange(3)
    if what == 0 and marks:
        i = rng.choice(marks) + 4
        b[i:i + 4] = struct.pack("<I", rng.choice(HUGE))
    elif what == 1 and marks:
        i = rng.choice(marks) + 8 + 4 * rng.randrange(2, 40)
        if i + 8 <= len(b):
            b[i:i + 8] = struct.pack("<q", rng.choice(HUGE) * rng.choice((1, 1 << 20, -1)))
    else:
        b[-16:-8] = struct.pack("<Q", rng.choice(HUGE) << rng.choice((0, 32)))
    return bytes(b)


MUTATORS = (_flip, _flip, _flip_resealed, _cut, _cut, _zero_tail, _splice, _random_bytes,
            _empty, _garbage_header, _huge_length, _huge_length)


# ---------------------------------------------------------------- checks

def _verdict(rows: list[dict]) -> str:
    statuses = {r["status"] for r in rows}
    for cls in ("corrupt", "not_a_log", "illegal", "incomplete"):
        if cls in statuses:
            return "corrupt" if cls == "not_a_log" else cls
    return "ok"


def _check_read(path: Path, truth: dict) -> None:
    try:
        log = read_log(path)
    except LogIntegrityError as exc:
        assert "\n" not in str(exc), str(exc)
        return
    for g in log.games:
        true = truth.get(g.game_id, [])
        assert g.events == true[:len(g.events)], f"{g.game_id}: verified events were changed"
    for p in log.problems:
        assert "\n" not in str(p), str(p)


def _check_validate(path: Path, rows_seen: Counter[str]) -> str:
    rep = validate_file(path, {})
    assert rep.io_error is None, rep.io_error
    assert rep.rows, "no verdict at all"
    for r in rep.rows:
        assert r["status"] in STATUSES, r
        assert r.get("reason") is None or "\n" not in r["reason"], r
        rows_seen[r["status"]] += 1
    return _verdict(rep.rows)


def test_mangled_logs_never_crash_the_reader(corpus, tmp_path):
    files, truth = corpus
    originals = {f for f in files if b"-edited" not in f}
    rng = random.Random(SEED)
    counts: Counter[str] = Counter()
    rows: Counter[str] = Counter()
    by_mutator: Counter[str] = Counter()
    crashes: list[str] = []
    kept: list[Path] = []
    t0 = time.perf_counter()
    for i in range(N_FILES):
        mutate = MUTATORS[i % len(MUTATORS)]
        data = mutate(rng, rng.choice(files), files)
        path = tmp_path / f"m{i:05d}.arrows"
        path.write_bytes(data)
        by_mutator[mutate.__name__.strip("_")] += 1
        try:
            _check_read(path, truth)
            verdict = _check_validate(path, rows)
            if mutate is not _flip_resealed:    # resealed: a flip in padding changes nothing
                assert (verdict == "ok") == (data in originals), f"{verdict}: bytes changed"
            counts[verdict] += 1
        except Exception:  # noqa: BLE001 - collected and reported below
            crashes.append(f"{path.name} ({mutate.__name__}): {traceback.format_exc()}")
            continue
        if i % max(1, N_FILES // 8) == 0:
            kept.append(path)
        else:
            path.unlink()
    seconds = time.perf_counter() - t0
    print(f"\nmangled {N_FILES} files (seed {SEED}) in {seconds:.1f} s; files by verdict "
          f"{dict(sorted(counts.items()))}; report rows by status {dict(sorted(rows.items()))}; "
          f"mutators {dict(sorted(by_mutator.items()))}")
    assert not crashes, f"{len(crashes)} crash(es); first:\n{crashes[0]}"
    assert sum(counts.values()) == N_FILES
    _through_the_cli(kept)


def _through_the_cli(paths: list[Path]) -> None:
    """A handful of the mangled files through the real command line, JSON and text."""
    for args in (("--json",), ()):
        r = subprocess.run([sys.executable, "-m", "liujia", "validate", "--quiet", *args,
                            *map(str, paths)], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
        assert r.returncode in (0, 1), r.stderr
        assert "Traceback" not in r.stderr, r.stderr
        lines = r.stdout.splitlines()
        if args:
            rows = [json.loads(x) for x in lines]
            assert {row["file"] for row in rows} == set(map(str, paths))
        else:
            assert all(x.startswith(tuple(map(str, paths))) for x in lines[:-1]), lines
