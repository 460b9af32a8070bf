"""Permission denied without a non-root user: patch the calls that reach the file system so
that folders and files act as after ``chmod 000`` for an ordinary user (root ignores modes).

A locked folder can be stat'ed (it is listed in its parent) but not listed or opened, and
nothing below it can be stat'ed or opened; a locked file can be stat'ed but not opened. Used
in-process (``install(..., monkeypatch.setattr)``) and in a subprocess running the real CLI
(``python -c`` with ``BOOT``)."""

from __future__ import annotations

import builtins
import errno
import io
import os
from collections.abc import Callable, Sequence
from typing import Any

# python -c BOOT FOLDERS_JSON FILES_JSON liujia-arguments...
BOOT = ("import json, sys; from tests.cli._deny import install; "
        "install(json.loads(sys.argv[1]), json.loads(sys.argv[2])); "
        "from liujia.cli import main; sys.exit(main(sys.argv[3:]))")


def install(folders: Sequence[str], files: Sequence[str] = (),
            setattr_: Callable[[Any, str, Any], None] = setattr) -> None:
    """Deny access to the folders (and all below them) and to the files."""
    folders = [os.path.abspath(f) for f in folders if f]
    files = [os.path.abspath(f) for f in files if f]

    def norm(path: Any) -> str | None:
        if isinstance(path, int):
            return None
        try:
            return os.path.abspath(os.fsdecode(path))
        except TypeError:
            return None

    def below(p: str | None) -> bool:
        return p is not None and any(p.startswith(f + os.sep) for f in folders)

    def closed(p: str | None) -> bool:
        return p is not None and (below(p) or p in folders or p in files)

    def denied(path: Any) -> PermissionError:
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

    def guard(fn: Callable[..., Any], test: Callable[[str | None], bool]) -> Callable[..., Any]:
        def wrapped(path: Any = ".", *args: Any, **kw: Any) -> Any:
            if test(norm(path)):
                raise denied(path)
            return fn(path, *args, **kw)
        return wrapped

    for name in ("stat", "lstat"):
        setattr_(os, name, guard(getattr(os, name), below))
    for name in ("scandir", "listdir", "open"):
        setattr_(os, name, guard(getattr(os, name), closed))
    setattr_(builtins, "open", guard(builtins.open, closed))
    setattr_(io, "open", guard(io.open, closed))
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover
        return
    for name in ("memory_map", "OSFile"):
        setattr_(pa, name, guard(getattr(pa, name), closed))
