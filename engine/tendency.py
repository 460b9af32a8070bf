"""The vocabulary of tendencies: a game declares its tendency catalog as data built from these
words (its ``Game.tendencies``), and the warehouse compiles each to DuckDB SQL
(``warehouse.tendencies``); nothing outside the game's package knows the game's words.

A tendency is an *opportunity* predicate (the rows where it could happen) and a *success*
predicate, over the rows of ``decisions`` (``engine.decisions``) or, for outcomes such as
going out as 头客, over ``results`` (one row per seat of a game). A predicate is a small
immutable tree (``Pred``) of the words below, joined with ``&``, ``|`` and ``~``:

- over decisions rows: ``option`` (the seat had one of these categories), ``chosen``, ``tag``,
  ``relation`` (of the top play's seat: none, self, teammate, opposite, opponent), ``phase``,
  ``side`` (the seat's side as it knew it);
- over results rows: ``place``, ``outcome`` (win, loss, draw), ``reason`` (why the game
  ended), ``side`` (the final one), ``result_seat`` (the game's result names this seat in a
  field, e.g. the seat that decided the game);
- ``ALWAYS``: every row.

Words are lower-case ASCII names (checked here, so that a catalog cannot carry SQL).
"""

from __future__ import annotations

from dataclasses import dataclass, field

DECISIONS, RESULTS = "decisions", "results"       # the rows a tendency counts
LABEL_MAX = 60                                    # a tendency's label fits a table cell


def word(w: str) -> str:
    """A category, tag, phase or result word, checked: ASCII letters, digits and '_'."""
    if not isinstance(w, str) or not w.replace("_", "").isalnum() or not w.isascii():
        raise ValueError(f"not a category, tag or phase word: {w!r}")
    return w


@dataclass(frozen=True, slots=True)
class Pred:
    """A predicate over a decisions (or results) row: an operator and its arguments (words,
    a number, or predicates for ``and``, ``or``, ``not``)."""

    op: str
    args: tuple[object, ...] = ()

    def __and__(self, other: Pred) -> Pred:
        return Pred("and", (self, other))

    def __or__(self, other: Pred) -> Pred:
        return Pred("or", (self, other))

    def __invert__(self) -> Pred:
        return Pred("not", (self,))


def _words(op: str, items: tuple[str, ...]) -> Pred:
    if not items:
        raise ValueError(f"{op} needs at least one word")
    return Pred(op, tuple(word(w) for w in items))


def option(*categories: str) -> Pred:
    """The seat had (one of) these categories among its options."""
    return _words("option", categories)


def chosen(*categories: str) -> Pred:
    """The seat chose one of these categories."""
    return _words("chosen", categories)


def tag(name: str) -> Pred:
    """The row carries this tag (a game fact, docs/decisions.md)."""
    return _words("tag", (name,))


def relation(name: str) -> Pred:
    """The top play was made by a seat of this relation (none/self/teammate/opposite/...)."""
    return _words("relation", (name,))


def phase(*phases: str) -> Pred:
    """The row's phase word is one of these."""
    return _words("phase", phases)


def side(name: str) -> Pred:
    """The seat's side (as it knew it, in a decisions row; in results, the final one)."""
    return _words("side", (name,))


def place(p: int) -> Pred:
    """Results: the seat finished in this place (1 = first)."""
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError(f"a place is a whole number >= 1, not {p!r}")
    return Pred("place", (p,))


def outcome(name: str) -> Pred:
    """Results: the seat's result is win, loss or draw."""
    return _words("outcome", (name,))


def reason(name: str) -> Pred:
    """Results: the game ended for this reason (games.reason)."""
    return _words("reason", (name,))


def result_seat(field: str, column: str) -> Pred:
    """Results: the game's result names this seat in ``field`` (its JSON key, e.g.
    ``deciding_seat``); ``column`` is the name the results rows give that fact."""
    return _words("result_seat", (field, column))


ALWAYS = Pred("always")


@dataclass(frozen=True, slots=True)
class Tendency:
    """A named tendency of a game: its opportunities and its successes, counted over
    ``source`` rows (``decisions`` or ``results``), and the ``label`` people read for it.

    ``name`` is the id (in the warehouse, ``--json`` and tooltips); ``label`` is what tables,
    charts and text show: a few words as a strong player would say them, with the game's own
    term where it has one ("stacks a draw (叠加)"). Required, keyword-only."""

    name: str                    # short, unique in the game: "stacks"
    description: str             # what it measures, with the rule ids
    opportunity: Pred
    success: Pred
    source: str = DECISIONS
    label: str = field(kw_only=True)   # the readable name: "stacks a draw (叠加)"

    def __post_init__(self) -> None:
        word(self.name)
        if not isinstance(self.label, str) or not self.label.strip() \
                or self.label != self.label.strip() or len(self.label) > LABEL_MAX \
                or not self.label.isprintable():
            raise ValueError(f"tendency {self.name}: a label is one printable line of 1 to "
                             f"{LABEL_MAX} characters without edge spaces, not {self.label!r}")
        if self.source not in (DECISIONS, RESULTS):
            raise ValueError(f"tendency {self.name}: source must be {DECISIONS!r} or "
                             f"{RESULTS!r}, not {self.source!r}")


def walk(p: Pred) -> list[Pred]:
    """Every node of a predicate, the predicate first."""
    out = [p]
    for a in p.args:
        if isinstance(a, Pred):
            out += walk(a)
    return out
