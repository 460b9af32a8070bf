"""Information (section 14, LH-69, LH-70): what each seat's view and each event as a seat saw
it show; the ring (LH-9) is the auditor's only."""

from __future__ import annotations

import json

from engine.cards import parse_face
from engine.events import NONE, Event
from engine.games import liuhu as lh
from engine.games.liuhu.describe import GROUP_TEXT
from engine.table import face_text
from tests.games.liuhu.conftest import act, auto, legal, play, playout, start, table
from tests.games.liuhu.test_claims import FILL14
from tests.games.liuhu.test_scoring import _fangchong


def test_ring_recorded_and_seen_by_the_auditor_only_lh9_lh70():
    e0 = start(4)
    s = lh.initial_state(e0)
    assert s.ring == e0.cards and len(e0.cards) == 208            # LH-9: R in full
    assert lh.seen_event(e0, None) == e0
    for seat in range(6):
        assert lh.seen_event(e0, seat).cards == () and not lh.cards_visible(e0, seat)
        assert "ring" not in lh.view(s, seat) and "wall" not in lh.view(s, seat)
    assert lh.view(s, None)["ring"][0] == lh.view(s, None)["ring"][0]
    assert len(lh.view(s, None)["ring"]) == 208


def test_deal_and_draws_are_private_lh70():
    s = lh.initial_state(start(5))
    deal = lh.auto_event(s)
    s = lh.apply(s, deal)
    for seat in range(6):
        part = lh.seen_event(deal, seat).cards
        assert tuple(sorted(part)) == s.hands[seat]
        v = lh.view(s, seat)
        assert v["hands"][seat] == [lh_face for lh_face in v["hands"][seat]]
        assert all(isinstance(v["hands"][i], int) for i in range(6) if i != seat)
    events, _ = playout(3, {})
    draw = next(e for e in events if e.kind == "DRAW")
    assert lh.seen_event(draw, draw.seat) == draw
    other = (draw.seat + 1) % 6
    assert lh.seen_event(draw, other).cards == () and lh.seen_event(draw, other).tag == "front"


def test_eligibility_and_passes_hidden_calls_public_lh69_lh70():
    s = table({0: "9s " + FILL14[3:], 3: "9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h"})
    s = lh.apply(s, act(s, "DISCARD", 0, "9s"))
    window = lh.auto_event(s)
    assert window.value == 1 << 3
    for seat in range(6):
        seen = lh.seen_event(window, seat)
        assert (seen.value, seen.payload, seen.cards) == (NONE, None, window.cards)
    s = lh.apply(s, window)
    assert "eligible" in lh.view(s, None)["window"]
    for seat in (0, 1, 2, 4, 5):
        v = lh.view(s, seat)
        assert "eligible" not in v["window"] and v["to_act"] is None and v["phase"] == "window"
    assert lh.view(s, 3)["to_act"] == 3
    answer = act(s, "RESPOND", 3, tag="pass")
    for seat in (0, 1, 2, 4, 5):
        seen = lh.seen_event(answer, seat)
        assert (seen.seat, seen.tag, seen.cards) == (NONE, "", ())
    assert lh.seen_event(answer, 3) == answer
    s = play(s, act(s, "RESPOND", 3, tag="peng"))
    assert lh.view(s, 1)["window"]["calls"] == ["3 peng"]        # public at the award
    s = play(s, legal(s)[0])
    assert lh.view(s, 1)["window"] is None                       # the 碰 is made
    assert lh.view(s, 1)["melds"][3][0]["cards"] == ["9s"] * 3   # melds are public


def test_a_window_nobody_can_claim_looks_like_one_somebody_passes_lh70():
    """After a discard's WINDOW a seat that cannot claim sees the same whether another seat
    could claim (and is answering) or nobody could (the window closed at once, the next
    draw owed): which seats were eligible is hidden (LH-70)."""
    fill = "Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h 4s"
    views = []
    for eligible in (True, False):
        s = table({0: "9s " + FILL14[3:], 3: ("9s 9s " if eligible else "7d Kd ") + fill[:-3]})
        s = lh.apply(s, act(s, "DISCARD", 0, "9s"))
        window = lh.auto_event(s)
        assert window.value == (1 << 3 if eligible else 0)
        s = lh.apply(s, window)
        assert lh.view(s, None)["phase"] == ("respond" if eligible else "draw")
        views.append({seat: {k: v for k, v in lh.view(s, seat).items()
                             if k in ("phase", "window", "to_act")} for seat in (1, 2, 4)})
    assert views[0] == views[1]
    assert views[1][1] == {"phase": "window", "to_act": None,
                           "window": {"kind": "discard", "card": "9s", "from": 0}}


def test_an_gang_shows_one_card_lh69():
    s = table({0: "9h 9h 9h 9h 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"})
    e = act(s, "AN_GANG", 0, "9h")
    assert e.cards == (parse_face("9h"),) and all(lh.cards_visible(e, x) for x in range(6))


def test_winner_shown_losers_hidden_lh69_lh70():
    s = _fangchong()
    s = auto(lh.apply(s, legal(s)[0]))
    v = lh.view(s, 0)
    assert isinstance(v["hands"][4], list) and len(v["hands"][4]) == 8   # with the 8c
    assert all(isinstance(v["hands"][i], int) for i in (1, 2, 3, 5))
    assert v["wins"][0]["total"] == 21 and v["wins"][0]["split"]["total"] == 21
    assert v["result"]["changes"][1] == -21                               # payments public
    json.dumps(lh.view(s, None))


def test_after_liuju_all_hands_hidden_lh70():
    events, s = playout(1, {"decks": 2, "hands": 1, "min_hu": 99})
    assert lh.result(s)["reason"] == "liuju"
    for seat in range(6):
        v = lh.view(s, seat)
        assert all(isinstance(v["hands"][i], int) for i in range(6) if i != seat)
    assert lh.GAME.render(s, 2).count("cards (hidden)") == 5 and "流局" in lh.GAME.render(s)


# ---------------------------------------------------------------- who was eligible (LH-70)

ELIGIBLE_3 = {                                   # seat 0 discards 9s; min_hu 0
    0: "9s " + FILL14[3:],
    1: "8s Ts Ah 4h 7h Kh Ac 4c 7c Kc Ad 4d 7d",   # 吃 8s 9s Ts (the next player)
    3: "9s 9s Ah 4h 7h Kh Ac 4c 7c Kc Ad 4d 7d",   # 碰
    5: "2s 3s 4s 5h 6h 7h 9c Tc Jc 3d 4d 5d 9d",   # 胡: 9s 9d the pair
}


def _window_events(hands: dict[int, str]) -> tuple[list[Event], list, list[int]]:
    """Seat 0 discards 9s and every eligible seat passes: the events from the DISCARD to the
    next DRAW, the states after each, and the eligible seats."""
    s = table(hands, options={"min_hu": 0})
    events, states = [], []
    e = act(s, "DISCARD", 0, "9s")
    while True:
        s = lh.apply(s, e)
        events.append(e)
        states.append(s)
        if e.kind == "DRAW":
            break
        e = lh.auto_event(s) or act(s, "RESPOND", lh.to_move(s), tag="pass")
    eligible = [seat for seat in range(6) if events[1].value >> seat & 1]
    return events, states, eligible


def _as_seen(events: list[Event], seat: int) -> list[tuple]:
    return [lh.seen_event(e, seat)[:6] for e in events if not lh.event_hidden(e, seat)]


def test_a_seat_never_sees_another_seats_answer_lh70():
    events, _, eligible = _window_events(ELIGIBLE_3)
    assert eligible == [1, 3, 5]
    assert [e.kind for e in events] == ["DISCARD", "WINDOW", "RESPOND", "RESPOND", "RESPOND",
                                        "AWARD", "DRAW"]
    assert not any(lh.event_hidden(e, None) for e in events)          # the auditor: all
    for seat in range(6):
        seen = [e for e in events if not lh.event_hidden(e, seat)]
        assert [e.seat for e in seen if e.kind == "RESPOND"] == ([seat] if seat in eligible
                                                                  else [])
        assert not any(e.kind == "AWARD" for e in seen)               # nothing executed


def test_rows_do_not_tell_how_many_seats_were_eligible_lh70():
    """A seat that is not eligible sees the same events, as many and alike, whether 0 or 3
    seats were eligible for the discard (all passing)."""
    none, _, nobody = _window_events({0: "9s " + FILL14[3:]})
    three, _, eligible = _window_events(ELIGIBLE_3)
    assert nobody == [] and len(eligible) == 3
    assert [e.kind for e in none] == ["DISCARD", "WINDOW", "DRAW"]
    for seat in (2, 4):
        assert len(_as_seen(none, seat)) == len(_as_seen(three, seat)) == 3
        assert [x[:1] + x[2:] for x in _as_seen(none, seat)] == \
            [x[:1] + x[2:] for x in _as_seen(three, seat)]            # the same but the drawer
    for seat in eligible:                                             # its own answer only
        assert len(_as_seen(three, seat)) == 4


def test_view_during_a_window_shows_no_answers_or_eligibility_lh70():
    """While the window is open a seat's view changes only where it itself must answer: the
    others' answers and eligibility never show (the seq, the step shown, aside)."""
    events, states, eligible = _window_events(ELIGIBLE_3)
    during = states[1:5]                          # after WINDOW and after each RESPOND
    for seat in range(6):
        views = []
        for s in during:
            v = lh.view(s, seat)
            assert "eligible" not in v["window"] and "answers" not in v["window"]
            assert "calls" not in v["window"] and v["phase"] == "window"
            assert v["to_act"] in (None, seat)
            v.pop("seq")
            v.pop("to_act")
            views.append(json.dumps(v, sort_keys=True))
        assert len(set(views)) == 1, seat
    auditor = lh.view(during[1], None)["window"]
    assert auditor["answers"] == [[1, "pass"]] and set(auditor["eligible"]) == {"1", "3", "5"}


def test_event_lists_for_a_seat_drop_the_hidden_events_lh70():
    """``liujia replay --seat`` never shows another seat's RESPOND or a nothing-executed AWARD;
    the auditor sees every event."""
    from engine.replay import Replay
    from liujia.commands.replay import event_line, seen_step

    events, _ = playout(7, {"min_hu": 0, "chi_card": "any"})
    assert sum(e.kind == "RESPOND" for e in events) >= 5
    rep = Replay(events)
    for step in range(len(events)):
        assert seen_step(rep, step, None) == step
        assert event_line(rep, step, None).startswith(f"seq {step} ")
        for seat in range(6):
            k = seen_step(rep, step, seat)
            shown = events[k]
            assert k <= step and not lh.event_hidden(shown, seat)
            assert all(lh.event_hidden(x, seat) for x in events[k + 1:step + 1])
            assert not (shown.kind == "RESPOND" and shown.seat != seat)
            n = sum(not lh.event_hidden(x, seat) for x in events[:k + 1]) - 1
            assert event_line(rep, step, seat).startswith(f"event {n} ")    # its own count


def test_a_seats_numbering_does_not_tell_how_many_were_eligible_lh70():
    """The numbers a seat gives the events it saw (event lists, its view's seq, the table's
    header) are the same whether 0 or 3 seats were eligible and passed: the log's seqs
    differ by the four hidden events, a seat's count does not."""
    from engine.games import seen_numbers
    none, none_states, _ = _window_events({0: "9s " + FILL14[3:]})
    three, three_states, _ = _window_events(ELIGIBLE_3)
    assert three[-1].seq - none[-1].seq == 4                          # 3 RESPOND + AWARD
    for seat in (2, 4):
        assert [n for n in seen_numbers(lh, none, seat) if n >= 0] == \
            [n for n in seen_numbers(lh, three, seat) if n >= 0]
        a, b = none_states[-1], three_states[-1]
        assert lh.view(a, seat)["seq"] == lh.view(b, seat)["seq"]
        assert lh.GAME.render(a, seat).splitlines()[0] == \
            lh.GAME.render(b, seat).splitlines()[0]
        assert lh.view(b, None)["seq"] == b.seq                       # the auditor: the log's
    for seat in (1, 3, 5):                                            # its own answer counts
        assert lh.view(three_states[-1], seat)["seq"] == lh.view(none_states[-1], seat)["seq"] + 1
    pos = lh.to_position(three_states[-1])
    assert pos["unseen"] == [4, 3, 4, 3, 4, 3]
    assert lh.from_position(pos, scenario=True).unseen == three_states[-1].unseen
    del pos["unseen"]                                                 # an older position
    assert lh.from_position(pos, scenario=True).unseen == (0,) * 6


# ---------------------------------------------------------------- a 加杠's robbing window (LH-70)

JIA0 = "As 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"           # seat 0 adds As to its 碰 of As: 加杠
ROB3 = "2s 3s 5h 6h 7h 9c Tc Jc 3d 4d 5d 8h 8c"      # wins on As (2s 3s As; 8h 8c the pair)
NO_ROB3 = "2s 3s 5h 6h 7h 9c Tc Jc 3d 4d 5d 8h 9d"   # does not


def _jia_gang_events(hand3: str, answer: str = "") -> tuple[list[Event], list]:
    """Seat 0 declares 加杠 with As (LH-22); seat 3 holds hand3 and, if it can rob (LH-29),
    answers ``answer``: the events from the JIA_GANG to the first one after the window that
    every seat sees (the replacement DRAW, LH-24, or the AWARD of the 胡), the states after
    each."""
    s = table({0: JIA0, 3: hand3}, melds={0: [("peng", "As As As", 5, "As")]}, tail="Qh",
              options={"min_hu": 0})
    events, states = [], []
    e = act(s, "JIA_GANG", 0, "As")
    while True:
        s = lh.apply(s, e)
        events.append(e)
        states.append(s)
        if e.kind == "DRAW" or e.kind == "AWARD" and e.target >= 0:
            return events, states
        e = lh.auto_event(s) or act(s, "RESPOND", lh.to_move(s), tag=answer)


def _views_by_seen(events: list[Event], states: list, seat: int) -> dict[int, set[str]]:
    """The seat's views after each event, by how many of the events it had seen happen then
    (LH-70): one view each unless an event it did not see changed what it sees."""
    out: dict[int, set[str]] = {}
    n = 0
    for e, s in zip(events, states, strict=True):
        n += not lh.event_hidden(e, seat)
        out.setdefault(n, set()).add(json.dumps(lh.view(s, seat), sort_keys=True))
    return out


def test_a_jia_gang_nobody_can_rob_looks_like_one_somebody_could_lh29_lh70():
    """A seat that cannot rob a 加杠 sees the same, step by step (its event numbers, the view's
    seq, phase, window and melds), whether nobody could rob it (the kong stands at once, its
    replacement draw owed) or a seat could and passed: the robbing window looks open and the
    meld a 碰 until the replacement draw. A seat that could and robs is seen only at the
    AWARD, which shows its 胡. The auditor sees the difference at once."""
    from engine.games import seen_numbers
    none, none_states = _jia_gang_events(NO_ROB3)
    passed, passed_states = _jia_gang_events(ROB3, "pass")
    robbed, robbed_states = _jia_gang_events(ROB3, "hu")
    assert [e.kind for e in none] == ["JIA_GANG", "WINDOW", "DRAW"] and none[1].value == 0
    assert [e.kind for e in passed] == ["JIA_GANG", "WINDOW", "RESPOND", "AWARD", "DRAW"]
    assert passed[1].value == 1 << 3 and passed[3].target < 0
    assert [e.kind for e in robbed] == ["JIA_GANG", "WINDOW", "RESPOND", "AWARD"]
    auditor = [lh.view(st[1], None) for st in (none_states, passed_states)]
    assert [v["phase"] for v in auditor] == ["tail", "respond"]
    assert [v["melds"][0][0]["kind"] for v in auditor] == ["ming_gang", "peng"]
    assert [v["window"] is None for v in auditor] == [True, False]
    for seat in (0, 1, 2, 4, 5):                      # every seat that cannot rob
        a = _views_by_seen(none, none_states, seat)
        b = _views_by_seen(passed, passed_states, seat)
        c = _views_by_seen(robbed, robbed_states, seat)
        assert all(len(x) == 1 for d in (a, b, c) for x in d.values()), seat
        assert a == b, seat
        assert c[1] == a[1] and c[2] == a[2] and c[3] != a[3], seat     # until the AWARD
        assert _as_seen(none, seat) == _as_seen(passed, seat)
        assert _as_seen(robbed, seat)[:2] == _as_seen(none, seat)[:2]
        assert [n for n in seen_numbers(lh, none, seat) if n >= 0] == \
            [n for n in seen_numbers(lh, passed, seat) if n >= 0]
    v = lh.view(none_states[1], 2)
    assert (v["phase"], v["to_act"]) == ("window", None)
    assert v["window"] == {"kind": "rob", "card": "As", "from": 0}
    assert v["melds"][0] == [{"kind": "peng", "cards": ["As"] * 3, "from": 5, "card": "As"}]
    assert v["hand_sizes"][0] == 10 and "drawn" not in v
    v = lh.view(none_states[-1], 2)                   # the replacement draw: the kong is made
    assert (v["phase"], v["window"], v["melds"][0][0]["kind"]) == ("turn", None, "ming_gang")
    assert lh.view(robbed_states[-1], 2)["window"]["calls"] == ["3 hu"]
    assert lh.view(robbed_states[-1], 2)["melds"][0][0]["kind"] == "peng"   # LH-29: not made
    assert lh.GAME.render(none_states[1], 2) == lh.GAME.render(passed_states[3], 2)


def test_the_terminal_table_shows_a_win_with_its_split_lh69():
    """At a win the table (``liujia replay``) shows each group and the pair of the recorded
    split with its value, the bonus and the total (public, LH-69), and each meld with the
    card it took and from whom."""
    from engine.sim import simulate
    for sim in simulate("liuhu", 12, seed=3, policy_name="greedy", session_games=6):
        hus = [json.loads(e.payload) for e in sim.events if e.kind == "HU"]
        if not hus:
            continue
        text = lh.GAME.render(sim.final, (hus[0]["seat"] + 1) % 6 if "seat" in hus[0] else 1)
        split = hus[0]["split"]
        rows = text[text.index("the split\n"):].splitlines()[2:]     # under the header
        parts = [*split["groups"], {"kind": "pair", **split["pair"]}]
        for g, row in zip(parts, rows, strict=False):
            label = "对子 pair" if g["kind"] == "pair" else GROUP_TEXT[g["kind"]]
            cards = row[row.index(label) + len(label):].split()
            assert row.strip().startswith(label) and row.endswith(f" {g['value']}"), row
            assert [c for c in cards if c not in ("RJ", "as")][:len(g["cards"])] == \
                [face_text(f) for f in g["cards"]], row
        bonus, total = rows[len(parts)], rows[len(parts) + 1]
        assert bonus.strip().startswith("bonus") and bonus.endswith(f" {split['bonus']}")
        assert total.strip().startswith("total") and total.endswith(f" {split['total']} hu")
        melds = [m for row in lh.view(sim.final, None)["melds"] for m in row if m["from"] is not None]
        assert melds and all(f"took {m['card']} from seat {m['from']}" in text for m in melds)
        return
    raise AssertionError("no 胡 in 12 seeded hands")
