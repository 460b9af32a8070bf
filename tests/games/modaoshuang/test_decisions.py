"""摸到爽 decision points on known positions (docs/decisions.md): following, 诈摸 (MDS-21),
jokers within and against their limits (MDS-19, MDS-20), 收到爽 (MDS-29), the final round
(MDS-34), leads (MDS-12), the report made and missed (MDS-22), gifts (MDS-25)."""

from __future__ import annotations

from engine.games import modaoshuang as mds
from engine.games.modaoshuang import decisions as M

from .conftest import draw, gift, no_play, play, pos, report

STOCK = "2d 3d 4d 5d 6d"


def test_a_follower_holding_the_suit_follows_or_feints():
    """MDS-16, MDS-21: seat 1 holds 9s on the 5s lead: follow, the BJ (three cards), or 诈摸;
    9s tops the table."""
    s = pos(["3c 4c", "9s 2h BJ", "Kd Qd"], stock=STOCK, table=[(0, "5s")])
    d = M.decision(s, play(s, 1, "9s"))
    assert (d.options, d.chosen, d.can_answer, d.top_seat) == (
        {"follow", "joker", "feint"}, "follow", True, 0)
    assert d.tags == ("could_top", "tops") and d.phase == "draw"
    assert M.decision(s, draw(s, 1)).chosen == "feint"
    s = pos(["3c 4c", "9s 2h", "Kd Qd"], stock=STOCK, table=[(0, "5s")],
            options={"mds_zhamo": False})
    assert M.decision(s, play(s, 1, "9s")) is None          # follow only: no choice of kinds


def test_an_rj_from_two_cards_is_a_violation_under_penalty_only():
    """MDS-19, MDS-20: lacking spades, seat 1 holding RJ 9h may draw or play the RJ against
    its limit; with mds_joker_violation = illegal it can only draw."""
    s = pos(["3c 4c", "RJ 9h", "Kd Qd"], stock=STOCK, table=[(0, "5s")])
    d = M.decision(s, play(s, 1, "RJ"))
    assert (d.options, d.chosen, d.can_answer) == ({"joker_violation", "draw"},
                                                   "joker_violation", False)
    s = pos(["3c 4c", "RJ 9h", "Kd Qd"], stock=STOCK, table=[(0, "5s")],
            options={"mds_joker_violation": "illegal"})
    assert M.decision(s, draw(s, 1)) is None


def test_in_shoudaoshuang_a_seat_lacking_the_suit_plays_its_joker_or_not():
    """MDS-29, MDS-30: the stock is empty; seat 1 lacks spades and holds a BJ."""
    s = pos(["3c 4c", "BJ 9h", "Kd Qd"], table=[(0, "5s")])
    d = M.decision(s, no_play(s, 1, "no_suit"))
    assert (d.options, d.chosen, d.phase) == ({"joker", "no_play"}, "no_play", "shou")


def test_the_final_round_plays_or_not():
    """MDS-34: seat 0 went out leading 5s; seat 1 may still play a spade or not."""
    s = pos(["", "9s 2h", "Kd Qd"], stock=STOCK, table=[(0, "5s")], winner=0)
    d = M.decision(s, play(s, 1, "9s"))
    assert (d.options, d.chosen, d.phase) == ({"follow", "no_play"}, "follow", "final")
    assert M.decision(s, no_play(s, 1, "final")).chosen == "no_play"


def test_a_lead_with_an_opponent_on_one_card():
    """MDS-12: the leader may lead a suited card or a joker (naming a suit); seat 2 holds one
    card: a 点炮 danger (MDS-35)."""
    s = pos(["5h BJ 7c", "9s 2h", "Kd"], stock=STOCK, leader=0)
    d = M.decision(s, play(s, 0, "BJ", "h"))
    assert (d.options, d.chosen, d.tags, d.top_seat) == ({"lead", "joker"}, "joker",
                                                         ("foe_one",), -1)


def test_the_report_made_or_missed():
    """MDS-22, MDS-23: the report is a row of its seat; the engine's MISSED_REPORT is the
    other; a joker violation's penalty is no report decision (MDS-20)."""
    s = pos(["3c 4c 5c", "9s 2h", "Kd Qd Jd"], stock=STOCK, leader=1, report=(1, 2))
    d = M.decision(s, report(s, 1))
    assert (d.seat, d.options, d.chosen, d.hand) == (1, {"report", "miss_report"}, "report", 2)
    s = pos(["3c 4c 5c", "9s 2h", "Kd Qd Jd"], stock=STOCK, leader=1, missed=[(1, "report")])
    e = mds.auto_event(s)
    assert e.kind == "MISSED_REPORT" and M.decision(s, e).chosen == "miss_report"
    s = pos(["3c 4c 5c", "9s 2h", "Kd Qd Jd"], stock=STOCK, leader=1, missed=[(1, "joker")])
    assert M.decision(s, mds.auto_event(s)) is None


def test_a_gift_or_none():
    """MDS-25: in 收到爽 a seat with four cards or more gives the offender a card, or not."""
    s = pos(["3c 4c 5c 6c", "9s 2h", "Kd Qd Jd Td"], leader=1,
            penalty={"seat": 1, "cause": "report", "draws": 0, "gift_seats": [2, 0]})
    d = M.decision(s, gift(s, 2, "Kd"))
    assert (d.seat, d.options, d.chosen, d.cards) == (2, {"gift", "no_gift"}, "gift",
                                                      gift(s, 2, "Kd").cards)
    assert M.decision(s, gift(s, 2)).chosen == "no_gift"
    assert M.decision(s, gift(s, 0)) is None                 # not its turn to give
