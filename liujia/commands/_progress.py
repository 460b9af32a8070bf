"""Progress of a long command on a terminal: a tqdm bar on stderr (never stdout, so text and
``--json`` output stay as they are), shown only when stderr is a terminal and the command was
not given ``-q/--quiet``; as ``liujia ingest``, ``validate`` and ``review`` do."""

from __future__ import annotations

import sys
from typing import Any


def on_terminal() -> bool:
    """Whether stderr is a terminal (a closed or replaced stream without isatty: no)."""
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def bar(quiet: bool, **options: Any) -> Any:
    """A tqdm bar on stderr that disappears when closed (tqdm's ``options``: total, unit,
    desc, …), or None when quiet or stderr is no terminal (then nothing is printed, and no
    tqdm, which starts a monitor thread, is made)."""
    if quiet or not on_terminal():
        return None
    from tqdm import tqdm
    return tqdm(file=sys.stderr, leave=False, **options)
