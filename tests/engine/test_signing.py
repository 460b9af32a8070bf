"""Signed logs against a forger (issue 13): every edit a forger who recomputes every digest and
the seal can make is detected once the file is signed, and the problem says what and where;
a file re-signed with another key verifies but names that key."""

from __future__ import annotations

import struct

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.events import seal_events
from engine.log import read_log, sealed_sha256, sign_file, write_log
from engine.replay import validate_events
from engine.signing import SIG_END, key_id, public_bytes
from engine.sim import simulate

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


@pytest.fixture(scope="module")
def games():
    return [g.events for g in simulate("keng", 3, seed=4, session_games=3)]


def _block(path) -> bytes:
    data = path.read_bytes()
    assert data.endswith(SIG_END)
    (size,) = struct.unpack("<Q", data[-16:-8])
    return data[-size:]


def _forged(tmp_path, signed, games, name="forged.arrows"):
    """The forger's file: the games re-chained and re-sealed, the original signature kept."""
    out = tmp_path / name
    write_log(out, [seal_events([e._replace(digest=b"") for e in g]) for g in games])
    out.write_bytes(out.read_bytes() + _block(signed))
    return out


@pytest.fixture
def signed(tmp_path, games):
    path = tmp_path / "signed.arrows"
    write_log(path, games, signer=KEY)
    return path


def test_a_signed_file_verifies_and_names_its_key(signed, games, tmp_path):
    log = read_log(signed)
    assert log.ok and log.signature is not None and log.signature.ok
    assert log.signature.key_id == key_id(public_bytes(KEY))
    assert [g.game_id for g in log.signature.games] == [g[0].game_id for g in games]
    plain = tmp_path / "plain.arrows"
    write_log(plain, games)
    assert read_log(plain).signature is None
    assert sealed_sha256(plain) == sealed_sha256(signed)          # the signature is after the seal
    sign_file(plain, KEY)                                          # signing later: the same bytes
    assert plain.read_bytes() == signed.read_bytes()


def _problems(path) -> list[str]:
    log = read_log(path)
    assert log.ok, log.problems                   # the forger re-chained and re-sealed it
    assert log.signature is not None and log.signature.valid
    assert not log.signature.ok
    return log.signature.problems


def test_a_field_edit_is_detected(signed, games, tmp_path):
    g = list(games[1])
    i = next(i for i, e in enumerate(g) if e.kind == "PLAY")
    g[i] = g[i]._replace(tag="forged")
    probs = _problems(_forged(tmp_path, signed, [games[0], g, games[2]]))
    assert any("changed after signing" in p for p in probs)
    assert any(f"game {g[0].game_id} is not the game signed (final digest differ" in p
               for p in probs)


def test_timestamp_changes_are_detected(signed, games, tmp_path):
    hour = 3_600_000_000
    g = list(games[0])
    g[10] = g[10]._replace(ts=g[10].ts - hour)              # one event moved back an hour
    moved = seal_events([e._replace(digest=b"") for e in g])
    assert validate_events(moved).status == "illegal"         # caught even unsigned: ts order
    assert validate_events(moved).error.field == "ts"
    shifted = [e._replace(ts=e.ts + hour) for e in games[2]]  # a whole game's clock shifted
    assert validate_events(seal_events([e._replace(digest=b"") for e in shifted])).status == "ok"
    probs = _problems(_forged(tmp_path, signed, [games[0], games[1], shifted]))
    assert any("first timestamp, last timestamp differ" in p for p in probs)


def test_dropped_reordered_and_replaced_games_are_named(signed, games, tmp_path):
    gid = [g[0].game_id for g in games]
    probs = _problems(_forged(tmp_path, signed, [games[0], games[2]], "dropped.arrows"))
    assert any(f"game {gid[1]} (signed as game 2 of 3) is missing" in p for p in probs)
    probs = _problems(_forged(tmp_path, signed, [games[1], games[0], games[2]], "moved.arrows"))
    assert any("another order than signed" in p for p in probs)
    other = next(iter(simulate("keng", 1, seed=99))).events        # another legal game …
    replaced = [e._replace(game_id=gid[2]) for e in other]          # … under the same id
    probs = _problems(_forged(tmp_path, signed, [games[0], games[1], replaced], "repl.arrows"))
    assert any(f"game {gid[2]} is not the game signed (events, final digest" in p or
               f"game {gid[2]} is not the game signed (final digest" in p for p in probs)


def test_a_stripped_or_resigned_file_is_unsigned_or_names_the_other_key(games, tmp_path):
    resealed = tmp_path / "resealed.arrows"
    write_log(resealed, games)                                   # the signature left off
    assert read_log(resealed).signature is None
    resigned = tmp_path / "resigned.arrows"
    write_log(resigned, games, signer=OTHER)
    sig = read_log(resigned).signature
    assert sig.ok and sig.key_id == key_id(public_bytes(OTHER)) != key_id(public_bytes(KEY))


def test_a_rewritten_manifest_does_not_verify(signed, tmp_path):
    data = bytearray(signed.read_bytes())
    i = data.rfind(b'"games":[["') + 11
    data[i] ^= 1                                                  # one letter of a game id
    bad = tmp_path / "manifest.arrows"
    bad.write_bytes(bytes(data))
    sig = read_log(bad).signature
    assert sig is not None and not sig.valid
    assert any("does not verify" in p for p in sig.problems)


def test_a_damaged_signature_block_is_a_file_problem(signed, tmp_path):
    data = signed.read_bytes()
    bad = tmp_path / "block.arrows"
    bad.write_bytes(data[:-16] + struct.pack("<Q", 7) + data[-8:])     # an impossible length
    log = read_log(bad)
    assert any(p.code == "bad_signature" for p in log.problems) and not log.ok
