"""The recording service's restart: what its process imports, its recovery of many open games
(docs/record-server.md, "Limits"; the timing is a benchmark, tests/bench/record_restart.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_one_command_imports_only_what_it_needs():
    code = ("import sys\nfrom liujia.cli import main\n"
            "try:\n    main(['record-server', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('pandas', 'duckdb', 'streamlit', 'warehouse') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert "record-server" in out and out.strip().endswith("[]"), out
