"""Committed chance: the dealer commits to the deck order before play and reveals the salt
at the end, so that a player can check afterwards that the deal was fixed before the first
card was seen (the way Tenhou publishes each shuffle's seed).

At the start the dealer draws a secret 16-byte salt and records in ``GAME_START``'s payload
``"commitment": "sha256:" + hex(SHA-256(PREFIX + salt + chance))``, where ``chance`` is
every chance outcome of the game (``chance_bytes``): GAME_START's payload without the
commitment (the random first dealer or opener, the dice), and the cards of GAME_START (the
deck order), of every DEAL and of every CUT, in log order (a game may name other kinds in a
``CHANCE_KINDS`` attribute). The commitment is public: every seat's view shows it, while the
deck itself stays hidden. At the end ``GAME_END``'s payload carries
``"reveal": hex(salt)``; whoever holds the log recomputes the hash from the salt and the
recorded deck and compares it with the commitment (``status``).

The two keys belong to the log, not to the game: ``for_engine`` takes them out before an
event reaches a game's rules, so every game accepts them and a log without them (any log
written before they existed) means the same as before.

What it proves: if the commitment a player saw (or noted) when the game began matches, the
deck recorded in the log is the deck that was fixed before play — the dealer cannot have
changed the deal after seeing how play went without the commitment changing. What it does not
prove: that the shuffle was fair (the dealer chose the deck), nor anything to someone who did
not see the commitment before play and holds only a log rewritten as a whole (commitment and
all): against that, the log's signature (``engine.signing``) is the anchor.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.events import Event

PREFIX = b"liujia-deal-commitment/1\n"
COMMIT_KEY, REVEAL_KEY = "commitment", "reveal"
_COMMIT = re.compile(r"sha256:[0-9a-f]{64}")
_REVEAL = re.compile(r"[0-9a-f]{32}")


def new_salt(rng: random.Random) -> bytes:
    """A 16-byte salt from the dealer's (seeded) generator."""
    return rng.getrandbits(128).to_bytes(16, "little")


CHANCE_KINDS = ("GAME_START", "DEAL", "CUT")


def chance_bytes(events: Sequence[Event], kinds: Sequence[str] = CHANCE_KINDS) -> bytes:
    """The chance outcomes of a game as bytes: GAME_START's payload without the commitment,
    then ``seq kind seat`` and the card codes of each event of the chance kinds."""
    start = for_engine(events[0]) if events else None
    out = [(start.payload or "").encode() if start is not None else b""]
    for e in events:
        if e.kind in kinds:
            out.append(f"\n{e.seq} {e.kind} {e.seat} ".encode() + bytes(e.cards))
    return b"".join(out)


def commitment(salt: bytes, chance: bytes) -> str:
    """The commitment to a game's chance outcomes under a salt: 'sha256:<64 hex digits>'."""
    return "sha256:" + hashlib.sha256(PREFIX + salt + chance).hexdigest()


def commit_game(events: Sequence[Event], salt: bytes,
                kinds: Sequence[str] = CHANCE_KINDS) -> list[Event]:
    """A dealt game's events (unsealed) with the commitment in GAME_START and, when it has
    ended, the salt revealed in GAME_END."""
    out = list(events)
    out[0] = with_key(out[0], COMMIT_KEY, commitment(salt, chance_bytes(out, kinds)))
    if out[-1].kind == "GAME_END":
        out[-1] = with_key(out[-1], REVEAL_KEY, salt.hex())
    return out


def engine_events(events: Sequence[Event]) -> Sequence[Event]:
    """The events as the game's rules see them (``for_engine`` on the first and last): the
    same sequence when neither carries a log key."""
    if not events:
        return events
    first, last = for_engine(events[0]), for_engine(events[-1])
    if first is events[0] and last is events[-1]:
        return events
    out = list(events)
    out[0], out[-1] = first, last if len(out) > 1 else first
    return out


def _payload(e: Event) -> dict | None:
    if not e.payload or (COMMIT_KEY not in e.payload and REVEAL_KEY not in e.payload):
        return None
    try:
        p = json.loads(e.payload)
    except ValueError:
        return None
    return p if isinstance(p, dict) else None


def _canonical(p: dict) -> str:
    return json.dumps(p, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def with_key(e: Event, key: str, value: str) -> Event:
    """The event with one more key in its JSON payload (canonical form kept)."""
    p = json.loads(e.payload) if e.payload else {}
    p[key] = value
    return e._replace(payload=_canonical(p))


def for_engine(e: Event) -> Event:
    """The event as a game's rules see it: GAME_START without its commitment, GAME_END
    without its reveal (the log's keys, not the game's)."""
    if e.kind not in ("GAME_START", "GAME_END"):
        return e
    p = _payload(e)
    if p is None:
        return e
    key = COMMIT_KEY if e.kind == "GAME_START" else REVEAL_KEY
    if key not in p:
        return e
    del p[key]
    return e._replace(payload=_canonical(p) if p else None)


@dataclass(frozen=True)
class CommitStatus:
    """What a game's commitment says: ``none`` (not committed), ``open`` (committed, not
    revealed: the game has not ended), ``verified``, or ``mismatch`` / ``malformed`` with
    the reason in one line."""

    state: str
    message: str
    commitment: str | None = None

    @property
    def ok(self) -> bool:
        """True unless the commitment is broken or cannot be read."""
        return self.state in ("none", "open", "verified")


def status(events: Sequence[Event], kinds: Sequence[str] = CHANCE_KINDS) -> CommitStatus:
    """Check a game's commitment against its revealed salt and recorded chance outcomes."""
    if not events or events[0].kind != "GAME_START":
        return CommitStatus("none", "no GAME_START")
    start = _payload(events[0]) or {}
    c = start.get(COMMIT_KEY)
    end = events[-1] if events[-1].kind == "GAME_END" else None
    r = (_payload(end) or {}).get(REVEAL_KEY) if end is not None else None
    if c is None:
        if r is not None:
            return CommitStatus("malformed", "GAME_END reveals a salt but GAME_START made no "
                                "commitment")
        return CommitStatus("none", "the deal was not committed")
    if not isinstance(c, str) or not _COMMIT.fullmatch(c):
        return CommitStatus("malformed", "GAME_START's commitment is not 'sha256:' and 64 hex "
                            "digits")
    if end is None:
        return CommitStatus("open", "committed; the game has not ended, so nothing is revealed "
                            "yet", c)
    if r is None:
        return CommitStatus("mismatch", "GAME_START committed to the deal but GAME_END reveals "
                            "no salt: the commitment cannot be checked", c)
    if not isinstance(r, str) or not _REVEAL.fullmatch(r):
        return CommitStatus("malformed", "GAME_END's reveal is not 32 hex digits", c)
    if commitment(bytes.fromhex(r), chance_bytes(events, kinds)) != c:
        return CommitStatus("mismatch", "the revealed salt and the recorded deck do not give "
                            "the commitment made before play: the deal was changed after the "
                            "commitment (or the commitment or salt was)", c)
    return CommitStatus("verified", "the recorded deck is the one committed to before play", c)
