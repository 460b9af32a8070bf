"""The event list: details, what each perspective may see, the highlighted window, escaping."""

from __future__ import annotations

import pytest

from dashboards.events import (
    AUDITOR,
    FOLD_OVER,
    FOLD_PREVIEW,
    can_see_cards,
    event_cards_html,
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


# ---------------------------------------------------------------- long card lists folded

def _deck_row(n: int = 216, kind: str = "GAME_START") -> dict:
    faces = [format_face(c % 54) for c in range(n)]
    return {"seq": 0, "seat": None, "player": "", "kind": kind, "cards": faces, "hidden": 0,
            "detail": f"deck of {n} cards"}


def test_a_long_card_list_is_folded_with_the_whole_list_inside():
    row = _deck_row()
    for html in (event_cards_html(row), event_line_html(row, 99), events_html([row], 0)):
        assert html.count('<details class="lj-fold"') == 1 and "<details open" not in html
        summary = html[html.index("<summary>"):html.index("</summary>")]
        assert "deck: 216 cards" in summary and "data-face" not in summary   # a preview only
        assert summary.count('class="lj-card') == FOLD_PREVIEW
        body = html[html.index('class="lj-fold-all"'):html.index("</details>")]
        assert body.count("data-face=") == 216 == html.count("data-face=")
        faces = [f.split('"')[0] for f in body.split('data-face="')[1:]]
        assert faces == row["cards"]                      # every face, in the deck's order


def test_short_lists_and_hidden_cards_are_not_folded():
    short = _deck_row(FOLD_OVER, "DEAL")
    assert "<details" not in event_cards_html(short)
    assert event_cards_html(short).count("data-face=") == FOLD_OVER
    assert "dealt: 13 cards" in event_cards_html(_deck_row(FOLD_OVER + 1, "DEAL"))
    assert "new stock: 40 cards" in event_cards_html(_deck_row(40, "RESHUFFLE"))
    assert "cards: 30 cards" in event_cards_html(_deck_row(30, "SOMETHING"))
    hidden = {**_deck_row(), "cards": [], "hidden": 216}
    assert "<details" not in event_cards_html(hidden) and "× 216" in event_cards_html(hidden)


def test_a_folded_list_is_escaped():
    row = {**_deck_row(20), "cards": ["<img src=x>"] * 20, "kind": "<b>K</b>"}
    html = event_line_html(row, 3) + events_html([row], 0)
    assert "<img" not in html and "&lt;img src=x&gt;" in html and "<b>K" not in html


def test_the_gouji_deal_is_folded_for_the_auditor_only(gouji_games):
    events = gouji_games[1]
    (deal,) = [i for i, e in enumerate(events) if e.kind == "DEAL"]
    n = len(events[deal].cards)
    auditor = event_rows(events, AUDITOR)[deal]
    assert n > FOLD_OVER and f"dealt: {n} cards" in event_cards_html(auditor)
    seat = event_rows(events, 2)[deal]
    assert "<details" not in event_cards_html(seat)


def test_the_replay_page_folds_the_deck_of_game_start(app_db, dash_games):
    from streamlit.testing.v1 import AppTest

    from tests.dashboards.test_replay_perspective import APP

    events = dash_games[2]
    gid, deck = events[0].game_id, [format_face(c) for c in events[0].cards]
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"game": gid, "step": "0", "view": "auditor"})
    at.run()
    at.switch_page("views/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    bodies = [h.proto.body for h in at.html if "lj-fold" in h.proto.body and "<details" in h.proto.body]
    assert len(bodies) == 2               # the current event above the table, and the list
    for body in bodies:
        fold = body[body.index('<details class="lj-fold"'):]
        fold = fold[:fold.index("</details>")]
        assert f"deck: {len(deck)} cards" in fold and len(deck) > 100
        assert [f.split('"')[0] for f in fold.split('data-face="')[1:]] == deck
    # a seat never sees the deck: a card back with its count, nothing to unfold
    at.selectbox(key="rp_view").set_value(3).run()
    assert not any("<details" in h.proto.body for h in at.html)
    assert any(f"× {len(deck)}" in h.proto.body for h in at.html if "lj-now-line" in h.proto.body)
