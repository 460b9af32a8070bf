"""The architecture contract's one direction (DESIGN.md): dashboards may import warehouse and
engine; warehouse may import engine; ingest imports engine and warehouse; engine imports none
of them. Checked on every module's imports, also those inside functions."""

from __future__ import annotations

import ast
import re
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


# ---------------------------------------------------------------- import cycles

CYCLE_LAYERS = ("engine", "ingest", "warehouse")


def _modules(root: Path, layers: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the layers (a package is its
    ``__init__``)."""
    out = {}
    for layer in layers:
        for p in (root / layer).rglob("*.py"):
            parts = p.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _module_imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` this one imports, also inside functions (a late import is
    still a loop), not under ``if TYPE_CHECKING``; ``from pkg import mod`` names pkg.mod."""
    out: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while todo:
        for node in ast.iter_child_nodes(todo.pop()):
            if _type_checking_only(node):
                continue
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    out.add(sub if sub in known else node.module)
            todo.append(node)
    return out & set(known)


def import_cycles(root: Path, layers: tuple[str, ...]) -> list[list[str]]:
    """Every set of modules that import one another in a loop (strongly connected
    components of the import graph with more than one module, or a module importing
    itself), each sorted."""
    known = _modules(root, layers)
    graph = {m: sorted(_module_imports(p, known)) for m, p in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(graph[start]))]     # Tarjan's algorithm, without recursion
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1 or v in graph[v]:
                        found.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on_stack.add(w)
                work.append((w, iter(graph[w])))
            elif w in on_stack:
                low[v] = min(low[v], index[w])
    return sorted(found)


def test_no_import_cycles():
    assert import_cycles(ROOT, CYCLE_LAYERS) == []


def test_the_cycle_check_finds_a_late_import_loop(tmp_path):
    pkg = tmp_path / "engine" / "toy"
    pkg.mkdir(parents=True)
    (tmp_path / "engine" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "rules.py").write_text("def f():\n    from engine.toy import game\n    return game\n")
    (pkg / "game.py").write_text("from engine.toy import rules\n")
    (pkg / "cards.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from engine.toy import game\n")
    (pkg / "plays.py").write_text("import engine.toy.cards\n")
    assert import_cycles(tmp_path, ("engine",)) == [["engine.toy.game", "engine.toy.rules"]]


NEUTRAL = ("engine", "ingest", "warehouse", "dashboards", "liujia")


def game_words() -> set[str]:
    """Every registered game's id, package name and title words (the words a module outside
    the game's package must not use)."""
    from engine.games import GAMES, find_game
    words = set()
    for gid, where in GAMES.items():
        words.add(gid)
        words.add(where.split(":")[0].rsplit(".", 1)[-1])
        words.update(w for w in re.split(r"[\s()（）·,/-]+", find_game(gid).TITLE) if len(w) > 1)
    return words


def naming_lines(root: Path, words: set[str]) -> list[str]:
    """'path:line: text' of every line of a neutral module naming a game; the games' own
    packages (engine/games/<pkg>/) and the registry (engine/games/*.py) are not neutral."""
    out = []
    for top in NEUTRAL:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith("engine/games/"):
                continue
            for no, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if any(w in text for w in words):
                    out.append(f"{rel}:{no}: {text.strip()}")
    return out


def test_no_neutral_module_names_a_game():
    """Issue 23: outside engine/games/ no module of the product names a game, not even in a
    comment (per-game knowledge lives in the game's package)."""
    words = game_words()
    assert {"keng", "gouji", "liuhu", "ddz6"} <= words          # the check looks for something
    assert naming_lines(ROOT, words) == []


def test_the_naming_check_finds_a_game_in_a_comment(tmp_path):
    (tmp_path / "warehouse").mkdir()
    (tmp_path / "warehouse" / "q.py").write_text("x = 1\n# as 六人坑 does\n")
    (tmp_path / "engine" / "games" / "keng").mkdir(parents=True)
    (tmp_path / "engine" / "games" / "keng" / "rules.py").write_text("# 六人坑\n")
    assert naming_lines(tmp_path, game_words()) == ["warehouse/q.py:2: # as 六人坑 does"]
