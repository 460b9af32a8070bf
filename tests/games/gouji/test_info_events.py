"""GJ-47 … GJ-49: what each seat sees, the hand history's derived events and annotations, and
positions (JSON round trip from every state, one action checked against a loaded position)."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import IllegalMove, InvalidEvent
from engine.events import NONE, Event, event_from_json, event_to_json
from engine.games import gouji
from engine.games.gouji.game import annotate
from engine.games.gouji.position import cards_visible, from_position, to_position, view

from .conftest import GAME_ID, PLAYERS, act, apply_play, dealt, do, illegal, play, pos, settle
from .late_helpers import fs, options

F = "finished"


# ---------------------------------------------------------------- GJ-47 information


def test_gj47_a_seat_sees_only_its_own_hand_the_auditor_sees_all():
    """GJ-47: each player sees only his own hand (teammates' hidden too); the auditor (seat
    None) sees every hand."""
    s = dealt()
    for seat in range(6):
        v = view(s, seat)
        assert v["perspective"] == seat
        assert [h is not None for h in v["hands"]] == [i == seat for i in range(6)]
        assert v["hands"][seat] == to_position(s)["hands"][seat]
    a = view(s, None)
    assert a["perspective"] == "auditor" and a["hands"] == to_position(s)["hands"]


def test_gj47_no_hand_counts_in_a_seats_view():
    """GJ-47: the engine shows no hand counts: two positions that differ only in the size of
    seat 3's hand look the same to seat 0 (public events aside)."""
    played = ["5s", "5h"]
    hands = ["9s 9c", "7h", "7s", "7c 8c", "7d", "8h"]
    s1 = pos(hands=hands, played=played, to_act=0, last=0)
    s2 = pos(hands=hands[:3] + ["7c 8c 9d Td Jd"] + hands[4:], played=played, to_act=0, last=0)
    assert view(s1, 0) == view(s2, 0)
    assert view(s1, None) != view(s2, None)


def test_gj47_an_out_player_still_sees_only_his_own_hand():
    """GJ-47 (即便走了也不能看): a seat that went out sees no other hand."""
    s = pos(hands=["9h", "6s 7s", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], to_act=0, last=0)
    s, _ = apply_play(s, 0, "9h")
    assert s.out_pos[0] == 1
    assert view(s, 0)["hands"][1:] == [None] * 5


def test_gj47_the_deal_is_hidden_plays_are_public():
    """GJ-47: a DEAL's cards are visible to the auditor only; a PLAY's cards are public."""
    deal = Event("DEAL", 0, (1, 2, 3))
    assert cards_visible(deal, None)
    assert not any(cards_visible(deal, seat) for seat in range(6))
    assert all(cards_visible(play(0, "9h"), seat) for seat in [None, *range(6)])


# ---------------------------------------------------------------- GJ-48 derived events


def owing_out_and_phase():
    """Seat 0 goes out (OUT) as the second out player (PHASE_OPEN): two derived events owed."""
    s = pos(hands=["9h", "", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], out={1: (1, F)}, to_act=0,
            last=0)
    return gouji.apply(s, play(0, "9h", s))


def test_gj48_the_engine_owes_the_derived_events_in_order():
    """GJ-48: after the action the engine owes exactly OUT then PHASE_OPEN; auto_event gives
    them in that order; feeding them empties the debt."""
    s = owing_out_and_phase()
    assert fs(list(s.owed)) == [("OUT", 0, NONE, 2, F), ("PHASE_OPEN", -1, NONE, NONE, "")]
    assert gouji.due_seat(s) == -1 and gouji.legal_actions(s) == [s.owed[0]._replace(seq=s.seq)]
    s, done = settle(s)
    assert [e.kind for e in done] == ["OUT", "PHASE_OPEN"] and s.owed == ()


def test_gj48_a_tampered_or_skipped_derived_event_is_rejected_citing_its_rule():
    """GJ-48: an OUT with the wrong position breaks GJ-29 (the rule of the owed event); giving
    PHASE_OPEN before the owed OUT is rejected the same way; then a wrong PHASE_OPEN (GJ-18)."""
    s = owing_out_and_phase()
    owed = s.owed[0]._replace(seq=s.seq)
    illegal(s, owed._replace(value=1), "GJ-29")
    illegal(s, owed._replace(tag="men"), "GJ-29")
    illegal(s, owed._replace(seat=2), "GJ-29")
    illegal(s, act(s, "PHASE_OPEN"), "GJ-29")
    s = gouji.apply(s, owed)
    illegal(s, act(s, "PHASE_OPEN", 3), "GJ-18")


def test_gj48_an_action_while_derived_events_are_owed_is_rejected():
    """GJ-48: no action before the owed derived events; an action that would be legal once
    they are recorded cites GJ-48, one that breaks a rule anyway cites that rule (a play that
    does not beat: GJ-14) and names GJ-48 too."""
    s = owing_out_and_phase()
    illegal(s, act(s, "PASS", 2), "GJ-48")
    err = illegal(s, play(2, "6c", s), "GJ-14")
    assert err.also == ("GJ-48",) and err.legal.startswith("the engine records OUT, PHASE_OPEN")


def test_gj48_a_derived_event_nobody_owes_is_rejected():
    """GJ-48: a derived event when none is owed."""
    s = pos(hands=["9h 8h", "6s", "6c", "6d", "6h", "8s"], to_act=0, last=0)
    for kind in ("OUT", "ROUND_END", "PHASE_OPEN", "BURN_START", "GAME_END"):
        illegal(s, act(s, kind, 0), "GJ-48")


def test_gj48_tampered_round_end_is_rejected_citing_gj24():
    """GJ-48 with GJ-24/GJ-27: ROUND_END with a wrong next leader, jiefeng or reason."""
    s = pos(hands=["", "6s 7s", "6c 7c", "6d 7d", "6h 7h", "8s 8c"], top=("3c", 0),
            passed=[1, 2, 3, 4], to_act=5, last=4, out={0: (1, F)})
    s = gouji.apply(s, act(s, "PASS", 5))
    owed = s.owed[0]._replace(seq=s.seq)
    assert (owed.kind, owed.seat, owed.target, owed.value, owed.tag) == \
        ("ROUND_END", 0, 1, 1, "passes")
    illegal(s, owed._replace(target=0), "GJ-24")
    illegal(s, owed._replace(value=0), "GJ-24")
    illegal(s, owed._replace(tag="big_joker"), "GJ-24")
    gouji.check(s, owed)


def test_gj48_tampered_game_end_payload_is_rejected_citing_gj32():
    """GJ-48 with GJ-32: GAME_END must carry the engine's payload (JSON compared as data:
    key order and spacing do not matter)."""
    out = {0: (1, F), 1: (2, F), 3: (3, F), 5: (4, F)}
    s = pos(hands=["", "", "9h", "", "Ts Tc", ""], out=out, open_phase=True, to_act=2, last=2)
    s = gouji.apply(s, play(2, "9h", s))
    s, _ = settle_n(s, 2)
    owed = s.owed[0]._replace(seq=s.seq)
    assert owed.kind == "GAME_END"
    p = json.loads(owed.payload)
    bad = dict(p, points=[2, 1, 0, 0, -2, -1])
    illegal(s, owed._replace(payload=json.dumps(bad)), "GJ-32")
    illegal(s, owed._replace(tag="even"), "GJ-32")
    illegal(s, owed._replace(payload=None), "GJ-32")
    gouji.check(s, owed._replace(payload=json.dumps(p, indent=2)))


def test_gj48_tampered_burn_and_opened_events_cite_their_rules():
    """GJ-48: a wrong BURN_START breaks GJ-39; a wrong OPENED (hedian) breaks GJ-38; BURN_END
    fake GJ-43, OUT zhashao GJ-43."""
    s = pos(hands=["9s 9c", "Ah Ad 7h", "7s", "7c", "7d", "8h"], top=("Kh Kd", 0), to_act=1,
            last=0, opened=[1])
    s = gouji.apply(s, play(1, "Ah Ad", s))
    owed = s.owed[0]._replace(seq=s.seq)
    illegal(s, owed._replace(target=3), "GJ-39")
    illegal(s, owed._replace(tag="counter"), "GJ-39")
    d = gouji.apply(dealt(), act(dealt(), "XUANDIAN", 0))
    d = gouji.apply(d, act(d, "HEDIAN", 3, tag="agree"))
    illegal(d, d.owed[1]._replace(seq=d.seq), "GJ-38")     # the proposer's OPENED comes first
    f = pos(hands=["9s", "6h 8s", "7s", "7c", "7d", "8h"], burner=1, to_act=1, last=1,
            opened=[1])
    f = gouji.apply(f, play(1, "6h", f))
    illegal(f, f.owed[0]._replace(seq=f.seq, tag="success"), "GJ-43")
    f = gouji.apply(f, f.owed[0]._replace(seq=f.seq))
    illegal(f, f.owed[0]._replace(seq=f.seq, value=1), "GJ-43")


def settle_n(s, n):
    done = []
    for _ in range(n):
        e = s.owed[0]._replace(seq=s.seq)
        s = gouji.apply(s, e)
        done.append(e)
    return s, done


# ---------------------------------------------------------------- GJ-48 annotations


def test_gj48_play_annotation_flags_are_checked_each_by_its_rule():
    """GJ-48 annotation of a play: the value is the base (GJ-12); a missing '+shaped' breaks
    GJ-16, '+pure' GJ-17, '+gouji' GJ-19, the role lead/answer GJ-21/GJ-22."""
    s = pos(hands=["Kh Kd 9s", "6s", "6c", "6d", "6h", "8s"], to_act=0, last=0)
    e = play(0, "Kh Kd", s)
    assert (e.value, e.tag) == (13, "lead+shaped+pure+gouji")
    illegal(s, e._replace(value=14), "GJ-12")
    illegal(s, e._replace(tag="lead+pure+gouji"), "GJ-16")
    illegal(s, e._replace(tag="lead+shaped+gouji"), "GJ-17")
    illegal(s, e._replace(tag="lead+shaped+pure"), "GJ-19")
    illegal(s, e._replace(tag="answer+shaped+pure+gouji"), "GJ-21")
    gouji.check(s, e)
    t = pos(hands=["Kh Kd 9s", "6s", "6c", "Ah Ad 6d", "6h", "8s"], top=("Qh Qd", 0),
            passed=[1, 2], to_act=3, last=2)
    a = play(3, "Ah Ad", t)
    assert a.tag == "answer+shaped+pure+gouji"
    illegal(t, a._replace(tag="lead+shaped+pure+gouji"), "GJ-22")


def test_gj48_gouji_flag_is_judged_after_the_plays_consequences():
    """GJ-48 ('gouji' once the play's consequences are applied) with GJ-19: a 够级-shaped
    play with which its maker goes out as the second out player is not 够级 (open phase)."""
    s = pos(hands=["Kh Kd", "", "6c", "6d", "6h", "8s"], out={1: (1, F)}, to_act=0, last=0)
    e = play(0, "Kh Kd", s)
    assert e.tag == "lead+shaped+pure"
    illegal(s, e._replace(tag="lead+shaped+pure+gouji"), "GJ-19")


def test_gj48_unknown_option_in_game_start_is_rejected():
    """GJ-48: GAME_START records every option of section 4, nothing else."""
    e0 = gouji.start_event(GAME_ID, PLAYERS, None, game_no=2, direction=1, starter=0)
    p = json.loads(e0.payload)
    assert p["options"] == options()
    bad = e0._replace(payload=json.dumps(dict(p, options=dict(p["options"], speed="fast"))))
    with pytest.raises(IllegalMove) as info:
        gouji.initial_state(bad)
    assert info.value.rule_id == "GJ-48"
    missing = dict(p["options"])
    del missing["men_scope"]
    with pytest.raises(IllegalMove) as info:
        gouji.initial_state(e0._replace(payload=json.dumps(dict(p, options=missing))))
    assert info.value.rule_id == "GJ-48"


def test_gj48_events_carry_the_next_seq():
    """GJ-48: events are applied in order; a wrong seq is an invalid event."""
    s = dealt()
    e = next(a for a in gouji.legal_actions(s) if a.kind == "PLAY")
    with pytest.raises(InvalidEvent):
        gouji.check(s, e._replace(seq=s.seq + 1))


# ---------------------------------------------------------------- GJ-49 positions


def _bot(s, rng):
    acts = gouji.legal_actions(s)
    plays = sorted((a for a in acts if a.kind == "PLAY"), key=lambda a: len(a.cards))
    others = [a for a in acts if a.kind != "PLAY"]
    if plays and rng.random() < 0.75:
        return plays[rng.randrange(min(3, len(plays)))]
    return rng.choice(others or plays)


def play_out(start, rng):
    """Every (state, event) of one game from its GAME_START to GAME_END, and the final state."""
    s = gouji.initial_state(start)
    steps = []
    while not gouji.is_over(s):
        e = gouji.auto_event(s, rng) or _bot(s, rng)
        steps.append((s, e))
        s = gouji.apply(s, e)
    return steps, s


def seeded_session(seed):
    """A seeded first game (cut, direction, deal, play to GAME_END) and the session's second
    game; all their states with the event that led from each one to the next."""
    rng = random.Random(seed)
    steps, first = play_out(gouji.start_event(f"g{seed}", PLAYERS, rng), rng)
    kw = gouji.session_start(first)
    start = gouji.start_event(f"g{seed}b", PLAYERS, rng, previous_game=first.game_id, **kw)
    assert gouji.check_session(start, first) is None
    more, second = play_out(start, rng)
    return [*steps, (first, None), *more, (second, None)]


def test_gj49_position_round_trip_from_every_state_of_seeded_sessions():
    """GJ-49: every state of two seeded sessions (two games each) survives to_position ->
    JSON -> from_position, and the loaded position goes on exactly like the original (nothing
    else is needed to go on from a position)."""
    kinds: set[str] = set()
    for seed in (0, 10):
        steps = seeded_session(seed)
        kinds |= {e.kind for _, e in steps if e is not None}
        for s, e in steps:
            loaded = from_position(json.loads(json.dumps(to_position(s), ensure_ascii=False)))
            assert loaded == s
            if e is not None:
                assert gouji.apply(loaded, e) == gouji.apply(s, e)
            else:
                assert loaded.is_over and loaded.result == s.result is not None
    # the sessions went through every kind of position field
    assert {"CUT", "DIRECTION", "DEAL", "XUANDIAN", "HEDIAN", "OPENED", "PLAY", "PASS", "RANG",
            "BURN_START", "BURN_END", "OUT", "PHASE_OPEN", "ROUND_END", "DESIGNATE", "HUIWU",
            "GAME_END"} <= kinds


def test_gj49_a_single_action_checked_against_a_loaded_position():
    """GJ-49 (`liujia check` style): a position written as JSON and loaded back; one action
    (JSON) is legal there — the new position has the next seq — or illegal with a rule id."""
    s = pos(hands=["9s 9c", "Ah Ad 7h", "As 7s", "2h 7c", "2s 7d", "8h"], top=("Kh Kd", 0),
            to_act=1, last=0, opened=[1])
    text = json.dumps(to_position(s))
    loaded = from_position(json.loads(text))
    action = event_from_json({"kind": "PLAY", "seat": 1, "cards": ["Ah", "Ad"]})
    action = annotate(loaded, action._replace(game_id=loaded.game_id, seq=loaded.seq))
    new = gouji.apply(loaded, action)
    p = to_position(new)
    assert p["seq"] == s.seq + 1 and p["burner"] == 1 and p["top"]["seat"] == 1
    assert [o["kind"] for o in p["owed"]] == ["BURN_START"]
    assert from_position(json.loads(json.dumps(p))) == new
    bad = event_from_json({"kind": "PLAY", "seat": 4, "cards": ["2s", "7d"], "seq": s.seq,
                           "game_id": s.game_id})
    with pytest.raises(IllegalMove) as info:
        gouji.check(loaded, bad)
    assert info.value.rule_id == "GJ-22"
    wrong = annotate(loaded, event_from_json({"kind": "PLAY", "seat": 1, "cards": ["7h"],
                                              "seq": s.seq, "game_id": s.game_id}))
    with pytest.raises(IllegalMove) as info:
        gouji.check(loaded, wrong)
    assert info.value.rule_id == "GJ-14"
    assert event_to_json(action)["tag"] == "answer+shaped+pure+gouji"


def test_gj49_position_holds_the_yield_and_the_locks():
    """GJ-49: a yield in progress (the yielder and which of his two next seats have still to
    act), the locked seats, the opened seats and the 开点 candidate are part of the position
    and survive the round trip."""
    s = pos(hands=["9s 9c", "7h", "7s", "7c 8c", "6s 6h", "8h 8d"], top=("5s 5h", 0),
            passed=[1, 2], to_act=3, last=2, opened=[0], kaidian_candidate=None)
    s, _ = do(s, "RANG", 3)
    p = to_position(s)
    assert p["rang"] == {"seat": 3, "waiting": [4, 5]} and p["passed"] == [1, 2]
    assert p["opened"] == [0] and p["top"] == {"cards": ["5s", "5h"], "seat": 0, "huiwu": False}
    assert from_position(json.loads(json.dumps(p))) == s
    s, _ = do(s, "PASS", 4)
    assert to_position(s)["rang"] == {"seat": 3, "waiting": [5]}
    bad = dict(p, rang={"seat": 9, "waiting": []})
    with pytest.raises(InvalidEvent):
        from_position(bad)


def test_gj49_liujia_check_one_action_against_a_position_file(tmp_path, capsys):
    """GJ-49 through `liujia check`: a position file and one annotated action (JSON): 'legal'
    and the next position (seq + 1, the burn recorded), or 'illegal GJ-n' with exit 1."""
    from liujia.cli import main
    s = pos(hands=["9s 9c", "Ah Ad 7h", "As 7s", "2h 7c", "2s 7d", "8h"], top=("Kh Kd", 0),
            to_act=1, last=0, opened=[1])
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(to_position(s), ensure_ascii=False), encoding="utf-8")
    ok = event_to_json(play(1, "Ah Ad", s))
    assert main(["check", "--position", str(f), "--action", json.dumps(ok)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("legal\n")
    new = json.loads(out.split("\n", 1)[1])
    assert (new["seq"], new["burner"], new["top"]["seat"]) == (s.seq + 1, 1, 1)
    assert [o["kind"] for o in new["owed"]] == ["BURN_START"]
    bad = event_to_json(play(4, "2s 7d"))
    assert main(["check", "--position", str(f), "--action", json.dumps(bad)]) == 1
    assert capsys.readouterr().out.startswith("illegal GJ-22")
