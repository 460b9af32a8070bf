"""The replay page's review of the decision made at the step (engine/review.py): the stored review
when the warehouse has one (``liujia ingest --review``: shown at once), else on request — the
grade of the action chosen, the candidates with their values, and the better line, which can be
stepped through ("what if") on a world as the deciding seat saw it.

A seat's perspective shows only the review of its own decisions (another seat's review would
tell what that seat held); the auditor sees every seat's. The "what if" table is drawn as the
deciding seat sees it, so that a world's sampled hidden cards are never passed off as the
game's own."""

from __future__ import annotations

import functools
from typing import Any

import pyarrow as pa
import streamlit as st

from dashboards import data, ui
from dashboards.table import table_html
from engine.errors import EngineError
from engine.events import Event
from engine.replay import Replay
from engine.review import (
    LINE,
    DecisionReview,
    Settings,
    action_text,
    first_world,
    in_world,
    marks,
    review_decision,
    seat_options,
    seen_by,
)

AUDITOR = "auditor"
WORLDS = 64            # at most this many worlds per decision on the page (the CLI: 256)
SETTINGS = Settings(seed=0, max_worlds=WORLDS)


def decision_at(rp: Replay, step: int, perspective: int | str) -> Event | None:
    """The event of this step when it is a decision this perspective may see reviewed: a
    seat's own action that had a choice (the auditor: any seat's), of a game that can be
    reviewed. (The step's own event: the page never shows a seat an event after the step.)"""
    if step < 1 or rp.game.sample_world is None:
        return None
    e = rp.events[step]
    if e.seat < 0 or (perspective != AUDITOR and perspective != e.seat):
        return None
    state = rp.state_at(step - 1)
    if rp.game.next_auto(state) is not None or len(seat_options(rp.game, state, e.seat)) < 2:
        return None
    return e


def _seen(rp: Replay, seat: int, upto: int) -> tuple[Event, ...]:
    """The engine events before seq ``upto`` as the seat saw them."""
    return seen_by(rp.game, rp.events[:upto], seat)


@functools.lru_cache(maxsize=64)
def _review(key: tuple[str, Any], seq: int) -> DecisionReview | None:
    """The review of the decision at seq of the game (cached by game and warehouse)."""
    rp = data.replay(key[0])
    if rp is None:
        return None
    e = rp.events[seq]
    state = rp.state_at(seq - 1)
    return review_decision(rp.game, state, e.seat, e, _seen(rp, e.seat, seq),
                           SETTINGS, seq)


def what_if(rp: Replay, seq: int, r: DecisionReview, upto: int) -> Any:
    """The first world of the review after the better candidate and ``upto`` events of its
    line (the world the line was played in)."""
    e = rp.events[seq]
    state = rp.state_at(seq - 1)
    g = rp.game
    w = first_world(g, state, e.seat, _seen(rp, e.seat, seq), SETTINGS, seq)
    g.step(w, in_world(g, w, r.best.action))
    for x in r.best.line[:upto]:
        g.step(w, x)
    return w


def candidates_table(rp: Replay, r: DecisionReview) -> pa.Table:
    """The candidates as a table: which, the action, its value ± error, its chance of being
    best."""
    return _table(r.chosen, [{"text": action_text(rp.game, c.action), "value": c.value,
                              "se": c.se, "p_best": c.p_best} for c in r.candidates])


def _table(chosen: int, cands: list[dict[str, Any]]) -> pa.Table:
    """Candidates (text, value, se, p_best; best first) as the table the page shows."""
    return pa.table({
        "": marks(chosen, len(cands)),
        "action": [c["text"] for c in cands],
        "value": [round(c["value"], 3) for c in cands],
        "± se": [round(c["se"], 3) for c in cands],
        "best in": [f"{c['p_best']:.0%}" for c in cands],
    })


def render(game_id: str, rp: Replay, step: int, perspective: int | str,
           players: list[str]) -> None:
    """The review expander of the step's decision, if there is one to review here."""
    if rp.game.sample_world is None:
        if perspective == AUDITOR:
            ui.note(f"Review: {rp.game.TITLE} cannot be reviewed yet (no world sampler).",
                    "caption")
        return
    e = decision_at(rp, step, perspective)
    if e is None:
        return
    stored = ui.load(data.review_at, game_id, e.seq)
    with st.expander(f"Review this decision: seat {e.seat}, {action_text(rp.game, e)}",
                     expanded=stored is not None):
        if stored is not None:
            _show_stored(rp, stored)
        key = (game_id, data.current_fingerprint())
        label = "Review it again, with the better line" if stored else "Review it"
        if not st.button(label, key=f"rv_{game_id}_{e.seq}") and \
                (key, e.seq) not in st.session_state.get("rv_done", set()):
            ui.note(f"Samples up to {WORLDS} worlds consistent with what seat {e.seat} knew "
                    "and plays every candidate out in each (a second or a few).", "caption")
            return
        st.session_state.setdefault("rv_done", set()).add((key, e.seq))
        try:
            r = _review(key, e.seq)
        except EngineError as exc:
            ui.note(f"This decision could not be reviewed: {exc}", "error")
            return
        if r is None:
            return
        _show(rp, e, r, players)


def _show_stored(rp: Replay, r: dict[str, Any]) -> None:
    """The warehouse's review of the decision: its verdict and candidates as stored."""
    sc = rp.game.review_scale
    if not r["candidates"]:
        ui.note(f"Stored review: {r['withheld']}", "caption")
        return
    grade = r["grade"] or ("best" if r["rank"] == 0 else "good")
    verdict = f"grade withheld ({r['withheld']})" if r["withheld"] else grade
    flag = " — flagged: almost surely not best" if r["flag"] else ""
    ui.note(f"Stored review (seed {r['seed']}, {r['worlds']} worlds, {r['options']} options): "
            f"{verdict}: loss {r['loss']:.3f} ± {r['loss_se']:.3f} ({sc.unit}){flag}",
            "warning" if r["grade"] or r["flag"] else "info")
    st.dataframe(_table(r["rank"], r["candidates"]), hide_index=True, width="stretch")


def _show(rp: Replay, e: Event, r: DecisionReview, players: list[str]) -> None:
    """The verdict, the candidates and the better line with its "what if" table."""
    sc = rp.game.review_scale
    verdict = (f"grade withheld ({r.withheld})" if r.withheld else
               r.grade_word)
    flag = " — flagged: almost surely not best" if r.flag else ""
    ui.note(f"{verdict}: loss {r.loss:.3f} ± {r.loss_se:.3f} ({sc.unit}; {r.worlds} worlds, "
            f"{r.options} options){flag}", "warning" if r.grade or r.flag else "info")
    st.dataframe(candidates_table(rp, r), hide_index=True, width="stretch")
    if r.chosen == 0 or not r.best.line:
        return
    line = [r.best.action, *r.best.line][: LINE + 1]
    ui.note("The better line, in the first sampled world: " + "; ".join(
        f"seat {x.seat}: {action_text(rp.game, x)}" if x.seat >= 0 else
        action_text(rp.game, x) for x in line), "caption")
    upto = st.slider("What if: events of the better line played", 0, len(line) - 1, 0,
                     key=f"rv_line_{e.seq}")
    world = what_if(rp, e.seq, r, upto)
    st.html(table_html(rp.game_type, rp.game.view(world, e.seat), players))
