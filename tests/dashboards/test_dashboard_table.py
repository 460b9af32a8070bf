"""The table HTML renderer: faces, colours, escaping, perspectives, and what each seat may see."""

from __future__ import annotations

import re

import pytest

from dashboards.table import (
    MANY_CARDS,
    SEAT_AREAS,
    TABLE_CSS,
    card_html,
    cards_html,
    centre_html,
    perspective_label,
    seat_html,
    table_html,
)
from engine.events import Event
from engine.games import GAMES, find_game, keng
from engine.replay import Replay
from engine.table import SeatModel, TableModel, generic_describe


def _panel(html: str, seat: int) -> str:
    """The HTML of one seat's panel."""
    start = html.index(f'data-seat="{seat}"')
    ends = [i for i in (html.find('data-seat="', start + 10), html.find("lj-centre", start))
            if i >= 0]
    return html[start:min(ends)]


@pytest.mark.parametrize(("face", "shown", "red"), [
    ("Th", "T♥", True), ("2d", "2♦", True), ("RJ", "RJ", True),
    ("As", "A♠", False), ("Kc", "K♣", False), ("BJ", "BJ", False),
])
def test_card_faces_and_colours(face, shown, red):
    html = card_html(face)
    assert f">{shown}</span>" in html
    assert ("lj-red" in html) is red
    assert f'data-face="{face}"' in html


def test_unknown_face_is_escaped_not_interpreted():
    html = card_html("<b>x</b>")
    assert "<b>" not in html and "&lt;b&gt;" in html


def test_empty_cards_placeholder():
    assert "no cards" in cards_html([], empty="no cards")


def test_player_ids_and_result_text_are_escaped(replay):
    view = keng.view(replay.final, None)
    view["result"] = dict(view["result"], reason="<img src=x onerror=alert(1)>")
    evil = ["<script>alert('p0')</script>", "a&b", "x", "y", "z", '"q"']
    html = table_html("keng", view, evil)
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html and "a&amp;b" in html and "&quot;q&quot;" in html


def test_auditor_sees_every_hand(replay):
    s = replay.state_at(40)
    html = table_html("keng", keng.view(s, None), s.players)
    for seat in range(6):
        panel = _panel(html, seat)
        assert panel.count('class="lj-card') == len(s.hands[seat])
        assert "lj-back" not in panel
    assert "auditor (all cards)" in html


@pytest.mark.parametrize("seat", range(6))
def test_seat_view_hides_other_hands_at_every_step(replay, seat):
    for step in range(0, len(replay), 7):
        s = replay.state_at(step)
        html = table_html("keng", keng.view(s, seat), s.players)
        for other in range(6):
            panel = _panel(html, other)
            if other == seat:
                assert panel.count('class="lj-card') == len(s.hands[seat])
            else:
                assert 'class="lj-card' not in panel, (step, other)
                assert f"× {len(s.hands[other])}" in panel


def test_seat_view_puts_the_seat_at_the_bottom(replay):
    s = replay.state_at(30)
    for seat in range(6):
        html = table_html("keng", keng.view(s, seat), s.players)
        assert re.search(rf'data-seat="{seat}" class="[^"]*" style="grid-area:bottom"', html)
        assert "lj-me" in _panel(html, seat)
    html = table_html("keng", keng.view(s, None), s.players)
    for seat in range(6):
        assert f'style="grid-area:{SEAT_AREAS[6][seat]}"' in _panel(html, seat)


def test_centre_shows_top_direction_stock_cycle_and_turn(replay):
    s = replay.state_at(len(replay) // 2)
    v = keng.view(s, 1)
    html = centre_html("keng", v)
    for face in v["top"]["cards"]:
        assert f'data-face="{face}"' in html
    assert f"stock {len(s.stock)}" in html
    assert f"cycle {s.cycle}" in html
    assert ("↺" if s.direction == 1 else "↻") in html
    to_act = s.duel.to_act if s.duel else s.to_act
    assert f"seat {to_act} to act" in html
    assert "▶ seat" in _panel(table_html("keng", v, s.players), to_act)


def test_pending_draw_and_duel_are_shown(dash_games):
    found_p = found_duel = False
    for events in dash_games:
        rp = Replay(events)
        for step in range(len(rp)):
            s = rp.state_at(step)
            html = centre_html("keng", keng.view(s, None))
            if s.pending and not found_p:
                assert f"pending draw: {s.pending} cards for seat {s.to_act}" in html
                found_p = True
            if s.duel is not None and not found_duel:
                assert f"seat {s.duel.challenger} (challenger)" in html
                found_duel = True
    assert found_p and found_duel


def test_finished_game_shows_the_result(replay):
    s = replay.final
    html = table_html("keng", keng.view(s, 0), s.players)
    r = s.result
    assert f"game over: {r['reason']}" in html
    if r["winning_team"]:
        assert f"{r['winning_team']} won" in html
        for seat in range(6):
            won = (seat % 2 == 0) == (r["winning_team"] == "even")
            panel = _panel(html, seat)
            assert ("lj-won" in panel) == won and ("lj-lost" in panel) == (not won)
            assert (f"score {'+1' if won else '−1'}") in panel
    else:
        assert "draw" in html
        assert all('data-result="draw"' in _panel(html, seat) for seat in range(6))


def test_perspective_label():
    assert perspective_label({"perspective": "auditor"}) == "auditor (all cards)"
    assert perspective_label({"perspective": 3}) == "seat 3 (own cards only)"


def test_start_of_game_has_no_top_card(replay):
    s = replay.state_at(0)
    html = table_html("keng", keng.view(s, None), s.players)
    assert "no card on the table yet" in html


# ---------------------------------------------------------------- dispatch, generic table

def test_every_game_declares_its_table_and_words(replay):
    for game_id in GAMES:
        g = find_game(game_id)
        assert callable(g.table) and callable(g.describe), game_id
    s = replay.state_at(40)
    m = keng.GAME.table(keng.view(s, None), s.players)
    assert isinstance(m, TableModel) and [x.seat for x in m.seats] == list(range(6))
    assert [x.name for x in m.seats] == list(s.players)


def test_generic_table_shows_hands_teams_and_hides_other_seats(replay):
    s = replay.state_at(40)          # a game id nobody registered draws the generic table
    html = table_html("no-such-game", keng.view(s, None), s.players)
    for seat in range(6):
        panel = _panel(html, seat)
        assert panel.count('class="lj-card') == len(s.hands[seat])
        assert f'data-side="{keng.team_of(seat)}"' in panel
    for seat in range(6):
        html = table_html("no-such-game", keng.view(s, seat), s.players)
        assert re.search(rf'data-seat="{seat}" class="[^"]*" style="grid-area:bottom"', html)
        for other in range(6):
            panel = _panel(html, other)
            assert ('class="lj-card' in panel) == (other == seat and bool(s.hands[seat]))
    assert f"seat {s.to_act} to act" in centre_html("no-such-game", keng.view(s, 2))


def test_generic_table_escapes_and_survives_odd_views():
    view = {"game": "<b>nope</b>", "perspective": 9, "phase": "<i>x</i>",
            "hands": [["Th", "<x>"], 3], "note": "<script>", "deck": ["As"] * 100}
    html = table_html("no-such-game", view, ["<p0>"])
    assert "<script>" not in html and "<p0>" not in html and "<i>x" not in html
    assert "&lt;script&gt;" in html and "deck: 100 cards" in html
    assert generic_describe(Event("GAME_END", tag="t")) == "game over: t"


def test_a_preview_face_has_no_data_attribute_and_big_hands_are_drawn_smaller():
    assert 'data-face="Th"' not in card_html("Th", data=False)
    assert "T♥" in card_html("Th", data=False) and "lj-red" in card_html("Th", data=False)
    big = seat_html(SeatModel(0, "p", ("Th",) * (MANY_CARDS + 1)))
    small = seat_html(SeatModel(0, "p", ("Th",) * MANY_CARDS))
    assert 'class="lj-hand lj-many"' in big and big.count('data-face="Th"') == MANY_CARDS + 1
    assert 'class="lj-hand"' in small and "lj-many" not in small
    assert ".lj-many .lj-card{" in TABLE_CSS


def test_the_perspective_line_comes_under_the_seats(replay):
    html = table_html("keng", replay.game.view(replay.state_at(5), 2), replay.final.players)
    assert html.index('data-seat="') < html.index('class="lj-perspective"')
    assert "seat 2 (own cards only)" in html[html.index('class="lj-perspective"'):]
