"""The neutral table model and its two renderers: every part drawn in text and in HTML, every
string of the model escaped in HTML, the layout following the viewer and the turn order."""

from __future__ import annotations

import re

from dashboards.table import SEAT_AREAS, model_html
from engine.table import (
    Badge,
    Faces,
    Grid,
    Group,
    Hidden,
    Line,
    SeatModel,
    SeatOutcome,
    Suit,
    TableModel,
    Text,
    base_seat,
    line,
    text_table,
)

EVIL = '<img src=x onerror="alert(1)">'


def _model(**kw) -> TableModel:
    seats = tuple(SeatModel(i, f"p{i}", ("As", "Th") if i == 0 else 3) for i in range(4))
    base = {"title": "T", "game_id": "g-1", "seq": 8, "perspective": None, "seats": seats}
    base.update(kw)
    return TableModel(**base)


def test_every_part_in_text():
    ln = line("top ", ["Th", "BJ"], " suit ", Suit("h"), " ", Hidden(3), " ", Text("N = 7"),
              " ", Badge("landlord", "amber"), kind="top", title="top play")
    m = _model(centre=(ln, line("x", kind="pending"),
                       Grid("split", ("a", "b"), ((("1",), (Faces(("As",)),)),))))
    text = text_table(m)
    assert "top play: top T♥ BJ suit ♥ 3 hidden cards N = 7 [landlord]" in text
    assert "\n! x\n" in text
    assert "split\n  a  b\n  1  A♠" in text
    assert text.splitlines()[0] == "T g-1  after seq 7  view: auditor (all cards)"
    assert " seat 0 p0   2: A♠ T♥" in text and " seat 1 p1  3 cards (hidden)" in text


def test_seats_in_text_mark_the_turn_badges_groups_notes_flags_and_outcome():
    s = SeatModel(2, "p2", ("Kd",), badges=(Badge("even", "blue", "even"),), to_act=True,
                  outcome=SeatOutcome("win", 1, 3), flags=("burning",),
                  groups=(Group("peng", ("Kd", "Kd"), note="from seat 1", face_down=1),),
                  notes=(line("chips 5"),))
    text = text_table(_model(seats=(s,)))
    assert " ▶ seat 2 [even] p2   1: K♦  won · place 1 · score +3   (burning)" in text
    assert "peng: K♦ K♦ + 1 face down  from seat 1" in text and "chips 5" in text


def test_every_string_is_escaped_in_html():
    s = SeatModel(0, EVIL, (EVIL,), badges=(Badge(EVIL, side=EVIL),), flags=(EVIL,),
                  groups=(Group(EVIL, (EVIL,), note=EVIL, data=(("x", EVIL),)),),
                  notes=(line(EVIL, Text(EVIL)),), data=(("y", EVIL),))
    m = _model(game_id=EVIL, seats=(s,), centre=(
        Line((EVIL, Faces((EVIL,)), Badge(EVIL)), title=EVIL, data=(("z", EVIL),)),
        Grid(EVIL, (EVIL,), (((EVIL,),),), row_data=((("r", EVIL),),))))
    html = model_html(m)
    assert "<img" not in html and EVIL not in html
    assert html.count("&lt;img") >= 12


def test_parts_in_html():
    m = _model(centre=(line(Suit("d"), Suit("s"), Hidden(4), Hidden(None), Text("7", "small"),
                            Faces(("Th",), counted=False)),
                       Grid("", ("seat",), ((("0",),),), row_data=((("seat", "0"),),))))
    html = model_html(m)
    assert 'class="lj-suit-red" title="diamonds">♦' in html and 'title="spades">♠' in html
    assert "🂠 × 4" in html and "🂠 hidden" in html and '<span class="lj-small">7</span>' in html
    assert 'data-face="Th"' not in html.split('class="lj-centre"')[1]      # a preview
    assert '<tr data-seat="0"><td>0</td></tr>' in html


def test_group_cards_face_down_and_uncounted():
    s = SeatModel(0, "p", 2, groups=(Group("an gang", ("5h",), face_down=3),
                                     Group("last", ("Qs",), counted=False)))
    html = model_html(_model(seats=(s,)))
    assert html.count('data-face="5h"') == 1 and "🂠 × 3" in html
    assert 'data-face="Qs"' not in html and "Q♠" in html


def test_layout_puts_the_viewer_at_the_bottom_and_follows_the_turn_order():
    for step in (1, -1):
        for viewer in range(4):
            m = _model(perspective=viewer, turn_step=step)
            html = model_html(m)
            for seat in range(4):
                want = SEAT_AREAS[4][((seat - viewer) * step) % 4]
                assert re.search(rf'data-seat="{seat}" class="[^"]*" style="grid-area:{want}"',
                                 html), (step, viewer, seat)


def test_base_seat_reads_the_common_view_keys():
    view = {"players": ["a", "b"], "hands": [["As"], 5], "to_act": 1, "perspective": 0,
            "sides": ["even", None], "outcomes": [{"result": "loss", "score": -1},
                                                  {"result": "win", "score": 1}]}
    s0 = base_seat(view, 0, "a", {"even": "blue"})
    s1 = base_seat(view, 1, "b")
    assert s0.hand == ("As",) and s0.me and not s0.to_act and s0.tone == "blue"
    assert s0.badges == (Badge("even", "blue", "even"),) and s0.outcome == SeatOutcome("loss", None, -1)
    assert s1.hand == 5 and s1.to_act and not s1.me and s1.badges == ()
