"""`.ci/run`'s per-file progress (tests/ci_progress.py): a line per test file as it finishes,
with the run's elapsed time, the file, its tests and their time."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_line_per_test_file(tmp_path):
    (tmp_path / "test_a.py").write_text("def test_1():\n    pass\n\ndef test_2():\n    pass\n")
    (tmp_path / "test_b.py").write_text("import time\n\ndef test_3():\n    time.sleep(0.2)\n")
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p",
                          "tests.ci_progress", "-q", "-o", "addopts=", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120).stdout
    lines = dict(re.findall(r"\[\s*\d+ s\] \S*(test_[ab]\.py): (\d+ tests), [\d.]+ s", out))
    assert lines == {"test_a.py": "2 tests", "test_b.py": "1 tests"}, out
    took = float(re.search(r"test_b\.py: 1 tests, ([\d.]+) s", out).group(1))
    assert took >= 0.2
