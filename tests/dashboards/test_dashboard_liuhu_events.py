"""The 扑克六湖 event list for a seat (dashboards.events): another seat's RESPOND and an AWARD that
executes nothing are not listed at all (LH-70: who was eligible and who passed), the auditor's
list has every event, every row keeps the log's seq (a seat's also its own count, "seen"), and
the highlighted window around a step works by seq."""

from __future__ import annotations

import re

import pytest

from dashboards.events import AUDITOR, event_rows, events_html, row_index
from engine.games import liuhu as lh
from engine.sim import simulate


@pytest.fixture(scope="module")
def game():
    """A seeded random hand with several claim windows that seats answered."""
    for sim in simulate("liuhu", 20, seed=5):
        if sum(e.kind == "RESPOND" for e in sim.events) >= 6:
            return sim.events
    raise AssertionError("no hand with answered windows")


def test_a_seats_rows_leave_out_the_others_answers(game):
    players = [f"p{i}" for i in range(6)]
    audit = event_rows(game, AUDITOR, players)
    assert [r["seq"] for r in audit] == [e.seq for e in game]
    for seat in range(6):
        rows = event_rows(game, seat, players)
        assert [r["at"] for r in rows] == [e.seq for e in game if not lh.event_hidden(e, seat)]
        assert [r["seq"] for r in rows] == [r["at"] for r in rows]   # the log's seq
        assert [r["seen"] for r in rows] == list(range(1, len(rows) + 1))   # and its count
        assert not any(r["kind"] == "RESPOND" and r["seat"] != seat for r in rows)
        assert sum(r["kind"] == "RESPOND" for r in rows) == sum(
            e.kind == "RESPOND" and e.seat == seat for e in game)
        assert len(rows) < len(audit)


def test_the_window_of_a_seats_list_never_shows_a_later_event(game):
    seat = next(e.seat for e in game if e.kind == "RESPOND")
    other = (seat + 1) % 6
    rows = event_rows(game, other, [])
    hidden = next(e.seq for e in game if e.kind == "RESPOND" and e.seat == seat)
    at = row_index(rows, hidden)
    assert rows[at]["at"] < hidden and rows[at + 1]["at"] > hidden
    html = events_html(rows, hidden, future=False)
    listed = [int(s) for s in re.findall(r'data-seq="(\d+)"', html)]
    assert listed == [r["at"] for r in rows if listed[0] <= r["at"] <= rows[at]["at"]]
    assert re.search(rf'class="lj-now" data-seq="{rows[at]["seq"]}"', html)
