"""Small Streamlit helpers shared by the pages: the missing-warehouse notice, error display, and
showing untrusted text (a value from a URL, a log, a file name or the warehouse) as plain text.

Streamlit renders Markdown in ``st.error``, ``st.info``, ``st.caption`` … so a game id such as
``![x](http://host/a.png)`` would become an image there. Such values go through ``note`` (or
``note_html``): the whole message is HTML-escaped and shown with ``st.html``, so it is inert
and appears literally. Only fixed text of the dashboard's own goes to Markdown elements.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import streamlit as st

from dashboards import data
from engine.errors import EngineError
from warehouse.db import WarehouseError

T = TypeVar("T")

HOW_TO_FILL = ("Run liujia demo to simulate and load a demo corpus, or "
               "liujia ingest LOGS --db FILE to load your own hand histories.")

# Message kinds of ``note``: (text colour, background, border) — close to Streamlit's boxes.
NOTE_STYLES = {
    "info": ("#1e3a8a", "#eff6ff", "#bfdbfe"),
    "success": ("#14532d", "#f0fdf4", "#bbf7d0"),
    "warning": ("#713f12", "#fffbeb", "#fde68a"),
    "error": ("#7f1d1d", "#fef2f2", "#fecaca"),
}

# The CJK glyphs the dashboard shows (tools/font_subset.py builds the file; its licence and
# provenance are beside it), as faces limited to CJK code points (``CJK_RANGE``): all other text
# keeps its font. They join Streamlit's own families (with the descriptors of Streamlit's faces,
# else the browser does not combine them), and the family ``CJK_FAMILY`` leads the system-font
# stacks of the dashboard's own HTML (dashboards/table.py, events.py). Leading, not last:
# Chromium keeps drawing boxes for text it laid out, with a system font first, before the font
# had loaded (a bold CJK badge of a table stayed boxes).
CJK_FONT = Path(__file__).resolve().parent / "static" / "liujia-cjk.woff2"
CJK_FAMILY = "liujia CJK"
CJK_RANGE = "U+3000-9FFF, U+FF00-FFEF"
STREAMLIT_FACES = (("Source Sans", "normal"), ("Source Sans", "italic"),
                   ("Source Code Pro", "normal"))
OWN_STACKS = {".lj-table": "system-ui,sans-serif", ".lj-events": "system-ui,sans-serif",
              ".lj-card": "ui-monospace,monospace"}


@functools.cache
def font_css() -> str:
    """The <style> with the shipped CJK font as @font-face rules (a data: URL), '' when the
    font file is missing."""
    try:
        b64 = base64.b64encode(CJK_FONT.read_bytes()).decode("ascii")
    except OSError:
        return ""
    src = (f'unicode-range:{CJK_RANGE};src:url(data:font/woff2;base64,{b64}) format("woff2");'
           "font-display:swap")
    faces = [(CJK_FAMILY, "normal", "400"),
             *((family, style, "100 900") for family, style in STREAMLIT_FACES)]
    rules = [f'@font-face{{font-family:"{family}";font-style:{style};font-weight:{weight};{src}}}'
             for family, style, weight in faces]
    # class names with an escaped hyphen (the same selector): no st.html body but the table's
    # own holds the text "lj-table" (tests find the table's, the events' element by it)
    escaped = {selector.replace("-", "\\-"): stack for selector, stack in OWN_STACKS.items()}
    rules += [f':root {selector}{{font-family:"{CJK_FAMILY}",{stack}}}'
              for selector, stack in escaped.items()]
    return "<style>" + "\n".join(rules) + "</style>"


def use_cjk_font() -> None:
    """Load the shipped CJK font into the page (style only: it takes no space)."""
    css = font_css()
    if css:
        st.html(css)


def note_html(text: str, kind: str = "info") -> str:
    """A message as inert HTML: the text escaped (no Markdown, no tags), in a coloured box
    (``NOTE_STYLES``) or, for kind 'caption', as small grey text."""
    body = escape(str(text))
    if kind == "caption":
        return (f'<div class="lj-note lj-note-caption" style="font-size:.875rem;color:#57606a;'
                f'white-space:pre-wrap">{body}</div>')
    fg, bg, border = NOTE_STYLES.get(kind, NOTE_STYLES["info"])
    role = ' role="alert"' if kind in ("warning", "error") else ""
    return (f'<div class="lj-note lj-note-{escape(kind)}"{role} style="color:{fg};'
            f"background:{bg};border:1px solid {border};border-radius:.5rem;"
            f'padding:.75rem 1rem;white-space:pre-wrap;overflow-wrap:anywhere">{body}</div>')


def note(text: str, kind: str = "info", *, where: Any = None) -> None:
    """Show a message whose text may hold untrusted values, as plain text (never Markdown);
    ``where`` is a container such as ``st.sidebar`` (default: the page)."""
    (st if where is None else where).html(note_html(text, kind))


def game_label(game: str | None) -> str:
    """A game type as people know it, its id after: '<title> (<id>)'; None and 'all games' are
    'all games'; an id no longer registered is shown as it is."""
    if game is None or game == "all games":
        return "all games"
    from engine.games import GAMES, find_game

    return f"{find_game(game).TITLE} ({game})" if game in GAMES else str(game)


def interval_text(low: float | None, high: float | None, pct: bool = True) -> str:
    """An interval as people read it: '41%–58%' (a rate) or '+0.12 to +0.80' (a score per
    game); '–' when there is none."""
    if low is None or high is None:
        return "–"
    return f"{low:.0%}–{high:.0%}" if pct else f"{low:+.2f} to {high:+.2f}"


def result_label(winning_side: Any, winners: Any, players: Sequence[str] | None = None) -> str:
    """Who won a game, from the warehouse's winning_side and winners: 'even won', 'draw',
    'seat 2 (player-07) won', 'seats 1, 3 won'; '' when the warehouse does not say."""
    if winning_side:
        return f"{winning_side} won"
    if winners is None:
        return ""
    seats = [int(w) for w in winners]
    if not seats:
        return "draw"
    if len(seats) == 1:
        w = seats[0]
        name = f" ({players[w]})" if players is not None and 0 <= w < len(players) else ""
        return f"seat {w}{name} won"
    return f"seats {', '.join(map(str, seats))} won"


def outcome_label(outcome: Any) -> str:
    """A results_by_side outcome in words: a side 'even' -> 'even won', 'draw' -> 'draw',
    'player' -> 'a player won' (a game without sides), null -> 'no result'."""
    if outcome is None:
        return "no result"
    if outcome == "draw":
        return "draw"
    if outcome == "player":
        return "a player won"
    return f"{outcome} won"


def require_warehouse() -> dict[str, int]:
    """The warehouse's counts; stops the page with a hint when it is missing or unreadable."""
    path = data.db_path()
    try:
        return load(data.counts)
    except data.NoWarehouse:
        note(f"No warehouse at {path}. {HOW_TO_FILL}", "warning")
        st.stop()


def load(fn: Callable[..., T], *args: Any) -> T:
    """Call a data function; on a database error show it and stop the page."""
    try:
        return fn(*args)
    except data.NoWarehouse:
        raise
    except WarehouseError as exc:     # a file that is not a warehouse (warehouse.verify)
        note(f"Cannot open the warehouse: {exc}", "error")
        note(HOW_TO_FILL, "caption")
        st.stop()
    except duckdb.Error as exc:
        note(f"Could not read the warehouse {data.db_path()}: {exc}", "error")
        note(HOW_TO_FILL, "caption")
        st.stop()
    except EngineError as exc:   # a stored game the engine cannot replay (e.g. rules changed)
        note(f"The engine cannot replay this game: {exc}", "error")
        st.stop()
