"""Benchmarks run apart from the pass/fail suite: ``pytest tests/bench --benchmark-enable``.

In the ordinary run (``--benchmark-disable`` in pyproject.toml) they are skipped, so their
large fixtures are never built there.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip every benchmark unless --benchmark-enable was given."""
    if config.getoption("benchmark_enable", default=False):
        return
    skip = pytest.mark.skip(reason="benchmark: run with 'pytest tests/bench --benchmark-enable'")
    for item in items:
        if "tests/bench/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)
