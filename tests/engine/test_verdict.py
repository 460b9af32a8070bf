"""One verdict per file (``engine.verdict``): every damaged-file corpus of the suite — the mangled
Arrow logs of ``test_log_mangled``, the re-sealed forgeries (a move given to another seat, a
clock run backwards, a deal changed after its commitment, a session's opener changed, a game
cut before its end), a signature broken after signing (``test_signing``,
``test_ingest_integrity``) and the damaged liujia.jsonl files (``test_jsonl``) — goes through
``liujia validate``, ``liujia ingest``, ``liujia audit`` and the recording service, and each
of them, read in its own words, gives the same verdict for the file and for every game."""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.audit.integrity import signature_check
from engine.audit.report import AuditError, build_report
from engine.events import seal_events
from engine.jsonl import write_jsonl
from engine.jsonl_reader import read_any
from engine.log import LogIntegrityError, write_log
from engine.sim import simulate
from ingest.arrow_logs import read_file
from liujia.commands.audit import previous_game
from liujia.commands.validate import validate_file
from liujia.server.store import Refused, Store
from tests.engine.test_log_mangled import MUTATORS, _wrong_seat

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
N_MANGLED = 36
REPLAY_CODES = {"illegal", "invalid_event", "replay_error"}


def _resealed(events):
    return seal_events([e._replace(digest=b"") for e in events])


def _backwards(events):
    """A move stamped before the event it follows, re-sealed: the chain holds, time does not."""
    i = len(events) // 2
    return _resealed([*events[:i], events[i]._replace(ts=events[i - 1].ts - 1), *events[i + 1:]])


def _redealt(events):
    """The deal changed after the dealer committed to it, re-sealed."""
    deck = list(events[0].cards)
    j = next(k for k in range(1, len(deck)) if deck[k] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    return _resealed([events[0]._replace(cards=tuple(deck)), *events[1:]])


def _other_reveal(events):
    """GAME_END revealing another salt than the one committed to, re-sealed (test_commit)."""
    p = json.loads(events[-1].payload)
    p["reveal"] = ("0" if p["reveal"][0] != "0" else "1") + p["reveal"][1:]
    end = events[-1]._replace(payload=json.dumps(p, sort_keys=True, separators=(",", ":")))
    return _resealed([*events[:-1], end])


def _other_opener(events):
    """A later game of a 六人坑 session opened by another seat than KENG-7 says, re-sealed."""
    p = json.loads(events[0].payload)
    p["opener"] = (p["opener"] + 1) % len(p["players"])
    start = events[0]._replace(payload=json.dumps(p, sort_keys=True, separators=(",", ":")))
    return _resealed([start, *events[1:]])


def _bad_signature(path: Path) -> None:
    """A signed file whose signed list of games is changed after signing (test_signing)."""
    data = bytearray(path.read_bytes())
    (size,) = struct.unpack("<Q", bytes(data[-16:-8]))
    i = data.index(b'"games":[["', len(data) - size) + 11
    data[i] ^= 1
    path.write_bytes(bytes(data))


def _jsonl_damaged(d: Path, games) -> list[Path]:
    """liujia.jsonl files: a tampered line, a malformed line, a torn tail, no header."""
    base = d / "base.jsonl"
    write_jsonl(base, games)
    lines = base.read_text().splitlines()
    out = []
    n = 1 + len(games[0]) + 7
    tampered = list(lines)
    o = json.loads(tampered[n - 1])
    o["seat"] = (o["seat"] + 1) % 6 if o["seat"] >= 0 else 0
    tampered[n - 1] = json.dumps(o)
    malformed = list(lines)
    malformed[n - 1] = malformed[n - 1][:40]
    for name, text in (("tampered", "\n".join(tampered) + "\n"),
                       ("malformed", "\n".join(malformed) + "\n"),
                       ("torn", "\n".join(lines)[:-25]),
                       ("headless", "\n".join(lines[1:]) + "\n")):
        out.append(d / f"{name}.jsonl")
        out[-1].write_text(text)
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[Path]:
    """Every damaged file, and the intact files they were made from."""
    d = tmp_path_factory.mktemp("damaged")
    keng = [s.events for s in simulate("keng", 3, seed=31, session_games=3, commit=True)]
    gouji = [s.events for s in simulate("gouji", 1, seed=32)]
    files: dict[str, list] = {
        "keng-session": keng, "gouji-1": gouji, "keng-1": keng[:1],
        "wrong-seat": [_wrong_seat(gouji[0], random.Random(1))],
        "backwards": [_backwards(gouji[0])],
        "redealt": [_redealt(keng[0])],
        "reveal-changed": [_other_reveal(keng[0])],
        "session-broken": [keng[0], _other_opener(keng[1])],
        "cut-before-end": [_resealed(keng[0][:-5])],
    }
    paths = []
    for name, games in files.items():
        paths.append(d / f"{name}.arrows")
        write_log(paths[-1], games)
    paths.append(d / "signed-then-changed.arrows")
    write_log(paths[-1], keng, signer=KEY)
    _bad_signature(paths[-1])
    blobs = [p.read_bytes() for p in paths]
    rng = random.Random(23)
    for i in range(N_MANGLED):
        mutate = MUTATORS[i % len(MUTATORS)]
        paths.append(d / f"mangled-{i:02d}-{mutate.__name__.strip('_')}.arrows")
        paths[-1].write_bytes(mutate(rng, rng.choice(blobs), blobs))
    return paths + _jsonl_damaged(d, keng)


# --------------------------------------------------------------- each tool, in its own words

def by_validate(path: Path) -> dict:
    """``liujia validate``'s rows as a file verdict and a verdict per game."""
    rows = validate_file(path, {}).rows
    games = {}
    for r in rows:
        if "events" in r or "intact_events" in r:
            games[r["game_id"]] = _validate_game(r)
    refused = any(r.get("code") == "bad_signature" for r in rows)
    damaged = any(not ("events" in r or "intact_events" in r) and
                  r.get("code") != "bad_signature" for r in rows)
    return _file(damaged, refused, games)


def _validate_game(r: dict) -> tuple[str, str]:
    st = r["status"]
    if st == "ok":
        return "ok", ""
    if st == "corrupt":
        return "corrupt", "commitment" if r["code"] == "commitment" else "chain"
    if st == "illegal":
        return st, "illegal" if r.get("rule_id") else \
            "invalid_event" if r.get("field") else "replay_error"
    return st, {"incomplete": "incomplete", "error": "engine_error"}[st]


def by_ingest(path: Path) -> dict:
    """``liujia ingest``'s loaded games and quarantine records as the same verdicts."""
    res = read_file(path)
    games = {gid: ("ok", "") for gid in res.ok_ids}
    refused = res.signature == "bad"          # the file's signature, as ingest counts it
    for q in res.bad_games:
        if q.stage == "signature":
            refused = True
        games[q.game_id] = ("refused", "") if q.stage == "signature" else (
            ("corrupt", "chain") if q.stage == "log" else
            ("corrupt", "commitment") if q.code == "commitment" else
            ("illegal", q.code) if q.code in REPLAY_CODES else
            ("error", q.code) if q.code == "engine_error" else (q.code, q.code))
    return _file(bool(res.file_problems), refused, games)


def by_audit(path: Path) -> dict:
    """``liujia audit`` of every game of the file (as the command reads it)."""
    try:
        log = read_any(path)
    except LogIntegrityError:
        return _file(True, False, {})
    games, damaged = {}, bool(log.problems)
    refused = signature_check(log, {})["state"] == "bad"     # the audit's signature check
    for g in log.games:
        if not g.events:                     # "damaged from its start": a broken chain
            games[g.game_id] = ("corrupt", "chain")
            continue
        try:
            rep = build_report(g.events, log=log, game_log=g, path=str(path),
                               previous=previous_game(log, g.events))
        except AuditError as exc:
            pytest.fail(f"{path.name}: {exc}")
        except Exception:  # noqa: BLE001 - the command's "the engine failed" line
            games[g.game_id] = ("error", "engine_error")
            continue
        checks = {c["name"]: c for c in rep["integrity"]}
        assert (checks["signature"]["state"] == "bad") == refused
        games[g.game_id] = _audit_game(rep, checks)
    return _file(damaged, refused, games)


def _audit_game(rep: dict, checks: dict) -> tuple[str, str]:
    v = rep["verdict"]
    if checks["chain"]["ok"] is False:
        return "corrupt", "chain"
    if v["status"] == "ok" and checks["commitment"]["ok"] is False:
        return "corrupt", "commitment"
    session = checks["session"]
    if v["status"] == "ok" and session["ok"] is False and "is itself" not in session["text"]:
        return "illegal", "illegal"              # the link broken (not the previous game)
    if v["status"] == "illegal":
        first = v["first_illegal"]
        return "illegal", "illegal" if first["type"] == "illegal" else \
            "invalid_event" if first["field"] else "replay_error"
    return v["status"], "" if v["status"] == "ok" else v["status"]


def by_server(path: Path, tmp: Path) -> bool | None:
    """The recording service serving the file as a sealed game's log: True when it serves
    it, False when it refuses it as not verifying; None: not a sealed log (liujia.jsonl)."""
    if path.suffix != ".arrows":
        return None
    store = Store(tmp / path.stem)
    store.sealed_dir.mkdir(parents=True)
    (store.sealed_dir / "g.arrows").write_bytes(path.read_bytes())
    store.start()                                # finds it as the sealed log of game g
    try:
        store.status("g")
    except Refused as exc:
        assert exc.status == 500 and "does not verify" in exc.body["reason"]
        return False
    finally:
        store.close()
    return True


def _file(damaged: bool, refused: bool, games: dict) -> dict:
    """A file's verdict; the games of a file the policy refuses are refused, whatever their
    replay (ingest does not load them, validate and audit still show it)."""
    if refused:
        games = {g: ("refused", "") for g in games}
    return {"damaged": damaged, "refused": refused, "games": games}


def test_every_damaged_file_has_one_verdict(corpus, tmp_path):
    kinds: set[tuple[str, str]] = set()
    served_as: set[bool] = set()
    for path in corpus:
        v = by_validate(path)
        assert by_ingest(path) == v, f"{path.name}: ingest differs from validate"
        a = by_audit(path)
        assert a["damaged"] == v["damaged"] and a["refused"] == v["refused"], path.name
        assert a["games"] == v["games"], f"{path.name}: audit differs from validate"
        served = by_server(path, tmp_path)
        if served is not None:
            clean = not v["damaged"] and not v["refused"] and len(v["games"]) == 1 and \
                list(v["games"].values()) == [("ok", "")]
            assert served == clean, f"{path.name}: the recording service differs"
            served_as.add(served)
        kinds.update(v["games"].values())
        if v["damaged"]:
            kinds.add(("file", "damaged"))
        if v["refused"]:
            kinds.add(("file", "refused"))
    # the corpus covers every kind of verdict (else the comparison proves little)
    assert kinds >= {("ok", ""), ("corrupt", "chain"), ("corrupt", "commitment"),
                     ("illegal", "illegal"), ("illegal", "invalid_event"),
                     ("incomplete", "incomplete"), ("file", "damaged"), ("file", "refused")}
    assert served_as == {True, False}
