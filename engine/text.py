"""Untrusted text made safe for a terminal or JSON output: whatever a log holds (game ids,
player ids, payload text, reasons quoting them) and every file name must not be able to
clear the auditor's screen, recolour it, set the window title or hide text behind a
right-to-left override (``liujia`` commands and the audit reports print through these)."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

# Unicode categories a terminal may act on or that do not show: controls (C0, DEL, C1, so
# ESC sequences), format characters (bidi overrides and isolates U+202A-202E and U+2066-2069,
# zero-width characters, the BOM, tag characters), lone surrogates (undecodable bytes of a
# file name), unassigned code points (future format characters) and line/paragraph separators.
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn", "Zl", "Zp"})


def _unsafe(c: str) -> bool:
    return unicodedata.category(c) in ESCAPED_CATEGORIES


def _text_escape(c: str) -> str:
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def _json_escape(c: str) -> str:
    n = ord(c)
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"


def safe_text(text: object) -> str:
    """Untrusted text for a terminal, on one line: every control, format, separator,
    surrogate or unassigned character written as a Python-style escape (``\\x1b``,
    ``\\u202e``); letters, CJK, card suits and spaces unchanged."""
    s = text if isinstance(text, str) else str(text)
    if s.isprintable():
        return s
    return "".join(_text_escape(c) if _unsafe(c) else c for c in s)


def safe_lines(text: str) -> str:
    """Multi-line text (a rendered table) for a terminal: each line as ``safe_text``."""
    return "\n".join(map(safe_text, text.split("\n")))


def safe_json(obj: Any, indent: int | None = None) -> str:
    """JSON text of obj (non-ASCII text kept readable) in which no character reaches the
    terminal raw that it could act on: those are ``\\uXXXX`` escapes (json.dumps leaves DEL,
    C1 controls, bidi and other format characters and lone surrogates raw)."""
    text = json.dumps(obj, ensure_ascii=False, indent=indent)
    lines = text.split("\n")          # raw newlines are only the indent's: strings escape them
    return "\n".join(line if line.isprintable() else
                     "".join(_json_escape(c) if _unsafe(c) else c for c in line)
                     for line in lines)


