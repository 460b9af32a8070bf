"""The replay page's step keys and its copy-link button: one small Streamlit component
(``st.components.v2``) with its own key handler, so that no key press is lost.

Streamlit's button shortcuts rerun the script once per press, and a press that arrives while
a rerun is running is dropped (ten quick → presses moved three steps). Here the page's
JavaScript queues every press of Home, ←, →, End (each a move: ``"first"``, ``-1``, ``+1``,
``"last"``, numbered from 1 in the browser tab) and sends the queue as one trigger value,
which reruns the script once; while that batch is on its way, further presses wait in the
queue and go, all together, when the page comes back from the rerun with the number of the
last move it applied (the component's ``data``). Python applies each move in order, clamped
like a button press (``apply_moves``), and never a move twice (the numbers), so every press
counts exactly once however fast they come. The keys do nothing while a text box, a select
box, the slider (which moves by itself on ← / →), a data frame's grid or anything editable has
the focus, nor with Ctrl, Alt or Meta held, nor on another page; a focused button (one just
clicked) does not stop them.

The same component draws "copy link": it copies the address of this moment — this page with
``game``, ``step`` and ``view`` — to the clipboard (``data-url`` holds it; the text is set as
text, never parsed as HTML). Nothing from a log or the URL is ever part of the component's
HTML, CSS or JavaScript: they are constants; the game id comes as data and is put into the
address with ``URLSearchParams``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

KEYS = {"Home": "first", "ArrowLeft": -1, "ArrowRight": 1, "End": "last"}
Move = int | str      # a step delta, or "first" / "last"

HTML = """<span class="lj-steps" data-lj-steps="1"><button type="button" class="lj-copy"
title="Copy the address of this moment (game, step and view) to the clipboard">copy link
</button><span class="lj-copied" aria-live="polite"></span></span>"""

CSS = """
.lj-steps{display:inline-flex;align-items:center;gap:.4rem;white-space:nowrap}
.lj-copy{font:inherit;font-size:.9rem;padding:.3rem .7rem;border-radius:.5rem;cursor:pointer;
 border:1px solid rgba(49,51,63,.2);background:#fff;color:#31333f;line-height:1.6}
.lj-copy:hover{border-color:#d97706;color:#b45309}
.lj-copied{font-size:.8rem;color:#166534}
""".strip()

JS = """
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const q = window.__ljSteps || (window.__ljSteps = {
    tab: Math.random().toString(36).slice(2) + Date.now().toString(36),
    n: 0, ops: [], sent: 0, sentAt: 0, send: null});
  const d = data || {};
  const applied = d.tab === q.tab ? (d.applied || 0) : 0;
  q.ops = q.ops.filter(o => o[0] > applied);
  if (applied >= q.sent) q.sent = 0;            // the batch on its way has arrived
  q.send = () => {
    if (!q.ops.length || (q.sent && Date.now() - q.sentAt < 4000)) return;
    q.sent = q.ops[q.ops.length - 1][0];
    q.sentAt = Date.now();
    setTriggerValue("moves", {tab: q.tab, ops: q.ops.slice()});
  };
  if (!q.listening) {
    q.listening = true;
    const keys = {Home: "first", ArrowLeft: -1, ArrowRight: 1, End: "last"};
    document.addEventListener("keydown", (ev) => {
      if (!(ev.key in keys) || ev.ctrlKey || ev.altKey || ev.metaKey || ev.defaultPrevented)
        return;
      if (!document.querySelector("[data-lj-steps]")) return;      // not the replay page
      const t = ev.target;
      if (t && t.closest && t.closest(
          'input,textarea,select,[contenteditable=""],[contenteditable="true"],' +
          '[role="slider"],[role="combobox"],[role="listbox"],[role="textbox"],' +
          '[role="grid"],[role="tab"]')) return;
      ev.preventDefault();
      q.n += 1;
      q.ops.push([q.n, keys[ev.key]]);
      if (q.send) q.send();
    }, true);
  }
  q.send();                                      // presses queued during the rerun
  const root = parentElement.querySelector(".lj-steps");
  const button = root.querySelector(".lj-copy");
  const done = root.querySelector(".lj-copied");
  const params = new URLSearchParams(d.query || {});
  const url = location.origin + location.pathname + "?" + params.toString();
  button.dataset.url = url;
  button.onclick = async () => {
    let ok = false;
    try { await navigator.clipboard.writeText(url); ok = true; } catch (e) {
      const ta = document.createElement("textarea");
      ta.value = url; ta.setAttribute("readonly", ""); ta.style.position = "fixed";
      ta.style.opacity = "0"; document.body.appendChild(ta); ta.select();
      try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
      ta.remove();
    }
    button.dataset.copied = ok ? url : "";
    done.textContent = ok ? "copied" : "copy failed: the address bar holds the link";
  };
}
"""

_component: Callable[..., Any] | None = None


def _steps_component() -> Callable[..., Any]:
    global _component
    if _component is None:
        _component = st.components.v2.component("liujia_replay_steps", html=HTML, css=CSS,
                                                js=JS, isolate_styles=False)
    return _component


def apply_moves(step: int, moves: Sequence[Move], last: int,
                stops: Sequence[int] | None = None) -> int:
    """The step after these moves, each applied like a button press: ``"first"`` / ``"last"``
    jump, a number steps, clamped to 0 … ``last``; with ``stops`` (the log's seqs a seat saw
    happen) a move goes from stop to stop, starting from the last stop at or before ``step``."""
    if stops:
        i = max(0, bisect_right(stops, step) - 1)
        for m in moves:
            i = 0 if m == "first" else len(stops) - 1 if m == "last" else i + int(m)
            i = max(0, min(len(stops) - 1, i))
        return stops[i]
    for m in moves:
        step = 0 if m == "first" else last if m == "last" else step + int(m)
        step = max(0, min(last, step))
    return step


def new_moves(value: Any, tab: str | None, applied: int) -> tuple[str | None, list[Move], int]:
    """Of a batch the browser sent (``{"tab": …, "ops": [[n, move], …]}``), the moves not
    applied yet: (the tab's id, the moves in order, the number of the last one). A new tab
    (a reload) numbers from 1 again; anything malformed is no move."""
    if not isinstance(value, dict) or not isinstance(value.get("tab"), str):
        return tab, [], applied
    if value["tab"] != tab:
        tab, applied = value["tab"], 0
    moves: list[Move] = []
    for op in value.get("ops") or []:
        if not (isinstance(op, list) and len(op) == 2 and type(op[0]) is int):
            continue
        n, m = op
        if n <= applied or not (m in ("first", "last") or m in (-1, 1)):
            continue
        moves.append(m)
        applied = n
    return tab, moves, applied


def render(where: Any, *, key: str, step_key: str, step: int, last: int,
           stops: Sequence[int] | None, query: dict[str, str]) -> None:
    """Mount the keys and the copy-link button in ``where`` as the page's last element, so
    that the browser hears back only when the rerun is done. ``step_key`` is the session
    state key of the step, ``step`` the step shown; ``query`` the address of this moment
    (game, step, view).

    The moves start from the step this page last showed (or the moves last applied put it
    at), kept here, not from the slider's value that comes with them: the browser may send
    a batch before its slider took the step of the rerun that has just drawn it."""
    ss = st.session_state
    tab_key, applied_key, at_key = f"{key}_tab", f"{key}_applied", f"{key}_at"
    ss[at_key] = step

    def on_moves() -> None:
        value = (ss.get(key) or {}).get("moves")
        tab, moves, applied = new_moves(value, ss.get(tab_key), int(ss.get(applied_key, 0)))
        ss[tab_key], ss[applied_key] = tab, applied
        if moves:
            base = ss.get(at_key, ss.get(step_key, 0))
            ss[step_key] = ss[at_key] = apply_moves(int(base), moves, last, stops)

    with where:
        _steps_component()(key=key, data={"tab": ss.get(tab_key), "applied":
                                          int(ss.get(applied_key, 0)), "query": query},
                           on_moves_change=on_moves, width="content")
