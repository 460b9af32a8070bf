"""A pytest plugin `.ci/run` loads (``-p tests.ci_progress``): one line per test file as it
finishes — the run's elapsed time, the file, its tests and their time — so that a slow run can
be told from a hung one (the dots alone stand still for minutes). With pytest-xdist's
``--dist loadfile`` each file runs whole on one worker: a worker's file is done when that
worker reports a test of another file, or when the run ends."""

from __future__ import annotations

import time
from typing import Any

import pytest


class FileProgress:
    """Per worker: the file under way, its tests so far and their time."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.start = time.monotonic()
        self.current: dict[str, tuple[str, int, float]] = {}

    def _say(self, path: str, tests: int, seconds: float) -> None:
        tr = self.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            tr.ensure_newline()
            tr.write_line(f"[{time.monotonic() - self.start:6.0f} s] {path}: {tests} tests, "
                          f"{seconds:.1f} s")

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Add a test's phase to its file's time (a teardown counts the test); a worker
        starting another file finishes its last one."""
        node: Any = getattr(report, "node", None)
        worker = getattr(getattr(node, "gateway", None), "id", "main")
        path = report.nodeid.split("::")[0]
        last = self.current.get(worker)
        if last is not None and last[0] != path:
            self._say(*last)
            last = None
        tests, seconds = (last[1], last[2]) if last else (0, 0.0)
        self.current[worker] = (path, tests + (report.when == "teardown"),
                                seconds + report.duration)

    @pytest.hookimpl
    def pytest_sessionfinish(self) -> None:
        """The last file of each worker."""
        for last in self.current.values():
            self._say(*last)
        self.current.clear()


def pytest_configure(config: pytest.Config) -> None:
    """Register the per-file progress (in the controller only, not in xdist workers)."""
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(FileProgress(config), "liujia-file-progress")
