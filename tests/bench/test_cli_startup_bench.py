"""How long a ``liujia`` command takes to answer from a fresh process (issue 26: target ≤ 0.3 s
for ``--version``, ``--help`` and ``rules``). Each case runs the installed entry point as a
user would; the median is the figure (docs/performance.md, "Command start").

Run: ``.venv/bin/pytest tests/bench/test_cli_startup_bench.py --benchmark-enable``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LIUJIA = Path(sys.executable).with_name("liujia")
CASES = {"version": ["--version"], "help": ["--help"], "rules": ["rules", "KENG-1"]}


@pytest.mark.parametrize("case", sorted(CASES))
def test_command_start(benchmark, case):
    """One fresh `liujia` process answering the command (exit 0)."""
    args = [str(LIUJIA), *CASES[case]]
    env = {k: v for k, v in os.environ.items() if k != "LIUJIA_GAMES"}   # the shipped games

    def once() -> None:
        out = subprocess.run(args, capture_output=True, timeout=60, env=env)
        assert out.returncode == 0, out.stderr

    benchmark.pedantic(once, rounds=7, warmup_rounds=1)
    benchmark.extra_info["target_s"] = 0.3
