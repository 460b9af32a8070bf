"""The recorder keys and the trusted keys of this machine (``liujia keys``).

Kept under ``$LIUJIA_HOME`` (default ``$XDG_CONFIG_HOME/liujia``, else ``~/.config/liujia``):
``keys/NAME.pem`` an Ed25519 private key (PKCS #8 PEM, mode 0600) that signs logs, and
``trusted/NAME.pub`` a trusted public key (64 hex digits). A key made here is trusted here.
A signature names its key by id (``engine.signing.key_id``); whether a log's key is trusted is
whether its public key is among the trusted ones.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.signing import key_id, public_bytes

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class KeyProblem(ValueError):
    """A key that cannot be made, found or read (the message says which and why)."""


def home() -> Path:
    """The folder of liujia's keys."""
    if os.environ.get("LIUJIA_HOME"):
        return Path(os.environ["LIUJIA_HOME"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "liujia"


def check_name(name: str) -> str:
    """A key name: letters, digits, '_', '.', '-', at most 64, not starting with a sign."""
    if not NAME.fullmatch(name):
        raise KeyProblem(f"{name!r} is not a key name (letters, digits, '_', '.', '-'; at most "
                        "64; starting with a letter or digit)")
    return name


def _write_new(path: Path, data: bytes, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, mode)
    except FileExistsError:
        raise KeyProblem(f"{path} exists already") from None
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def new_key(name: str) -> str:
    """Make a new recorder key NAME (and trust it); returns its public key in hex."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    check_name(name)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    _write_new(home() / "keys" / f"{name}.pem", pem, 0o600)
    public = public_bytes(key).hex()
    trust(name, public)
    return public


def load_key(name: str) -> Any:
    """The private key NAME, for signing."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    path = home() / "keys" / f"{check_name(name)}.pem"
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except FileNotFoundError:
        raise KeyProblem(f"no key {name!r} (make one with `liujia keys new {name}`)") from None
    except (OSError, ValueError, TypeError) as exc:
        raise KeyProblem(f"{path} cannot be read as a key ({type(exc).__name__})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyProblem(f"{path} is not an Ed25519 key")
    return key


def parse_public(text: str) -> bytes:
    """A public key from its 64 hex digits."""
    t = text.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{64}", t):
        raise KeyProblem("a public key is 64 hex digits (as `liujia keys list` shows it)")
    return bytes.fromhex(t)


def trust(name: str, public_hex: str) -> str:
    """Trust a public key under NAME; returns its key id."""
    public = parse_public(public_hex)
    check_name(name)
    path = home() / "trusted" / f"{name}.pub"
    if path.exists():
        if parse_public(path.read_text(encoding="ascii", errors="replace")) == public:
            return key_id(public)
        raise KeyProblem(f"a different key is trusted as {name!r} already")
    _write_new(path, public.hex().encode() + b"\n", 0o644)
    return key_id(public)


@dataclass(frozen=True)
class KnownKey:
    """A key this machine knows: its name, id, public key (hex), and whether it can sign."""

    name: str
    key_id: str
    public: str
    private: bool


def known_keys() -> list[KnownKey]:
    """Every trusted key (sorted by name), marked when this machine holds its private key."""
    out = []
    own = {p.stem for p in (home() / "keys").glob("*.pem")}
    for p in sorted((home() / "trusted").glob("*.pub")):
        try:
            public = parse_public(p.read_text(encoding="ascii", errors="replace"))
        except (OSError, KeyProblem):
            continue
        out.append(KnownKey(p.stem, key_id(public), public.hex(), p.stem in own))
    return out


def trusted_ids() -> dict[str, str]:
    """Key id → name of every trusted key."""
    return {k.key_id: k.name for k in known_keys()}
