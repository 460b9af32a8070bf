"""The audit report's CJK font (engine/audit/fonts/liujia-cjk-audit.woff2): a glyph for every
CJK character of the rules files it quotes and of the engine's modules, embedded in every
report (``liujia audit --html`` and the dashboard's Audit page) as a face limited to CJK code
points that leads the report's font stack, its licence beside it and shipped in the package.

A rules file or an engine module gaining a Chinese character without a rebuild of the subset
(``tools/font_subset.py --audit``, engine/audit/fonts/README.md) fails the first test, naming
the characters."""

from __future__ import annotations

import base64
import importlib.util
import re
import tomllib
from pathlib import Path

from fontTools.ttLib import TTFont

from engine.audit import html

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("font_subset", ROOT / "tools" / "font_subset.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_cjk_character_a_report_can_show_has_a_glyph():
    tool = _tool()
    sources = tool.audit_sources()
    assert any(p.name == "keng.md" for p in sources) and any(p.name == "report.py" for p in sources)
    chars = tool.cjk_chars(sources)
    with TTFont(str(html.FONT)) as font:
        cmap = font.getBestCmap()
    lost = sorted(c for c in chars if ord(c) not in cmap)
    assert not lost, (f"no glyph in {html.FONT.name} for {''.join(lost)}: rebuild it with "
                      "tools/font_subset.py --audit (engine/audit/fonts/README.md)")
    assert len(chars) > 400 and "够" in chars and "坑" in chars


def test_the_report_embeds_it_first_in_its_stack_for_cjk_only():
    css = html.font_css()
    (data,) = re.findall(r"base64,([A-Za-z0-9+/=]+)", css)
    assert base64.b64decode(data) == html.FONT.read_bytes()
    assert f'font-family:"{html.FONT_FAMILY}"' in css and f"unicode-range:{html.CJK_RANGE}" in css
    assert html.CSS.lstrip().startswith(f'.lj-audit{{font-family:"{html.FONT_FAMILY}",')


def test_a_whole_report_carries_the_font(tmp_path):
    from engine.audit.report import build_report
    from engine.sim import simulate
    events = next(iter(simulate("keng", 1, 3))).events
    page = html.report_html(build_report(events, seq=len(events) // 2))
    assert page.count("@font-face") == 1 and html.FONT_FAMILY in page
    assert "http://" not in page and "https://" not in page


def test_it_is_small_licensed_and_shipped():
    assert 50_000 < html.FONT.stat().st_size < 200_000
    folder = html.FONT.parent
    assert "SIL OPEN FONT LICENSE" in (folder / "OFL.txt").read_text(encoding="utf-8").upper()
    assert "tools/font_subset.py" in (folder / "README.md").read_text(encoding="utf-8")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]["engine"]
    assert {"audit/fonts/*.woff2", "audit/fonts/OFL.txt", "audit/fonts/README.md"} <= set(shipped)
