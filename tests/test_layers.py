"""The architecture contract's one direction (DESIGN.md): dashboards may import warehouse and
engine; warehouse may import engine; ingest imports engine and warehouse; engine imports none
of them. Checked on every module's imports, also those inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {
    "engine": {"engine"},
    "warehouse": {"warehouse", "engine"},
    "ingest": {"ingest", "engine", "warehouse"},
    "dashboards": {"dashboards", "warehouse", "engine"},
}
OURS = {"engine", "warehouse", "ingest", "dashboards", "liujia"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out & OURS


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_no_back_edges(layer):
    bad = {str(p.relative_to(ROOT)): sorted(_imports(p) - ALLOWED[layer])
           for p in (ROOT / layer).rglob("*.py")}
    assert {k: v for k, v in bad.items() if v} == {}
