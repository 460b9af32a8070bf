"""Identifiers: game, session and player ids have one documented alphabet and length.

An id is 1 to ``MAX_ID_LENGTH`` characters of ASCII letters and digits and ``. _ - : @ +``,
beginning with a letter or a digit. Ids are written by strangers (any log is untrusted) and are
shown by every layer — terminals, the dashboard, file names of exports — so they may hold no
space, no control or format character (a right-to-left override makes ``p52enil exe.png``
look like something else), no Markdown or HTML punctuation (backticks, brackets, ``<``) and no
path separator. The engine refuses a ``GAME_START`` whose ids are not ids (docs/log-format.md).
"""

from __future__ import annotations

import re
from typing import Any

MAX_ID_LENGTH = 64
ID_CHARS = "A-Z a-z 0-9 . _ - : @ +"
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+-]*")
SHOWN_LENGTH = 40          # how much of a bad id an error message quotes
_ALLOWED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:@+-")
_RULE = (f"ids are 1-{MAX_ID_LENGTH} characters of {ID_CHARS}, beginning with a letter or "
         "digit")


def id_problem(value: Any) -> str | None:
    """Why a value is not an id ('' never is), or None when it is one."""
    if not isinstance(value, str):
        return f"must be a string, got {type(value).__name__}"
    if not value:
        return "is empty"
    if len(value) > MAX_ID_LENGTH:
        return f"has {len(value)} characters, more than {MAX_ID_LENGTH}"
    bad = next((c for c in value if c not in _ALLOWED), None)
    if bad is not None:
        return f"holds {shown_char(bad)}: {_RULE}"
    if not value[0].isalnum():
        return f"begins with {shown_char(value[0])}: {_RULE}"
    return None


def is_id(value: Any) -> bool:
    """True if the value is a valid id."""
    return isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH \
        and ID_RE.fullmatch(value) is not None


def shown_char(c: str) -> str:
    """One character as an error message names it: 'a backtick (U+0060)'."""
    return f"{c!r} (U+{ord(c):04X})" if c.isprintable() and c.isascii() else f"U+{ord(c):04X}"


def shown_id(value: Any) -> str:
    """An untrusted id as an error message may quote it: escaped (repr with every non-ASCII
    or control character as an escape) and cut to ``SHOWN_LENGTH`` characters."""
    text = value if isinstance(value, str) else str(value)
    cut = text[:SHOWN_LENGTH]
    return ascii(cut) + ("…" if len(text) > SHOWN_LENGTH else "")
