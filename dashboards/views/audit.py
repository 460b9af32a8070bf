"""Audit page: the audit report of one game of the warehouse (``?game=ID&seq=N``), the same as
``liujia audit`` gives for a log file (engine.audit), shown as its escaped HTML.

The warehouse keeps a game's events with their digests, not the log file: the chain and the
commitment are checked here; the file's seal, its signature and the file chain need the
original log file (``liujia audit LOG --game ID``), which the report says. Values from the
URL and the warehouse are shown as plain text (``ui.note``) or escaped HTML, never Markdown.
"""

from __future__ import annotations

import re

import streamlit as st

from dashboards import data, ui
from engine.audit.html import report_fragment, report_html
from engine.audit.report import AuditError, build_report
from warehouse.anchors import load as load_anchors

ss = st.session_state
GAME, SEQ, URL = "au_game", "au_seq", "au_url"


def parse_seq(text: str | None) -> int | None:
    """A disputed step from its URL or box form: None when empty or not a number."""
    t = (text or "").strip()
    return int(t) if t.isascii() and t.isdigit() and len(t) <= 7 else None


def sync_from_url() -> None:
    """Take the game and the step from the URL when it changed from outside (a link)."""
    url = (st.query_params.get("game"), st.query_params.get("seq"))
    if ss.get(URL) == url:
        return
    ss[GAME] = url[0] or ""
    ss[SEQ] = url[1] or ""
    ss[URL] = url


def write_url(game: str, seq: str) -> None:
    """Put the game and step shown in the URL (so that the page can be shared)."""
    want = (game or None, seq or None)
    if (st.query_params.get("game"), st.query_params.get("seq")) != want:
        st.query_params.from_dict({k: v for k, v in (("game", game), ("seq", seq)) if v})
    ss[URL] = want


def file_name(game_id: str) -> str:
    """The download's file name: the game id with anything but letters, digits, '.', '_'
    and '-' replaced."""
    return "audit-" + re.sub(r"[^A-Za-z0-9._-]", "_", game_id)[:80] + ".html"


def main() -> None:
    """The page: the game and step boxes, then the report."""
    st.title("Audit")
    ui.require_warehouse()
    sync_from_url()
    left, right = st.columns([3, 1])
    game_id = left.text_input("Game id", key=GAME, placeholder="a game id of the warehouse")
    seq_text = right.text_input("Disputed step (seq)", key=SEQ,
                                placeholder="empty: the first illegal event")
    write_url(game_id.strip(), seq_text.strip())
    if not game_id.strip():
        ui.note("Enter a game id, or open this page from a replay step's \"audit this step\" "
                "link.", "info")
        st.stop()
    seq = parse_seq(seq_text)
    if seq_text.strip() and seq is None:
        ui.note(f"The step {seq_text!r} is not a number: showing the game without one.",
                "warning")
    rp = ui.load(data.replay, game_id.strip())
    if rp is None:
        ui.note(f"Game {game_id} is not in the warehouse.", "error")
        st.stop()
    where = data.db_path()
    anchors = (str(where), load_anchors(where)[0])     # the warehouse's own, kept by ingest
    try:
        try:
            report = build_report(rp.events, seq=seq, source="warehouse", anchors=anchors)
        except AuditError as exc:
            ui.note(str(exc), "error")
            report = build_report(rp.events, source="warehouse", anchors=anchors)
    except Exception as exc:  # noqa: BLE001 - an engine bug: said in one line, the page goes on
        ui.note(f"The engine failed while auditing this game ({type(exc).__name__}: {exc}).",
                "error")
        st.stop()
    ui.note("From the warehouse's copy of the game: the chain, the commitment and the anchor "
            "are checked here; the seal, the signature and the file chain need the original log file "
            f"(liujia audit LOG --game {game_id.strip()}).", "caption")
    st.download_button("Download the report (HTML)", report_html(report),
                       file_name=file_name(report["game_id"]), mime="text/html",
                       key="au_download")
    st.html(report_fragment(report))


main()
