"""The files of the recording service's data folder, opened relative to a descriptor of their
folder and never through a symbolic link (``O_NOFOLLOW``; ``O_EXCL`` for a new file): a link
planted in ``live/`` or ``sealed/`` could otherwise make the service cut, read or overwrite a
file elsewhere. A data folder holding links is refused at start (``DataProblem``)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from engine.log import LOG_SUFFIX

LIVE_SUFFIX = ".jsonl.live"          # not a log name: `liujia ingest DATA` passes them over
TMP_SUFFIX = ".arrows.tmp"
OWNERS = ".owners"                  # sealed/.owners: one {"game_id", "owner"} line per seal
NOFOLLOW = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class DataProblem(Exception):
    """A data folder the service refuses to use (the message, one line, says where and why)."""



def write_all(fd: int, data: bytes) -> None:
    """Write every byte (os.write may write fewer)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def create(dir_fd: int, name: str, text: bytes) -> int:
    """Create a new append log holding ``text`` in the folder ``dir_fd``, on disk (file and
    folder entry) before it returns its descriptor."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | NOFOLLOW, 0o644,
                 dir_fd=dir_fd)
    try:
        write_all(fd, text)
        os.fsync(fd)
    except OSError:
        os.close(fd)
        os.unlink(name, dir_fd=dir_fd)
        raise
    os.fsync(dir_fd)
    return fd


def folder(data: Path, name: str) -> int:
    """A descriptor of the data folder's sub-folder ``name`` (made if missing), refused if it
    is a link or no folder."""
    path = data / name
    try:
        data.mkdir(parents=True, exist_ok=True)
        top = os.open(data, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise DataProblem(f"{data}: cannot open the data folder ({exc.strerror or exc})") \
            from None
    try:
        try:
            os.mkdir(name, dir_fd=top)
        except FileExistsError:
            pass
        if stat.S_ISLNK(os.lstat(name, dir_fd=top).st_mode):
            raise DataProblem(f"{path}: a symbolic link (to {os.readlink(name, dir_fd=top)}); "
                              "the data folder's live/ and sealed/ must be folders, not links")
        return os.open(name, os.O_RDONLY | os.O_DIRECTORY | NOFOLLOW, dir_fd=top)
    except OSError as exc:
        raise DataProblem(f"{path}: cannot open ({exc.strerror or exc})") from None
    finally:
        os.close(top)


def entries(folder: Path, dir_fd: int) -> list[str]:
    """The sorted names in a data sub-folder; a DataProblem for a symbolic link among them
    (the service writes only files it made) or an entry of the service's that is no file."""
    names = sorted(os.listdir(dir_fd))
    for name in names:
        st = os.lstat(name, dir_fd=dir_fd)
        if stat.S_ISLNK(st.st_mode):
            raise DataProblem(f"{folder / name}: a symbolic link (to "
                              f"{os.readlink(name, dir_fd=dir_fd)}); the data folder holds only "
                              "the files the service made: remove the link and start again")
        ours = name == OWNERS or LIVE_SUFFIX in name or TMP_SUFFIX in name or \
            name.endswith(LOG_SUFFIX)
        if ours and not stat.S_ISREG(st.st_mode):
            raise DataProblem(f"{folder / name}: not a regular file; the data folder holds only "
                              "the files the service made: remove it and start again")
    return names


def read_all(dir_fd: int, name: str) -> bytes:
    """The bytes of a regular file of a data sub-folder (a link is not followed)."""
    fd = os.open(name, os.O_RDONLY | NOFOLLOW, dir_fd=dir_fd)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def keep_cut(dir_fd: int, name: str, data: bytes) -> str:
    """Keep the bytes cut from an append log in a new file (``name``, else ``name.2``, …);
    returns its name."""
    for k in range(1, 1000):
        cand = name if k == 1 else f"{name}.{k}"
        try:
            fd = os.open(cand, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644,
                         dir_fd=dir_fd)
        except FileExistsError:
            continue
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        return cand
    raise DataProblem(f"{name}: too many files of bytes cut under this name")


def note_owner(dir_fd: int, gid: str, owner: str) -> None:
    """Add a sealed game's owner to ``sealed/.owners`` (fsync'ed before the seal is named)."""
    fd = os.open(OWNERS, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o644,
                 dir_fd=dir_fd)
    try:
        write_all(fd, (json.dumps({"game_id": gid, "owner": owner}) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def read_owners(dir_fd: int) -> dict[str, str]:
    """The owner of each sealed game, from ``sealed/.owners`` (a torn last line is skipped)."""
    out: dict[str, str] = {}
    for line in read_all(dir_fd, OWNERS).splitlines():
        try:
            obj = json.loads(line)
            out[str(obj["game_id"])] = str(obj["owner"])
        except (ValueError, KeyError, TypeError):
            continue
    return out
