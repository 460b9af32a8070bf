"""够级 decision points on known positions (docs/decisions.md): the closed forms against the
engine's listings (GJ-14), answering, burning and yielding (GJ-20, GJ-26, GJ-39), 开点 and
诈烧 leads (GJ-36, GJ-43), 宣点 and 和点 (GJ-38)."""

from __future__ import annotations

import random

from engine.games import gouji
from engine.games.gouji import decisions as G
from engine.games.gouji.cards import PACK
from engine.games.gouji.plays import analyse, answer_shapes, groups

from .conftest import act, dealt, do, play, pos

REST = ["5s 5h 6c", "6d 7s 8h", "9c 9d Ts", "Tc Jd Js", "Qc Qd 3s 3c", "8c 8d 9s"]


def test_can_beat_is_the_engines_listing_in_closed_form():
    """For random hands and random plays, ``can_beat`` is true exactly when the engine lists
    an answer (answer_shapes, GJ-14)."""
    rng = random.Random(7)
    tried = agree = 0
    while tried < 3000:
        hand = tuple(rng.sample(PACK, rng.randrange(1, 16)))
        top = analyse(tuple(rng.sample(PACK, rng.randrange(1, 6))))
        if top is None:
            continue
        tried += 1
        want = bool(answer_shapes(groups(hand), top))
        assert G.can_beat(G.strength_counts(hand), top) == want, (hand, top)
        agree += want
    assert 300 < agree < 2700                      # both answers were tried often


def _responding(to_act: int, top: str = "Kh Kd", by: int = 1, **kw):
    hands = list(REST)
    hands[to_act] = "As Ah 7c"
    return pos(hands=hands, top=(top, by), to_act=to_act, last=by, **kw)


def test_a_gouji_play_is_answered_by_the_opposite_burnt_by_the_licensed():
    """GJ-20: K K of seat 1 is a 够级 play; seat 4 (its opposite) may answer with A A and may
    yield it (GJ-26); seat 2 may only pass, unless opened, then it may burn (GJ-39)."""
    s = _responding(4)
    d = G.decision(s, act(s, "PASS", 4))
    assert (d.options, d.chosen, d.can_answer, d.top_seat) == ({"pass", "answer", "rang"},
                                                               "pass", True, 1)
    assert "top_gouji" in d.tags
    e = play(4, "As Ah", s)
    assert G.decision(s, e).chosen == "answer" and "gouji" in G.decision(s, e).tags
    s = _responding(2)
    assert G.decision(s, act(s, "PASS", 2)) is None          # only a pass
    s = _responding(2, opened=[2])
    d = G.decision(s, play(2, "As Ah", s))
    assert (d.options, d.chosen) == ({"pass", "burn"}, "burn")


def test_an_ordinary_play_is_answered_by_anyone():
    """GJ-20: 7 7 is ordinary; seat 2 answers it with A A or passes."""
    s = _responding(2, top="7s 7h")
    d = G.decision(s, act(s, "PASS", 2))
    assert (d.options, "top_gouji" in d.tags) == ({"pass", "answer"}, False)


def test_a_lead_after_a_pure_gouji_play_stood_may_open_the_point():
    """GJ-36: the 开点 candidate leading natural 4s makes 开点; any other lead is a lead."""
    hands = list(REST)
    hands[0] = "4s 4h 7c 8d"
    s = pos(hands=hands, kaidian_candidate=0, to_act=0)
    d = G.decision(s, play(0, "4s 4h", s))
    assert (d.options, d.chosen, d.top_seat) == ({"kaidian", "lead"}, "kaidian", -1)
    assert G.decision(s, play(0, "7c", s)).chosen == "lead"
    assert G.lead_options(s, 0) == G.decision(s, play(0, "8d", s)).options


def test_a_burners_lead_without_a_joker_is_a_false_burn():
    """GJ-40, GJ-43: the burner must lead with a joker; 7c alone would be 诈烧; BJ and 7c BJ
    are 够级 plays (GJ-16: a joker makes one), his opposite being in."""
    hands = list(REST)
    hands[0] = "7c 8d BJ"
    s = pos(hands=hands, burner=0, to_act=0)
    d = G.decision(s, play(0, "7c", s))
    assert (d.options, d.chosen, "burner" in d.tags) == ({"false_burn", "lead_gouji"},
                                                        "false_burn", True)


def test_xuandian_and_hedian():
    """GJ-38: a 宣点 is a row of the proposer; the opposite's answer is agree or refuse; the
    first play closes the window, and each seat of a pair that did not use its 宣点 lets it
    go — the starter's own included."""
    s = dealt()
    assert s.window
    e = act(s, "XUANDIAN", 1)
    d = G.decision(s, e)
    assert (d.seat, d.options, d.chosen) == (1, {"xuandian", "no_xuandian"}, "xuandian")
    s, _ = do(s, "XUANDIAN", 1)
    d = G.decision(s, act(s, "HEDIAN", 4, tag="refuse"))
    assert (d.seat, d.options, d.chosen) == (4, {"agree", "refuse"}, "refuse")
    s, _ = do(s, "HEDIAN", 4, tag="refuse")
    lead = next(a for a in gouji.legal_actions(s) if a.kind == "PLAY")
    lapsed = G.lapsed(s, lead)
    assert [(x.seat, x.chosen) for x in lapsed] == [(i, "no_xuandian") for i in (0, 2, 3, 5)]
    assert G.lapsed(gouji.apply(s, lead), lead._replace(seq=s.seq + 1)) == ()


def test_every_lead_category_is_found_as_the_listing_finds_it():
    """The closed form of the lead categories equals the categories of the listed leads, on
    hands of only 3s, of one rank, of wilds, as burner and as 开点 candidate."""
    for hand, fields in (("3s 3c", {}), ("3s 3c", {"burner": 0}), ("3s", {"burner": 0}),
                         ("4s 4h 4c", {"kaidian_candidate": 0}), ("2s BJ RJ", {}),
                         ("Ts Th Tc Td 2s", {}), ("Ks Kh 5c", {"burner": 0}),
                         ("4s 2h", {"kaidian_candidate": 0}), ("RJ", {})):
        hands = list(REST)
        hands[0] = hand
        s = pos(hands=hands, to_act=0, **fields)
        listed = {G.action_category(s, a) for a in gouji.legal_actions(s) if a.kind == "PLAY"}
        assert G.lead_options(s, 0) == listed, (hand, fields)
