"""``liujia.client`` needs only the standard library (issue 24): imported by an interpreter
that sees no site-packages at all, it loads no module outside the standard library and makes
the wire form of an event given as a dict."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from liujia.client import RecordClient, Refused, to_wire
std = set(sys.stdlib_module_names)
outside = sorted({m.split('.')[0] for m in sys.modules} - std - {'liujia', '__main__'})
wire = to_wire({"kind": "PLAY", "seat": 2, "cards": ["Th"]})
print(json.dumps({"outside": outside, "wire": wire, "client": RecordClient.__name__}))
"""


def test_the_client_imports_with_the_standard_library_alone():
    r = subprocess.run([sys.executable, "-I", "-S", "-c", PROBE, str(ROOT)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["outside"] == []
    assert got["wire"] == {"kind": "PLAY", "seat": 2, "cards": ["Th"]}
    assert got["client"] == "RecordClient"


def test_the_probe_would_see_a_third_party_import():
    """The isolated interpreter really has no site-packages: pyarrow cannot be imported."""
    r = subprocess.run([sys.executable, "-I", "-S", "-c", "import pyarrow"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "ModuleNotFoundError" in r.stderr
