"""Non-blank lines of Python per registered game: engine package, dashboard table, tests.

Run from a checkout: ``.venv/bin/python tests/bench/lines_per_game.py [--root DIR]`` prints a
Markdown table for every game in ``engine.games.GAMES`` of the tree at DIR (default: this
checkout). Counted: ``engine/games/<package>/**/*.py``, ``dashboards/tables/<package>.py`` (the
per-game dashboard tables of checkouts before issue 23; none since: a game's table is in its
package) and ``tests/games/<package>/**/*.py`` (golden playthrough files are generated data,
not counted).
The game modules themselves are not imported, so a game still being written is counted too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


def non_blank(paths: list[Path]) -> int:
    """Non-blank lines of these files."""
    return sum(1 for p in paths for line in p.read_text(encoding="utf-8").splitlines()
               if line.strip())


def python_files(root: Path, rel: str) -> list[Path]:
    """The .py files of a file or directory under root (none if it does not exist)."""
    path = root / rel
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)


def registered(root: Path) -> dict[str, str]:
    """GAMES of the tree at root: game id -> package name (its last dotted part)."""
    sys.path.insert(0, str(root))
    from engine.games import GAMES
    return {game: path.partition(":")[0].rsplit(".", 1)[-1] for game, path in GAMES.items()}


def table(root: Path) -> str:
    """The Markdown table of non-blank lines per game."""
    rows = ["| game | engine package | dashboard table | tests | total |",
            "| --- | ---: | ---: | ---: | ---: |"]
    for game, package in registered(root).items():
        counts = [non_blank(python_files(root, rel)) for rel in (
            f"engine/games/{package}", f"dashboards/tables/{package}.py",
            f"tests/games/{package}")]
        rows.append(f"| `{game}` | " + " | ".join(f"{n:,}" for n in counts)
                    + f" | {sum(counts):,} |")
    return "\n".join(rows)


def main() -> None:
    """Print the table for the tree given by --root."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=HERE, help="checkout to count (default: this)")
    root = ap.parse_args().root.resolve()
    print(table(root))


if __name__ == "__main__":
    main()
