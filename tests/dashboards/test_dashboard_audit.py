"""The audit page (``/audit?game=ID&seq=N``) under Streamlit's AppTest, against the tiny
warehouse; and the replay page's "audit this step" link to it."""

from __future__ import annotations

from html import unescape
from pathlib import Path

from streamlit.testing.v1 import AppTest

from engine.replay import Replay

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
TIMEOUT = 60


def _page(page: str, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _report(at: AppTest) -> str:
    (body,) = [h.proto.body for h in at.html if "lj-audit" in h.proto.body]
    return body


def _notes(at: AppTest) -> str:
    return unescape("\n".join(h.proto.body for h in at.html if "lj-note" in h.proto.body))


def _a_play(events):
    rp = Replay(events)
    return next(e for e in events[1:] if e.kind == "PLAY"
                and rp.game.to_move(rp.state_at(e.seq - 1)) == e.seat)


def test_the_audit_page_shows_the_report_at_a_step(app_db, dash_games):
    events = dash_games[0]
    e = _a_play(events)
    gid = events[0].game_id
    at = _page("audit", game=gid, seq=str(e.seq))
    assert at.title[0].value == "Audit"
    assert at.text_input(key="au_game").value == gid
    assert at.text_input(key="au_seq").value == str(e.seq)
    body = _report(at)
    assert f"Audit of game {gid}" in body and "No problem found" in body
    assert f"seq {e.seq} at " in body and 'class="chosen"' in body
    players = Replay(events).final.players
    for k, p in enumerate(players):                  # every seat's view, and the auditor's
        assert f"seat {k} ({p})" in body
    assert "auditor (every card)" in body
    assert "the logged result is the one the engine recomputes" in body
    assert body.count("needs the original log file") == 3     # seal, signature, file chain
    assert "recomputed from the warehouse" in body and "<script" not in body
    assert "the seal, the signature and the file chain need the original log file" in \
        _notes(at)
    assert at.query_params["game"] == gid and at.query_params["seq"] == str(e.seq)


def test_the_audit_page_without_a_game_or_with_an_unknown_one(app_db):
    at = _page("audit")
    assert "Enter a game id" in _notes(at) and not [h for h in at.html
                                                     if "lj-audit" in h.proto.body]
    at = _page("audit", game="keng-nope", seq="3")
    assert "Game keng-nope is not in the warehouse." in _notes(at)


def test_a_step_outside_the_game_is_said_and_the_report_still_shown(app_db, dash_games):
    gid = dash_games[1][0].game_id
    at = _page("audit", game=gid, seq="99999")
    assert "--seq 99999 is outside 1-" in _notes(at)
    assert f"Audit of game {gid}" in _report(at)
    at = _page("audit", game=gid, seq="abc")
    assert "is not a number" in _notes(at)


def test_the_replay_page_links_to_the_audit_of_its_step(app_db, dash_games):
    gid = dash_games[0][0].game_id
    at = _page("replay", game=gid, step="12", view="auditor")
    (link,) = [n.proto for n in _walk(at._tree) if getattr(n, "type", "") == "page_link"]
    assert link.label == "audit this step (seq 12)" and link.page == "audit"
    assert link.query_string == f"game={gid}&seq=12"


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def test_the_audit_page_needs_a_warehouse(tmp_path, monkeypatch):
    monkeypatch.setenv("LIUJIA_DB", str(tmp_path / "nothing.duckdb"))
    at = _page("audit", game="x")
    assert "No warehouse at" in _notes(at)
