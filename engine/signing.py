"""Signed logs: a recorder key (Ed25519) signs a sealed log file's manifest.

A signed file is a sealed log followed by a signature block::

    LJSIG001 | u32 manifest length | manifest (canonical JSON, UTF-8) | 64-byte signature
             | u64 block length | LJSEND01

The manifest names the key (its id and public key), the SHA-256 and length of the stream the
seal covers, and every game of the file in order: its id, its number of events, its final
digest and its first and last timestamps. The signature is Ed25519 over ``SIGNED_PREFIX`` +
the manifest. So a file changed after signing (any byte: the seal's SHA-256 no longer
matches), a game dropped, added, replaced or moved (the games no longer match the manifest),
or a manifest rewritten (the signature no longer verifies) is told apart from a file signed
afresh by another key, which verifies but names that key: whether to trust it is the reader's
policy (``liujia keys trust``). Ed25519 signatures are deterministic: the same key and file
give the same bytes (simulation stays byte-identical).

What a signature proves: that the holder of the key wrote exactly these games in this order.
It does not prove that the games were played as recorded, nor anything about a file the
key's holder never saw.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import Any

SIG_MAGIC = b"LJSIG001"
SIG_END = b"LJSEND01"
SIG_FORMAT = "liujia.signature/1"
SIGNED_PREFIX = b"liujia-log-signature/1\n"
SIG_BYTES = 64
MAX_MANIFEST = 64 << 20          # a manifest names games: 64 MiB is millions of them


def key_id(public: bytes) -> str:
    """A key's short id: the first 16 hex digits of the SHA-256 of its 32 public bytes."""
    return hashlib.sha256(public).hexdigest()[:16]


def public_bytes(private: Any) -> bytes:
    """The 32 raw public bytes of an Ed25519 private key."""
    from cryptography.hazmat.primitives import serialization
    return private.public_key().public_bytes(serialization.Encoding.Raw,
                                             serialization.PublicFormat.Raw)


@dataclass(frozen=True)
class GameEntry:
    """One game as the manifest lists it."""

    game_id: str
    events: int
    final_digest: str            # hex
    first_ts: int
    last_ts: int

    def to_json(self) -> list[Any]:
        """The manifest's form: [game_id, events, final digest, first ts, last ts]."""
        return [self.game_id, self.events, self.final_digest, self.first_ts, self.last_ts]


@dataclass
class Signature:
    """A file's signature block as read, and what checking it found."""

    key_id: str
    public_key: bytes
    manifest: dict[str, Any]
    valid: bool = False              # the signature verifies over the manifest
    problems: list[str] = field(default_factory=list)   # what does not match the file

    @property
    def games(self) -> list[GameEntry]:
        """The games the manifest lists, in order."""
        return [GameEntry(*g) for g in self.manifest.get("games", [])]

    @property
    def ok(self) -> bool:
        """True when the signature verifies and the file is exactly what was signed."""
        return self.valid and not self.problems


def manifest_bytes(sha256: bytes, stream_bytes: int, games: Sequence[GameEntry],
                   public: bytes) -> bytes:
    """The canonical manifest of a sealed stream and its games, for this key."""
    m = {"format": SIG_FORMAT, "key": key_id(public), "public_key": public.hex(),
         "sha256": sha256.hex(), "stream_bytes": stream_bytes,
         "games": [g.to_json() for g in games]}
    return json.dumps(m, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def signature_block(private: Any, sha256: bytes, stream_bytes: int,
                    games: Sequence[GameEntry]) -> bytes:
    """The bytes to append after a file's seal to sign it with this Ed25519 private key."""
    m = manifest_bytes(sha256, stream_bytes, games, public_bytes(private))
    sig = private.sign(SIGNED_PREFIX + m)
    size = 8 + 4 + len(m) + SIG_BYTES + 8 + 8
    return SIG_MAGIC + struct.pack("<I", len(m)) + m + sig + struct.pack("<Q", size) + SIG_END


class BadSignatureBlock(ValueError):
    """A signature block that cannot be read (its reason is the message)."""


def split_signature(data: memoryview) -> tuple[int, Signature | None]:
    """Where the sealed part of a file ends and its signature block, if it ends with one;
    raises BadSignatureBlock for a block that is there but cannot be read."""
    size = len(data)
    if size < 16 or bytes(data[size - 8:]) != SIG_END:
        return size, None
    (block,) = struct.unpack("<Q", bytes(data[size - 16:size - 8]))
    if not 8 + 4 + SIG_BYTES + 16 <= block <= min(size, MAX_MANIFEST + 100):
        raise BadSignatureBlock(f"the signature block's length {block} is impossible")
    start = size - block
    head = bytes(data[start:start + 12])
    if head[:8] != SIG_MAGIC:
        raise BadSignatureBlock("the signature block does not begin with its marker")
    (mlen,) = struct.unpack("<I", head[8:12])
    if 12 + mlen + SIG_BYTES + 16 != block:
        raise BadSignatureBlock("the signature block's lengths disagree")
    raw = bytes(data[start + 12:start + 12 + mlen])
    sig = bytes(data[start + 12 + mlen:start + 12 + mlen + SIG_BYTES])
    try:
        m = json.loads(raw.decode("ascii"))
        public = bytes.fromhex(m["public_key"])
        if not isinstance(m, dict) or m.get("format") != SIG_FORMAT or len(public) != 32 or \
                m.get("key") != key_id(public) or not isinstance(m.get("games"), list):
            raise ValueError
        games = [GameEntry(*g) for g in m["games"]]
        if not all(isinstance(g.game_id, str) and isinstance(g.events, int)
                   and isinstance(g.final_digest, str) for g in games):
            raise ValueError
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise BadSignatureBlock("the signature's manifest cannot be read") from None
    out = Signature(m["key"], public, m)
    out.valid = _verifies(public, sig, raw)
    if not out.valid:
        out.problems.append("the signature does not verify: the manifest was changed or "
                            "signed by another key than the one it names")
    return start, out


def _verifies(public: bytes, sig: bytes, manifest: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(sig, SIGNED_PREFIX + manifest)
    except (InvalidSignature, ValueError):
        return False
    return True


def check_against(sig: Signature, sha256: bytes | None, stream_bytes: int,
                  games: Sequence[GameEntry]) -> None:
    """Record in ``sig.problems`` how the file differs from what was signed: its bytes (the
    seal's SHA-256), and game by game which was dropped, added, replaced or moved."""
    m = sig.manifest
    if sha256 is None or m.get("sha256") != sha256.hex() or m.get("stream_bytes") != stream_bytes:
        sig.problems.append("the file's bytes are not the ones signed (its SHA-256 differs from "
                            "the signed one): it was changed after signing")
    signed = sig.games
    if [g.to_json() for g in signed] == [g.to_json() for g in games]:
        return
    sig.problems.extend(game_differences(signed, games))


def game_differences(signed: Sequence[GameEntry], found: Sequence[GameEntry]) -> list[str]:
    """Each difference between the games signed and the games found, one line each."""
    out: list[str] = []
    s_ids = [g.game_id for g in signed]
    f_ids = [g.game_id for g in found]
    by_id = {g.game_id: g for g in signed}
    for i, g in enumerate(signed):
        if g.game_id not in f_ids:
            out.append(f"game {g.game_id} (signed as game {i + 1} of {len(signed)}) is missing "
                       "from the file")
    for g in found:
        want = by_id.get(g.game_id)
        if want is None:
            out.append(f"game {g.game_id} is in the file but was not signed")
        elif want != g:
            what = [name for name, a, b in (
                ("events", want.events, g.events), ("final digest", want.final_digest,
                                                    g.final_digest),
                ("first timestamp", want.first_ts, g.first_ts),
                ("last timestamp", want.last_ts, g.last_ts)) if a != b]
            out.append(f"game {g.game_id} is not the game signed ({', '.join(what)} differ): "
                       "it was replaced or changed")
    common = [x for x in f_ids if x in by_id]
    if common != [x for x in s_ids if x in common]:
        out.append(f"the games are in another order than signed (signed: "
                   f"{', '.join(x for x in s_ids if x in common)}; found: {', '.join(common)})")
    return out


def signature_state(sig: Signature | None, trusted: Container[str]) -> str:
    """A file's signature as one word: ``trusted`` (signed by one of the ``trusted`` key
    ids), ``untrusted``, ``unsigned`` or ``bad`` (it does not match the file)."""
    if sig is None:
        return "unsigned"
    if not sig.ok:
        return "bad"
    return "trusted" if sig.key_id in trusted else "untrusted"


def signature_text(sig: Signature | None, trusted: dict[str, str]) -> tuple[str, str]:
    """A file's signature in words and its ``signature_state`` (``trusted``: key id ->
    name): who signed it, whether that key is trusted here, or what does not match."""
    state = signature_state(sig, trusted)
    if sig is None:
        return "unsigned", state
    if state == "bad":
        return "BAD SIGNATURE: " + "; ".join(sig.problems), state
    games = f"{len(sig.games)} game(s) as signed"
    if state == "trusted":
        return f"signed by {trusted[sig.key_id]} (key {sig.key_id}, trusted here); {games}", \
            state
    return (f"signed by key {sig.key_id}, NOT trusted here (public key {sig.public_key.hex()}; "
            f"`liujia keys trust NAME PUBLIC` trusts it); {games}"), state
