"""The event list: details, what each perspective may see, the highlighted window, escaping."""

from __future__ import annotations

import pytest

from dashboards.events import (
    AUDITOR,
    can_see_cards,
    event_detail,
    event_line_html,
    event_rows,
    events_html,
    events_text_rows,
)
from engine.cards import format_face
from engine.events import Event


def test_auditor_sees_every_card(replay):
    rows = event_rows(replay.events, AUDITOR)
    for e, r in zip(replay.events, rows, strict=True):
        assert r["cards"] == [format_face(c) for c in e.cards]
        assert r["hidden"] == 0


@pytest.mark.parametrize("seat", range(6))
def test_a_seat_never_sees_another_seats_private_cards(replay, seat):
    rows = event_rows(replay.events, seat, replay.final.players)
    for e, r in zip(replay.events, rows, strict=True):
        if e.kind in ("GAME_START", "RESHUFFLE"):
            assert r["cards"] == [] and r["hidden"] == len(e.cards)
        elif e.kind in ("DEAL", "DRAW", "ACCEPT", "DUEL_END", "REPORT_PENALTY",
                        "SNATCH_PENALTY") and e.seat != seat:
            assert r["cards"] == [] and r["hidden"] == len(e.cards), e.describe()
        else:
            assert r["cards"] == [format_face(c) for c in e.cards], e.describe()
        assert r["player"] == (replay.final.players[e.seat] if e.seat >= 0 else "")


def test_unknown_event_kinds_are_private_to_their_seat():
    e = Event("SOMETHING_NEW", seat=2, cards=(1, 2), seq=5)
    assert can_see_cards(e, AUDITOR, "keng") and can_see_cards(e, 2, "keng")
    assert not can_see_cards(e, 3, "keng")
    assert event_detail(Event("X", target=1, value=4, tag="t"), "keng") == "target 1 value 4 t"


def test_details(replay):
    by_kind = {}
    for e in replay.events:
        by_kind.setdefault(e.kind, e)

    def detail(e):
        return event_detail(e, "keng")

    assert "opener seat" in detail(by_kind["GAME_START"])
    assert "cards dealt" in detail(by_kind["DEAL"])
    assert detail(by_kind["GAME_END"]).startswith(by_kind["GAME_END"].tag)
    if "DUEL_START" in by_kind:
        e = by_kind["DUEL_START"]
        assert detail(e) == f"duel: seat {e.seat} challenges seat {e.target}"
    assert detail(Event("PLAY", seat=1, cards=(53,), value=1)) == "names suit ♥"
    assert detail(Event("COUNT", seat=1, target=2, value=9)) == "counts seat 2: 9 cards"


def test_window_highlights_the_current_event(replay):
    rows = event_rows(replay.events)
    cur = len(rows) // 2
    html = events_html(rows, cur, before=3, after=4)
    assert html.count("<tr data-seq=") + html.count('<tr class="lj-now"') == 8
    assert f'<tr class="lj-now" data-seq="{cur}">' in html
    assert f"▶ {cur}</td>" in html
    assert f"… {cur - 3} earlier events" in html
    assert f"… {len(rows) - cur - 5} later events" in html
    first = events_html(rows, 0, before=3, after=4)
    assert "earlier events" not in first and '<tr class="lj-now" data-seq="0">' in first


def test_event_html_is_escaped():
    rows = [{"seq": 0, "seat": 1, "player": "<b>bob</b>", "kind": "<i>K</i>", "cards": ["Th"],
             "hidden": 0, "detail": "a<b"}]
    html = events_html(rows, 0) + event_line_html(rows[0], 0)
    assert "<b>bob" not in html and "&lt;b&gt;bob" in html
    assert "<i>K" not in html and "a&lt;b" in html
    assert "T♥" in html


def test_text_rows_use_suit_symbols_and_hide(replay):
    rows = events_text_rows(event_rows(replay.events, 0))
    deal_other = next(r for r in rows if r["kind"] == "DEAL" and r["seat"] != 0)
    assert deal_other["cards"].endswith("hidden")
    play = next(r for r in rows if r["kind"] == "PLAY")
    assert any(sym in play["cards"] for sym in "♠♥♣♦") or play["cards"] in ("BJ", "RJ")
