"""The shipped CJK font (dashboards/static/liujia-cjk.woff2): a glyph for every CJK character
the dashboard can show, a fallback after the normal fonts, licence beside it, shipped in the
package, loaded by every page, and no fontTools at run time.

Adding a Chinese label to the dashboard or the engine without rebuilding the subset
(``tools/font_subset.py``) makes ``test_every_cjk_character_the_dashboard_can_show_has_a_glyph``
fail, naming the characters.
"""

from __future__ import annotations

import base64
import fnmatch
import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from streamlit.testing.v1 import AppTest

from dashboards import ui
from engine.games import BUILT_IN, GAMES, find_game

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "dashboards" / "static"


def _tool():
    """tools/font_subset.py as a module (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("font_subset", ROOT / "tools" / "font_subset.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool():
    return _tool()


@pytest.fixture(scope="module")
def sources(tool):
    """The files whose text the dashboard can show (one probe of the imports)."""
    return tool.ui_sources()


@pytest.fixture(scope="module")
def cmap():
    with TTFont(str(ui.CJK_FONT)) as font:
        return font.getBestCmap()


def test_every_cjk_character_the_dashboard_can_show_has_a_glyph(tool, sources, cmap):
    chars = tool.cjk_chars(sources)
    lost = sorted(c for c in chars if ord(c) not in cmap)
    where = {c: [str(p.relative_to(ROOT)) for p in sources if c in p.read_text("utf-8")][:3]
             for c in lost}
    assert not lost, (f"no glyph in {ui.CJK_FONT.name} for {''.join(lost)} ({where}): rebuild "
                      "it with tools/font_subset.py (dashboards/static/README.md)")


def test_the_sources_are_the_dashboard_and_what_it_shows_of_the_engine(sources):
    rel = {str(p.relative_to(ROOT)) for p in sources}
    # the pages and renderers, the modules they import, every game package (also the parts
    # loaded lazily, such as the decisions), ingest (quarantine reasons); no third-party code
    for name in ("dashboards/app.py", "dashboards/views/replay.py", "dashboards/table.py",
                 "warehouse/tendencies.py", "engine/cards.py", "ingest/__init__.py"):
        assert name in rel, name
    for game in BUILT_IN:           # the shipped games (a plug-in falls back to system fonts)
        package = GAMES[game].partition(":")[0].replace(".", "/")
        assert f"{package}/__init__.py" in rel and f"{package}/decisions.py" in rel, package
    assert all(p.is_relative_to(ROOT) and "site-packages" not in p.parts for p in sources)
    assert not any(r.startswith(("tests/", "tools/", ".")) for r in rel), rel


def test_game_names_and_table_labels_have_glyphs(tool, sources, cmap):
    chars = tool.cjk_chars(sources)
    # the CJK characters of the titles (六人斗地主 (三打三): the Latin part is in the subset's EXTRA)
    titles = "".join(tool.CJK.findall("".join(find_game(g).TITLE for g in BUILT_IN)))
    labels = "六人坑够级摸到爽对门头客拉客让牌烧牌宣点开点会五收到爽点炮大王小王抢"
    for c in titles + labels:
        assert c in chars and ord(c) in cmap, c


def test_a_new_label_is_found_and_reported_missing(tool, tmp_path):
    page = tmp_path / "page.py"
    page.write_text('LABEL = "六人坑 · 龘"  # a label the subset lacks\n', encoding="utf-8")
    found = tool.cjk_chars([page])
    assert found == set("六人坑龘")
    assert tool.missing(ui.CJK_FONT, found) == ["龘"]


def test_the_subset_is_small_holds_latin_and_suits_and_keeps_its_licence(cmap):
    assert 10_000 < ui.CJK_FONT.stat().st_size < 100_000
    for c in "AZaz09 ♠♥♣♦éß":
        assert ord(c) in cmap, c
    with TTFont(str(ui.CJK_FONT)) as font:
        names = font["name"]
        assert font.flavor == "woff2"
        assert names.getDebugName(1) == "Noto Sans CJK SC"      # no Reserved Font Name
        assert "Source" not in names.getDebugName(1)
        assert "Open Font License" in names.getDebugName(13)
        assert "Adobe" in names.getDebugName(0)
    ofl = (STATIC / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in ofl and "Reserved Font Name 'Source'" in ofl
    readme = (STATIC / "README.md").read_text(encoding="utf-8")
    assert "Noto Sans CJK SC" in readme and "tools/font_subset.py" in readme


def test_the_builder_cuts_exactly_the_characters_asked_for(tool, tmp_path):
    out = tool.subset(ui.CJK_FONT, "六人坑A♠", tmp_path / "cut.woff2")
    with TTFont(str(out)) as font:
        assert set(font.getBestCmap()) == set(map(ord, "六人坑A♠"))
        assert font.flavor == "woff2"
        assert "Open Font License" in font["name"].getDebugName(13)


def test_font_css_embeds_the_file_as_fallback_faces():
    css = ui.font_css()
    assert css.startswith("<style>") and css.endswith("</style>")
    data = re.findall(r"base64,([A-Za-z0-9+/=]+)\)", css)
    assert data and all(base64.b64decode(d) == ui.CJK_FONT.read_bytes() for d in data)
    # every face limited to CJK code points: all other text keeps its font
    assert (f'@font-face{{font-family:"{ui.CJK_FAMILY}";font-style:normal;font-weight:400;'
            f"unicode-range:{ui.CJK_RANGE};") in css
    for family, style in ui.STREAMLIT_FACES:     # Streamlit's descriptors
        assert (f'@font-face{{font-family:"{family}";font-style:{style};font-weight:100 900;'
                f"unicode-range:{ui.CJK_RANGE};") in css
    assert css.count("unicode-range:") == css.count("@font-face") == 1 + len(ui.STREAMLIT_FACES)
    for selector, stack in ui.OWN_STACKS.items():  # the CJK family leads the dashboard's stacks
        escaped = selector.replace("-", "\\-")
        assert f':root {escaped}{{font-family:"{ui.CJK_FAMILY}",{stack}}}' in css
    # the style's text names no element class (tests and tools find the table by its class)
    assert not re.search(r"lj-[a-z]", css)


def test_the_faces_match_streamlits_own():
    """Streamlit's sans-serif and monospace faces have these families and descriptors: the
    CJK face joins a family only when its descriptors are the same."""
    import streamlit

    css = "".join(p.read_text(encoding="utf-8") for p in
                  (Path(streamlit.__file__).parent / "static").rglob("*.css"))
    faces = set(re.findall(r"@font-face\{font-family:([^;]+);font-weight:([^;]+);"
                           r"font-style:([^;]+);", css))
    for family, style in ui.STREAMLIT_FACES:
        assert (family, "100 900", style) in faces, (family, style, faces)


def test_own_stacks_are_the_dashboards_css():
    """Every font-family the dashboard's own CSS sets (but ui's) is in OWN_STACKS, as it is."""
    declared = {}
    for path in (ROOT / "dashboards").rglob("*.py"):
        if path.name == "ui.py":
            continue
        text = path.read_text(encoding="utf-8")
        for selector, stack in re.findall(r"([.\w\-, >:]+)\{[^{}]*?font-family:([^;}\"]+)",
                                          text):
            declared[selector.strip()] = stack.strip()
        assert 'style="font-family' not in text.replace("'", '"'), path
    assert declared == ui.OWN_STACKS


def test_the_package_ships_the_font():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["dashboards"]
    for name in ("liujia-cjk.woff2", "OFL.txt"):
        assert any(fnmatch.fnmatch(f"static/{name}", g) for g in globs), name
    dev = " ".join(config["project"]["optional-dependencies"]["dev"])
    runtime = " ".join(config["project"]["dependencies"])
    assert "fonttools" in dev and "brotli" in dev and "fonttools" not in runtime


def test_the_dashboard_needs_no_fonttools_at_run_time():
    code = ("import sys; from dashboards import ui; assert len(ui.font_css()) > 40000; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('fontTools', 'brotli')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_page_gets_the_font(app_db):
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [h.proto.body for h in at.html].count(ui.font_css()) == 1
    at.switch_page("views/replay.py").run()
    assert [h.proto.body for h in at.html].count(ui.font_css()) == 1


def test_a_missing_font_file_is_no_error(monkeypatch, tmp_path):
    monkeypatch.setattr(ui, "CJK_FONT", tmp_path / "gone.woff2")
    ui.font_css.cache_clear()
    try:
        assert ui.font_css() == ""
    finally:
        ui.font_css.cache_clear()
