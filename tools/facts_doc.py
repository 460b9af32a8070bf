"""Write the fact catalogs of the shipped games into docs/facts.md (between the markers
``<!-- catalogs -->`` and ``<!-- /catalogs -->``), as the code declares them:

    .venv/bin/python -m tools.facts_doc

tests/engine/test_facts.py fails while the docs differ from the code.
"""

from __future__ import annotations

from pathlib import Path

from engine.games import BUILT_IN, find_game

DOC = Path(__file__).resolve().parents[1] / "docs" / "facts.md"
START, END = "<!-- catalogs -->", "<!-- /catalogs -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def catalog_markdown() -> str:
    """Every shipped game's catalog as Markdown tables (name, label, when it is counted),
    with the facts its conformance corpus seldom makes happen marked."""
    out: list[str] = []
    for gid in BUILT_IN:
        g = find_game(gid)
        rare = set(g.CONFORMANCE.get("rare_facts", ()))
        out += [f"### {g.TITLE} (`{gid}`): {len(g.facts.FACTS)} facts", "",
                "| fact | label | counted |", "|---|---|---|"]
        out += [f"| `{f.name}`{' (rare)' if f.name in rare else ''} | {_cell(f.label)} | "
                f"{_cell(f.description)} |" for f in g.facts.FACTS]
        out.append("")
    return "\n".join(out)


def main() -> None:
    """Rewrite the catalogs section of docs/facts.md."""
    text = DOC.read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    DOC.write_text(f"{head}{START}\n{catalog_markdown()}{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
