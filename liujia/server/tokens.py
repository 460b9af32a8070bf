"""Bearer tokens of the game servers allowed to record: a file of ``name:token`` lines
(``name:token:admin`` for an admin token, which may also read every game and the recovery
report)."""

from __future__ import annotations

import hmac
import os
import re
import secrets
from pathlib import Path

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,256}")


class TokenProblem(ValueError):
    """A tokens file that cannot be read or written (the message says where and why)."""


def read_tokens(path: str | os.PathLike[str]) -> dict[str, str]:
    """The name → token map of a tokens file (blank lines and ``#`` comments allowed)."""
    return {name: token for name, (token, _) in _read(path).items()}


def read_admins(path: str | os.PathLike[str]) -> set[str]:
    """The names of a tokens file's admin tokens."""
    return {name for name, (_, admin) in _read(path).items() if admin}


def _read(path: str | os.PathLike[str]) -> dict[str, tuple[str, bool]]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TokenProblem(f"{p}: no such tokens file (make one with `liujia record-server "
                           f"--tokens {p} --new-token NAME`)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TokenProblem(f"{p}: cannot be read ({getattr(exc, 'strerror', None) or exc})") \
            from None
    out: dict[str, tuple[str, bool]] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, token = line.partition(":")
        token, _, role = token.partition(":")
        if not sep or not NAME.fullmatch(name) or not TOKEN.fullmatch(token) or \
                role not in ("", "admin"):
            raise TokenProblem(f"{p}:{n}: not a 'name:token' or 'name:token:admin' line (a "
                               "name of letters, digits, '_', '.', '-'; a token of 16-256 "
                               "URL-safe characters)")
        if name in out:
            raise TokenProblem(f"{p}:{n}: the name {name} appears twice")
        out[name] = (token, role == "admin")
    return out


def new_token(path: str | os.PathLike[str], name: str, admin: bool = False) -> str:
    """Append a fresh token for game server ``name`` (an admin token if ``admin``) to the
    tokens file (created mode 0600) and return it."""
    if not NAME.fullmatch(name):
        raise TokenProblem(f"{name!r} is not a name (letters, digits, '_', '.', '-'; at most 64; "
                           "starting with a letter or digit)")
    p = Path(path)
    if p.exists() and name in read_tokens(p):
        raise TokenProblem(f"{p}: {name} has a token already")
    token = secrets.token_urlsafe(32)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as f:
        f.write(f"{name}:{token}{':admin' if admin else ''}\n")
        f.flush()
        os.fsync(f.fileno())
    return token


def who(tokens: dict[str, str], header: str | None) -> str | None:
    """The name of the game server whose token an ``Authorization: Bearer …`` header holds,
    or None (every token compared in constant time)."""
    if not header:
        return None
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer" or not given:
        return None
    found = None
    for name, token in tokens.items():
        if hmac.compare_digest(token.encode(), given.strip().encode()):
            found = name
    return found
