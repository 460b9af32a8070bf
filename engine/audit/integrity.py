"""The integrity part of an audit: the file's seal, the game's event chain, the signature and
its key, the file chain (the games of the file in the order signed), the deal's commitment,
the warehouse anchor (``warehouse.anchors``) and the game's clock.

Each check is a dict ``{"name", "state", "ok", "text", "details"}``: ``ok`` is True (fine),
False (something is wrong: the audit exits 1) or None (not checked, or nothing to check: an
unsigned file, a deal not committed). Read from the warehouse (the dashboard) there is no
file: the seal, the signature and the file chain say that they need the original log file,
while the chain is recomputed from the stored digests.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

from engine import commit
from engine.events import GENESIS, Event, chain_digest
from engine.log import GameLog, LogRead, game_entries
from engine.signing import Signature
from engine.verdict import GameVerdict, game_verdict, previous_game, session_link, signature_policy

NEEDS_FILE = "not checked: needs the original log file (the warehouse keeps events, not files)"
CHECK_NAMES = ("seal", "chain", "signature", "file_chain", "commitment", "anchor", "clock",
               "session")


def check(name: str, state: str, ok: bool | None, text: str,
          details: Sequence[str] = ()) -> dict[str, Any]:
    """One integrity check as the report holds it."""
    return {"name": name, "state": state, "ok": ok, "text": text, "details": list(details)}


def seal_check(log: LogRead | None) -> dict[str, Any]:
    """The file's seal (SHA-256 of the stream) and the file-level problems of reading it."""
    if log is None:
        return check("seal", "not_checked", None, NEEDS_FILE)
    if type(log).__name__ == "JsonlRead":
        probs = [str(p) for p in log.problems]
        if probs:
            return check("seal", "broken", False, "the liujia.jsonl file is damaged", probs)
        return check("seal", "none", None, "a liujia.jsonl file has no seal (its events are "
                     "chained, see chain)")
    if log.problems:
        return check("seal", "broken", False, "the file is damaged or its seal does not match",
                     [str(p) for p in log.problems])
    return check("seal", "ok", True, "sealed: the file's SHA-256 matches its seal")


def chain_check(game: GameLog | None, events: Sequence[Event]) -> dict[str, Any]:
    """The game's digest chain: as read from the file (``game``), else recomputed from the
    events' stored digests (a warehouse's copy)."""
    n = len(events)
    if game is not None:
        if game.error is not None:
            return check("chain", "broken", False, f"the chain breaks after {n} intact "
                         f"event(s): {game.error}")
        return check("chain", "ok", True, f"every event's digest chains to the one before "
                     f"({n} events); final digest {game.final_digest.hex()}")
    prev = GENESIS
    for e in events:
        prev = chain_digest(prev, e)
        if prev != e.digest:
            return check("chain", "broken", False, f"seq {e.seq}: the event does not match its "
                         "stored digest: a field was changed, or the events before it were")
    last = events[-1].digest.hex() if events else ""
    return check("chain", "ok", True, f"every stored digest chains to the one before ({n} "
                 f"events, recomputed from the warehouse's copy); final digest {last}")


def signature_check(log: LogRead | None, trusted: dict[str, str]) -> dict[str, Any]:
    """The file's signature and key, in the words of ``liujia validate``."""
    if log is None:
        return check("signature", "not_checked", None, NEEDS_FILE)
    sig = log.signature
    state, text, _ = signature_policy(sig, trusted, "none")
    ok = {"bad": False, "unsigned": None}.get(state, True)
    details = [f"key {sig.key_id}, public key {sig.public_key.hex()}"] if sig is not None else []
    return check("signature", state, ok, text, details)


def file_chain_check(log: LogRead | None, game_id: str) -> dict[str, Any]:
    """Where the game is among the games of its file, and whether the file holds the games
    signed, in the order signed (``engine.signing.game_differences``)."""
    if log is None:
        return check("file_chain", "not_checked", None, NEEDS_FILE)
    ids = [g.game_id for g in log.games]
    here = f"game {ids.index(game_id) + 1} of {len(ids)} in the file" if game_id in ids else \
        "not in the file"
    sig: Signature | None = log.signature
    if sig is None:
        return check("file_chain", "unsigned", None, f"{here}; the file is unsigned, so nothing "
                     "records which games it held in which order")
    from engine.signing import game_differences

    signed = [g.game_id for g in sig.games]
    where = f"signed as game {signed.index(game_id) + 1} of {len(signed)}" \
        if game_id in signed else "not signed"
    diffs = game_differences(sig.games, game_entries(log.games))
    if diffs:
        return check("file_chain", "broken", False, f"{here}, {where}; the file's games are "
                     "not the games signed", diffs)
    return check("file_chain", "ok", True, f"{here}, {where}: the file holds every game "
                 "signed, unchanged, in the order signed")


def commitment_check(events: Sequence[Event],
                     st: commit.CommitStatus | None = None) -> dict[str, Any]:
    """The dealer's commitment to the chance outcomes (``engine.commit.status``; ``st``: as
    the game's verdict found it)."""
    st = st if st is not None else commit.status(events)
    ok = {"verified": True, "none": None, "open": None}.get(st.state, False)
    details = [st.commitment] if st.commitment else []
    return check("commitment", st.state, ok, st.message, details)


def check_anchor(game_id: str, final_digest: str,
                 anchors: tuple[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The game's final digest against the anchor a warehouse kept of it when the game was
    first ingested (``anchors``: the warehouse's name and its anchors by game id, read by the
    caller from ``warehouse.anchors``, kept across ``liujia rebuild``); None: not checked."""
    if anchors is None:
        return check("anchor", "not_checked", None, "not checked: no warehouse given")
    where, found_all = anchors
    where = PurePath(where).name          # a shared report names files, not a machine's folders
    found = found_all.get(game_id)
    if found is None:
        return check("anchor", "none", None, f"the warehouse {where} has no anchor for this "
                     "game (never ingested there)")
    first = f"first ingested {found.first_seen} from {PurePath(found.file).name}" + (
        f", signed by key {found.key}" if found.key else "")
    if found.final_digest != final_digest:
        return check("anchor", "contradicts", False, f"the log CONTRADICTS the warehouse's "
                     f"anchor: {first} with final digest {found.final_digest} "
                     f"({found.events} events); this log ends with {final_digest or 'none'}")
    return check("anchor", "ok", True, f"matches the warehouse's anchor ({first})")


def clock_check(backwards: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The game's timestamps: they never go back (the timing section has the details)."""
    if not backwards:
        return check("clock", "ok", True, "every timestamp is at or after the one before")
    seqs = ", ".join(str(b["seq"]) for b in backwards[:10])
    more = f" and {len(backwards) - 10} more" if len(backwards) > 10 else ""
    return check("clock", "broken", False, f"time goes back at seq {seqs}{more}",
                 [b["text"] for b in backwards])


def session_check(events: Sequence[Event], previous: Sequence[Event] | None) -> dict[str, Any]:
    """The game's start against the previous game of its session it names (the game's
    ``check_session``, e.g. KENG-7, GJ-9, LH-65 … LH-68), when that game is
    given (``previous``: its events, found in the same logs)."""
    prev_id = previous_game(events[0])
    if prev_id is None:
        return check("session", "first", None, "the first game of its session")
    if previous is None:
        return check("session", "not_checked", None, f"the previous game {prev_id} is not in "
                     "these logs: the link between them is not checked")
    pv = game_verdict(previous)
    v = pv.replay
    if v is None or v.status != "ok":
        status, why = (v.status, v.error) if v is not None else (pv.status, pv.error)
        return check("session", "broken", False, f"the previous game {prev_id} is itself "
                     f"{status}: {why}")
    err = session_link(events[0], v.state)
    if err is not None:
        return check("session", "broken", False, f"{err.rule_id}: {err.reason} (against the "
                     f"previous game {prev_id})")
    return check("session", "ok", True, f"follows the previous game {prev_id} as the rules say")


def integrity(events: Sequence[Event], log: LogRead | None, game: GameLog | None,
              trusted: dict[str, str], backwards: Sequence[dict[str, Any]],
              anchors: tuple[str, dict[str, Any]] | None = None,
              previous: Sequence[Event] | None = None,
              verdict: GameVerdict | None = None) -> list[dict[str, Any]]:
    """Every integrity check of one game, in the order of ``CHECK_NAMES`` (``verdict``: the
    game's verdict, ``engine.verdict.game_verdict``, whose commitment it reports)."""
    gid = events[0].game_id if events else (game.game_id if game else "")
    final = events[-1].digest.hex() if events else ""
    return [seal_check(log), chain_check(game, events), signature_check(log, trusted),
            file_chain_check(log, gid),
            commitment_check(events, verdict.commitment if verdict else None), check_anchor(gid, final, anchors),
            clock_check(backwards), session_check(events, previous)]
