"""The text of a rule by its id (KENG-12, GJ-20), from the rules files shipped in
engine/rules/ (``liujia rules`` prints it; errors, audits and the dashboard cite it). A rule starts with its bold id (``**KENG-12**`` or ``**GJ-20 (Who may answer).**``) at the
start of a line and runs to the next rule or heading; a rule defined as a row of a table (a scoring
table: ``| LH-47 | sequence … | 0 | … |``) is that row under the table's header."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from importlib import resources

from engine.games import GAMES, about


class _PrefixFiles(Mapping[str, tuple[str, str]]):
    """Rule-id prefix (a game's RULE_PREFIX) -> (package, path) of its rules text, the game's
    RULES_FILE (variants of one package share it), over the games registered now (a game
    registered after this module was imported is known too)."""

    def _now(self) -> dict[str, tuple[str, str]]:
        return _prefix_files(tuple(GAMES.items()))

    def __getitem__(self, prefix: str) -> tuple[str, str]:
        return self._now()[prefix]

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())


@functools.cache
def _prefix_files(registry: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, str]]:
    return {about(g)[1]: about(g)[2] for g, _ in registry}


# the tests check that each file ships unchanged
PREFIX_FILES: Mapping[str, tuple[str, str]] = _PrefixFiles()
_RULE_START = re.compile(r"^\*\*([A-Z]+-\d+[a-z]?)(?![0-9a-z])", re.M)
_NEXT = re.compile(r"^(\*\*[A-Z]+-\d+[a-z]?(?![0-9a-z])|#)", re.M)
_ROW = re.compile(r"^\| *([A-Z]+-\d+[a-z]?) *\|.*$", re.M)


def _rules_file(prefix: str) -> str:
    package, path = PREFIX_FILES[prefix]
    return resources.files(package).joinpath(path).read_text(encoding="utf-8")


def rule_text(rule_id: str) -> str | None:
    """The paragraph(s) of a rule, from its bold id to the next rule or heading; None if unknown."""
    m = re.fullmatch(r"([A-Za-z]+)-(\d+[a-z]?)", rule_id.strip())
    if not m or m.group(1).upper() not in PREFIX_FILES:
        return None
    rid = f"{m.group(1).upper()}-{m.group(2)}"
    text = _rules_file(m.group(1).upper())
    start = next((x.start() for x in _RULE_START.finditer(text) if x.group(1) == rid), -1)
    if start < 0:
        return _row_text(text, rid)
    m2 = _NEXT.search(text, start + len(rid) + 2)
    return text[start: m2.start() if m2 else len(text)].strip()


def _row_text(text: str, rid: str) -> str | None:
    """A rule defined as a table row: the table's header (its first two lines) and the row."""
    row = next((x for x in _ROW.finditer(text) if x.group(1) == rid), None)
    if row is None:
        return None
    lines = text[:row.start()].splitlines()
    top = len(lines)
    while top > 0 and lines[top - 1].startswith("|"):
        top -= 1
    return "\n".join([*lines[top:top + 2], row.group(0)])


def rule_ids(prefix: str = "KENG") -> list[str]:
    """Every rule id defined in a shipped rules file (in bold or as a table row), in order."""
    text = _rules_file(prefix)
    found = sorted([(m.start(), m.group(1)) for m in _RULE_START.finditer(text)]
                   + [(m.start(), m.group(1)) for m in _ROW.finditer(text)])
    return list(dict.fromkeys(rid for _, rid in found))




def plain(text: str) -> str:
    """A rule's text for reading rather than as Markdown: the bold and code marks dropped
    (``**LH-16**`` reads LH-16)."""
    return text.replace("**", "").replace("`", "")
