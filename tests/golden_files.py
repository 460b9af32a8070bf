"""Writing golden playthrough files, shared by every game's ``tests/games/<package>/golden.py``
(their ``CASES`` and ``playthrough`` are checked by tests/engine/test_conformance_data.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def write_golden(here: Path, cases: dict[str, tuple[Any, ...]],
                 playthrough: Callable[..., str]) -> None:
    """Write every case's playthrough to its file under ``here``."""
    here.mkdir(exist_ok=True)
    for name, case in cases.items():
        (here / name).write_text(playthrough(*case), encoding="utf-8")
        print(f"wrote {here / name}")
