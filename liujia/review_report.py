"""A game's review (``engine.review.GameReview``) as text lines, one JSON document or one
self-contained HTML page. Events are put in words by the game's own ``describe``; nothing of
the log is written unescaped."""

from __future__ import annotations

import html
from typing import Any

from engine.events import Event
from engine.review import REVIEW_VERSION, Candidate, DecisionReview, GameReview, action_text


def _act(review: GameReview, e: Event) -> str:
    """An action in words with its seat (an automatic event: 'engine')."""
    who = f"seat {e.seat}" if e.seat >= 0 else "engine"
    return f"{who}: {action_text(review.game, e)}"


def scale_text(review: GameReview) -> str:
    """The grading scale in words."""
    sc = review.game.review_scale
    a, b, c = sc.steps
    return (f"values are the seat's {sc.unit}; a loss of {a:g} / {b:g} / {c:g} is an inaccuracy "
            f"/ mistake / blunder ({sc.why}); a grade whose standard error exceeds half a step "
            "is withheld, unless the loss is surely past the blunder step")


def _grade_text(d: DecisionReview) -> str:
    """'blunder', 'good', or 'withheld (why)'."""
    if d.withheld is not None:
        return f"grade withheld: {d.withheld}"
    return d.grade_word


def _stop_text(review: GameReview) -> str:
    """How the review ended, in words."""
    failed = (f"; {len(review.failed)} could not be reviewed (seq "
              f"{', '.join(str(q) for q, _ in review.failed)}: {review.failed[0][1]})"
              if review.failed else "")
    if review.stopped == "budget":
        return f"the budget ran out: {review.pending} decision(s) not reviewed{failed}"
    if review.stopped == "interrupted":
        return f"interrupted: {review.pending} decision(s) not reviewed{failed}"
    return f"every decision reviewed{failed}" if not failed else failed[2:]


def review_lines(review: GameReview) -> list[str]:
    """The review as text: a head, then per decision its verdict and its candidates."""
    g = review.game
    out = [f"review of game {review.game_id} ({g.TITLE}), seat(s) "
           f"{', '.join(map(str, review.seats))}, seed {review.settings.seed}: "
           f"{len(review.decisions)} decision(s) with a choice; {_stop_text(review)}",
           scale_text(review)]
    for d in review.decisions:
        chosen = d.candidates[d.chosen]
        flag = f"  FLAG: chance it is best {chosen.p_best:.0%}" if d.flag else ""
        out.append(f"seq {d.seq}  {_act(review, chosen.action)}  ({d.options} options, "
                   f"{d.worlds} worlds)  loss {d.loss:.3f} ± {d.loss_se:.3f}  "
                   f"{_grade_text(d)}{flag}")
        for mark, c in zip(d.marks, d.candidates, strict=True):
            out.append(f"    {mark:6} {c.value:7.3f} ± {c.se:.3f}  best in {c.p_best:4.0%}  "
                       f"{action_text(review.game, c.action)}")
        if d.chosen != 0 and d.best.line:
            out.append("    the better line: " + "; ".join(
                _act(review, e) for e in (d.best.action, *d.best.line)))
    return out


def _cand_json(review: GameReview, c: Candidate) -> dict[str, Any]:
    """One candidate as JSON."""
    return {"action": _event(c.action),
            "text": action_text(review.game, c.action), "value": round(c.value, 6),
            "se": round(c.se, 6), "p_best": round(c.p_best, 4),
            "line": [_event(e) for e in c.line]}


def _event(e: Event) -> dict[str, Any]:
    """An event's action fields as JSON."""
    return {"kind": e.kind, "seat": e.seat, "cards": list(e.cards), "target": e.target,
            "value": e.value, "tag": e.tag, "payload": e.payload}


def review_json(review: GameReview) -> dict[str, Any]:
    """The review as one JSON document."""
    sc = review.game.review_scale
    return {
        "review_version": REVIEW_VERSION, "game_id": review.game_id,
        "game": review.game.GAME_ID, "seats": list(review.seats),
        "seed": review.settings.seed, "max_worlds": review.settings.max_worlds,
        "scale": {"kind": sc.kind, "steps": list(sc.steps), "unit": sc.unit, "why": sc.why},
        "stopped": review.stopped, "pending": review.pending,
        "failed": [{"seq": q, "why": why} for q, why in review.failed],
        "decisions": [{
            "seq": d.seq, "seat": d.seat, "options": d.options, "worlds": d.worlds,
            "chosen": d.chosen, "loss": round(d.loss, 6), "loss_se": round(d.loss_se, 6),
            "grade": d.grade, "withheld": d.withheld, "flag": d.flag,
            "candidates": [_cand_json(review, c) for c in d.candidates],
        } for d in review.decisions],
    }


CSS = ("body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}"
       "table{border-collapse:collapse;margin:.3em 0 1.2em}td,th{padding:.15em .6em;"
       "border-bottom:1px solid #ddd;text-align:left}td.n{text-align:right;"
       "font-variant-numeric:tabular-nums}.blunder{color:#b00020;font-weight:bold}"
       ".mistake{color:#d35400;font-weight:bold}.inaccuracy{color:#9a7d0a}"
       ".chosen{background:#eef4ff}.flag{color:#b00020}.muted{color:#666}")


def review_html(review: GameReview) -> str:
    """The review as one self-contained HTML page (every text escaped)."""
    e = html.escape
    g = review.game
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>review of "
             f"{e(review.game_id)}</title><style>{CSS}</style></head><body>",
             f"<h1>Review of game {e(review.game_id)} ({e(g.TITLE)})</h1>",
             f"<p>seat(s) {e(', '.join(map(str, review.seats)))}, seed "
             f"{review.settings.seed}; {len(review.decisions)} decision(s) with a choice; "
             f"{e(_stop_text(review))}.</p><p class='muted'>{e(scale_text(review))}.</p>"]
    for d in review.decisions:
        chosen = d.candidates[d.chosen]
        cls = d.grade or ""
        flag = (f" <span class='flag'>flag: chance it is best {chosen.p_best:.0%}</span>"
                if d.flag else "")
        parts.append(f"<h3>seq {d.seq} · {e(_act(review, chosen.action))} · "
                     f"<span class='{cls}'>{e(_grade_text(d))}</span> · loss "
                     f"{d.loss:.3f} ± {d.loss_se:.3f}{flag}</h3>")
        parts.append("<table><tr><th></th><th>action</th><th>value</th><th>± se</th>"
                     "<th>best in</th></tr>")
        for mark, c in zip(d.marks, d.candidates, strict=True):
            row = " class='chosen'" if mark == "chosen" else ""
            parts.append(f"<tr{row}><td>{mark}</td><td>{e(action_text(review.game, c.action))}"
                         "</td>"
                         f"<td class='n'>{c.value:.3f}</td><td class='n'>{c.se:.3f}</td>"
                         f"<td class='n'>{c.p_best:.0%}</td></tr>")
        parts.append("</table>")
        if d.chosen != 0 and d.best.line:
            parts.append("<p class='muted'>the better line: " + e("; ".join(
                _act(review, x) for x in (d.best.action, *d.best.line))) + "</p>")
    parts.append("</body></html>")
    return "\n".join(parts)
