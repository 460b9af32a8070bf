"""Build dashboards/static/liujia-cjk.woff2: the CJK glyphs the dashboard can show, cut from an
OFL-licensed font, so that Chinese labels render on a machine without CJK fonts.

The characters are every CJK code point (U+3000-9FFF, U+FF00-FFEF) in the dashboard's sources,
in every project module the dashboard imports, in every module of a shipped game's package
(game names, roles, phases, decisions, error messages) and in ingest's (quarantine reasons),
plus printable ASCII, Latin-1 and the card suits. Rebuild after adding a Chinese label
(tests/dashboards/test_fonts.py fails until then):

    (cd /tmp && apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb noto)
    .venv/bin/python tools/font_subset.py \\
        /tmp/noto/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc --font-number 2

Needs fontTools and brotli (the ``dev`` extra); the dashboard itself only reads the woff2.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DASHBOARDS = ROOT / "dashboards"
OUT = DASHBOARDS / "static" / "liujia-cjk.woff2"
# The audit report's font (engine/audit/fonts/): the CJK of the shipped rules files, whose texts
# the report quotes, and of every engine module (game names, roles, reasons, descriptions).
AUDIT_OUT = ROOT / "engine" / "audit" / "fonts" / "liujia-cjk-audit.woff2"
CJK = re.compile("[\u3000-\u9fff\uff00-\uffef]")
# Besides the CJK characters found: printable ASCII, Latin-1 and the four card suits.
EXTRA = ("".join(map(chr, range(0x20, 0x7F))) + "".join(map(chr, range(0xA0, 0x100)))
         + "♠♥♣♦")
# Name-table records kept in the subset: names (0-6), trademark (7), licence and its URL (13, 14).
NAME_IDS = (0, 1, 2, 3, 4, 5, 6, 7, 13, 14)

# Packages whose text reaches the dashboard through the warehouse, not by import: the
# quarantine page shows the reasons ingest wrote.
THROUGH_WAREHOUSE = ("ingest",)

# Run in a fresh interpreter at the project root: import what the dashboard's files import
# (also imports inside functions), and every game liujia ships as the replay page does (a
# plug-in game, LIUJIA_GAMES, is not shipped: its characters fall back to the system fonts), then
# print the project files that were loaded (not those of the virtual environment) and the
# folders of the games' packages (whose other modules, such as decisions, load lazily).
_PROBE = """
import importlib, json, sys
from pathlib import Path
root = Path(sys.argv[1])
for name in json.loads(sys.argv[2]):
    importlib.import_module(name)
import engine.games
packages = set()
for game in engine.games.BUILT_IN:
    engine.games.find_game(game)
    package = importlib.import_module(engine.games.GAMES[game].partition(":")[0])
    packages.add(str(Path(package.__file__).resolve().parent.relative_to(root)))
libs = [Path(p).resolve() for p in (sys.prefix, sys.base_prefix)]
files = set()
for module in list(sys.modules.values()):
    f = getattr(module, "__file__", None)
    f = Path(f).resolve() if f else None
    if (f and f.is_relative_to(root) and not any(f.is_relative_to(lib) for lib in libs)
            and not {"site-packages", "dist-packages"} & set(f.parts)):
        files.add(str(f.relative_to(root)))
print(json.dumps({"files": sorted(files), "packages": sorted(packages)}))
"""


def dashboard_files(root: Path = ROOT) -> list[Path]:
    """The dashboard's own Python files (entry script, pages, renderers)."""
    return sorted(p for p in (root / "dashboards").rglob("*.py") if "static" not in p.parts)


def imported_names(files: Iterable[Path], root: Path = ROOT) -> list[str]:
    """The absolute module names the files import (``from a import b`` gives a and a.b when
    a.b is a module of the project at root)."""
    names: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names
                             if _is_project_module(f"{node.module}.{a.name}", root))
    return sorted(n for n in names if n != "__future__")


def _is_project_module(name: str, root: Path) -> bool:
    """True if the dotted name is a module or package in the project tree."""
    base = root.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def ui_sources(root: Path = ROOT) -> list[Path]:
    """Every project file whose text the dashboard can show: its own files, each project
    module loaded when what they import (and every shipped game, ``engine.games.BUILT_IN``)
    is imported, every module of the games' packages and of ``THROUGH_WAREHOUSE``."""
    own = dashboard_files(root)
    env = {k: v for k, v in os.environ.items() if k != "LIUJIA_GAMES"}   # shipped games only
    out = subprocess.run([sys.executable, "-c", _PROBE, str(root),
                          json.dumps(imported_names(own, root))],
                         cwd=root, capture_output=True, text=True, check=True, env=env)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    files = set(own) | {root / f for f in found["files"] if f.endswith(".py")}
    for folder in [*found["packages"], *THROUGH_WAREHOUSE]:
        files.update((root / folder).rglob("*.py"))
    return sorted(p for p in files if p.is_file())


def cjk_chars(paths: Iterable[Path]) -> set[str]:
    """The CJK characters (U+3000-9FFF, U+FF00-FFEF) in the files' text."""
    found: set[str] = set()
    for path in paths:
        found.update(CJK.findall(path.read_text(encoding="utf-8")))
    return found


def ui_chars(root: Path = ROOT) -> set[str]:
    """The CJK characters the dashboard can show."""
    return cjk_chars(ui_sources(root))


def audit_sources(root: Path = ROOT) -> list[Path]:
    """Every file whose text an audit report can show: the shipped rules files and the engine's
    modules (its games' packages among them)."""
    engine = root / "engine"
    return sorted([*(engine / "rules").glob("*.md"), *engine.rglob("*.py")])


def audit_chars(root: Path = ROOT) -> set[str]:
    """The CJK characters an audit report can show."""
    return cjk_chars(audit_sources(root))


def subset(source: Path, chars: Iterable[str], out: Path = OUT, font_number: int = 0) -> Path:
    """Write the woff2 subset of the source font (a face of a .ttc by number) holding the
    characters the font has, keeping its copyright, trademark and licence records."""
    from fontTools import subset as ft

    options = ft.Options()
    options.flavor = "woff2"
    options.font_number = font_number
    options.name_IDs = list(NAME_IDS)
    options.name_languages = ["*"]
    options.hinting = False
    options.notdef_outline = True
    font = ft.load_font(str(source), options)
    have = set(font.getBestCmap())
    sub = ft.Subsetter(options)
    sub.populate(unicodes=sorted(u for u in map(ord, set(chars)) if u in have))
    sub.subset(font)
    out.parent.mkdir(parents=True, exist_ok=True)
    ft.save_font(font, str(out), options)
    return out


def missing(font: Path, chars: Iterable[str]) -> list[str]:
    """The characters the font has no glyph for, in code-point order."""
    from fontTools.ttLib import TTFont

    with TTFont(str(font)) as f:
        have = set(f.getBestCmap())
    return sorted({c for c in chars if ord(c) not in have})


def main(argv: list[str] | None = None) -> int:
    """Build the subset from the source font given on the command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source", type=Path, help="the OFL font to cut from (.otf, .ttf or .ttc)")
    p.add_argument("--font-number", type=int, default=0,
                   help="the face of a .ttc (NotoSansCJK-Regular.ttc: 2 is Noto Sans CJK SC)")
    p.add_argument("--out", type=Path, default=None, help=f"default {OUT.relative_to(ROOT)} "
                   f"(with --audit: {AUDIT_OUT.relative_to(ROOT)})")
    p.add_argument("--audit", action="store_true", help="build the audit report's font (the "
                   "rules files' and the engine's CJK) instead of the dashboard's")
    args = p.parse_args(argv)
    # the audit's font is used for CJK only (its @font-face unicode-range): no Latin glyphs
    need = audit_chars() if args.audit else ui_chars() | set(EXTRA)
    out = subset(args.source, need, args.out or (AUDIT_OUT if args.audit else OUT),
                 args.font_number)
    lost = [c for c in missing(out, need) if CJK.match(c)]
    cjk = sorted(c for c in need if CJK.match(c))
    print(f"{out}: {out.stat().st_size:,} bytes, {len(cjk)} CJK characters: {''.join(cjk)}")
    if lost:
        print(f"the source font lacks {''.join(lost)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
