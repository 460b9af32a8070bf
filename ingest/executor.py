"""Where per-file work runs: this process, a local pool of worker processes (``-j``), or a Dask
cluster (``--scheduler tcp://HOST:PORT`` or ``$LIUJIA_SCHEDULER``) through its
``concurrent.futures`` interface (``Client.get_executor()``), so that the same code reads,
verifies and replays files on one machine or many (docs/cluster.md).

What a worker runs is the engine code of this liujia: each task carries this liujia's code
version (``code_version``), and a worker whose code differs refuses the task
(``WrongVersion``) instead of answering with other rules. A scheduler address that is not on
this machine must use TLS (``tls://``) unless the caller allows an insecure cluster: the
tasks and results travel in the clear otherwise. ``distributed`` is an optional dependency
(``pip install 'liujia[cluster]'``); without it, only a scheduler address is refused.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import ipaddress
import os
import socket
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

SCHEDULER_ENV = "LIUJIA_SCHEDULER"
CONNECT_TIMEOUT = "10s"
_PACKAGES = ("engine", "ingest")          # the code a worker runs for a file
_MODULES = ("liujia/commands/validate.py",)   # and the rows `liujia validate` has it make
T = TypeVar("T")


class ClusterError(RuntimeError):
    """A cluster that cannot be used (the message says why and what to do)."""


class WrongVersion(ClusterError):
    """A worker runs another liujia than the one that sent the task."""


@functools.cache
def code_version() -> str:
    """A digest of the engine and ingest code of this liujia (every .py file and every
    shipped rules text) and of the validate command's rows, so that two installs agree only
    when they run the same rules and report them alike."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    paths = [p for package in _PACKAGES for p in sorted((root / package).rglob("*"))
             if p.suffix in (".py", ".md") and "__pycache__" not in p.parts]
    for path in [*paths, *(root / m for m in _MODULES)]:
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def on_worker(version: str, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` on a worker if it runs the same code as the sender, else refuse."""
    mine = code_version()
    if mine != version:
        raise WrongVersion(f"a worker runs liujia code {mine}, this liujia is {version}: "
                           "install the same liujia on every worker")
    return fn(*args)


def scheduler_address(given: str | None) -> str | None:
    """The scheduler asked for: ``--scheduler``, else ``$LIUJIA_SCHEDULER``, else None."""
    return given or os.environ.get(SCHEDULER_ENV) or None


def _is_loopback(host: str) -> bool:
    """True if every address the host name stands for is on this machine."""
    if host in ("localhost", ""):
        return True
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)


def check_address(address: str, allow_insecure: bool = False) -> None:
    """Refuse a scheduler address that is malformed, or not on this machine and not TLS
    (unless ``allow_insecure``): ClusterError naming why."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("tcp", "tls") or not parts.hostname or parts.port is None:
        raise ClusterError(f"scheduler {address!r}: not tcp://HOST:PORT or tls://HOST:PORT")
    if parts.scheme == "tcp" and not _is_loopback(parts.hostname) and not allow_insecure:
        raise ClusterError(
            f"scheduler {address!r} is not on this machine and not TLS: tasks and results "
            "would travel in the clear; use tls:// with Dask's TLS settings (docs/cluster.md) "
            "or pass --allow-insecure-cluster")


@contextlib.contextmanager
def cluster_executor(address: str, allow_insecure: bool = False
                     ) -> Iterator[tuple[Executor, int]]:
    """A ``concurrent.futures`` executor on the Dask cluster at ``address`` and the number of
    worker threads it has (the client is closed on exit; the cluster is left running)."""
    check_address(address, allow_insecure)
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("a scheduler was given but Dask distributed is not installed: "
                           "pip install 'liujia[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"scheduler {address}: cannot connect ({exc})") from None
    try:
        threads = sum(w.get("nthreads", 1) for w in
                      client.scheduler_info().get("workers", {}).values())
        if threads < 1:
            raise ClusterError(f"scheduler {address}: no worker is connected")
        yield client.get_executor(), threads
    finally:
        client.close()


def submit(ex: Executor, fn: Callable[..., T], *args: Any) -> Any:
    """``ex.submit(fn, *args)`` with this liujia's code version carried along."""
    return ex.submit(on_worker, code_version(), fn, *args)
