"""扑克六湖 facts (engine.games.liuhu.facts): the collector's rows of seeded self-play agree with
a count made independently from the logged payloads (the hand's result, the HU split, WINDOW
and AWARD payloads) and point at the right events; every rare fact is made to happen on a
hand-built position (抢杠胡 and the robbed 加杠, 截胡, a passed 胡, the dealer's first-turn
自摸, 暗杠), each named for the seat it happened to and for no other."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from engine.cards import is_red, parse_face
from engine.events import Event
from engine.facts import FactCollector, facts_table
from engine.games import liuhu as lh
from engine.replay import Verdict
from engine.sim import simulate
from tests.games.liuhu.conftest import act, legal, start, table
from tests.games.liuhu.test_claims import FILL14, WAIT8

CLAIM_FACTS = {"PENG": "peng", "CHI": "chi", "MING_GANG": "ming_gang", "AN_GANG": "an_gang",
               "JIA_GANG": "jia_gang"}
WON = {"zimo": "won_zimo", "fangchong": "won_on_discard", "qianggang": "won_qianggang"}
PAYER = {"fangchong": "dealt_in", "qianggang": "kong_robbed"}
# the event each fact is counted at; every other one at the HU
EVENT_OF = {"dealer": "DEAL", "passed_hu": "RESPOND", "hu_cut_off": "AWARD",
            "paid_for_zimo": "SETTLE", "liuju": "LIUJU",
            **{fact: kind for kind, fact in CLAIM_FACTS.items()}}
# waits on As (As 2s 3s, 壹贰叁 one colour) and on As (As 2h 3h, mixed colour): LH-38
ROB3 = "2s 3s 5h 6h 7h 9c Tc Jc 3d 4d 5d 8h 8c"
ROB4 = "2h 3h 5s 6s 7s 9d Td Jd 3c 4c 5c 8s 8d"
JIA0 = "As 2c 3c 4c 5d 5d Jd Qd Kd 6s 8s"


# ---------------------------------------------------------------- an independent count

def _independent(events: list[Event]) -> dict[tuple[int, str], list[int]]:
    """(seat, fact) -> [count, first seq], from the logged payloads and the hand's result
    rather than the state the catalog reads."""
    out: dict[tuple[int, str], list[int]] = {}

    def add(seat: int, fact: str, seq: int) -> None:
        row = out.setdefault((seat, fact), [0, seq])
        row[0] += 1

    result = json.loads(events[-1].payload)
    wins = iter(result["wins"])
    drawn = False
    eligible: dict[str, list] = {}
    for e in events:
        k = e.kind
        if k == "DEAL":
            add(result["dealer"], "dealer", e.seq)
        elif k == "DRAW":
            drawn = True
        elif k in CLAIM_FACTS:
            add(e.seat, CLAIM_FACTS[k], e.seq)
        elif k == "WINDOW":
            eligible = json.loads(e.payload)["eligible"] if e.payload else {}
        elif k == "RESPOND" and e.tag == "pass":
            if ["hu"] in eligible[str(e.seat)]:
                add(e.seat, "passed_hu", e.seq)
        elif k == "AWARD":
            p = json.loads(e.payload)
            for seat, claim, *_ in p["calls"]:
                if claim == "hu" and seat not in p["executed"]:
                    add(seat, "hu_cut_off", e.seq)
        elif k == "HU":
            win = next(wins)
            seat, kind = win["seat"], win["type"]
            assert seat == e.seat
            add(seat, WON[kind], e.seq)
            if kind in PAYER:
                add(win["payer"], PAYER[kind], e.seq)
            elif not drawn:                              # no draw yet: the first turn
                add(seat, "won_first_turn", e.seq)
            if win["total"] >= 30:
                add(seat, "won_30_hu", e.seq)
            for g in json.loads(e.payload)["split"]["groups"]:
                colours = {is_red(parse_face(c)) for c in g["cards"]}
                if g["kind"] == "special" and len(colours) == 1:
                    add(seat, "won_one_colour_special", e.seq)
        elif k == "SETTLE" and any(w["type"] == "zimo" for w in result["wins"]):
            for seat, change in enumerate(result["changes"]):
                if change < 0:
                    add(seat, "paid_for_zimo", e.seq)
        elif k == "LIUJU":
            for seat in range(6):
                add(seat, "liuju", e.seq)
    return out


def _rows(table_) -> dict[str, dict[tuple[int, str], list[int]]]:
    out: dict[str, dict[tuple[int, str], list[int]]] = defaultdict(dict)
    for r in table_.to_pylist():
        out[r["game_id"]][(r["seat"], r["fact"])] = [r["count"], r["first_seq"]]
    return out


@pytest.mark.parametrize("k", [0, 3, 4])
def test_rows_agree_with_an_independent_count(k):
    opts = lh.Options(**lh.CONFORMANCE["option_sets"][k])
    games = [x.events for policy in ("random", "greedy")
             for x in simulate("liuhu", 8, seed=70 + k, policy_name=policy, options=opts,
                               session_games=8)]
    seen = set()
    for events in games:               # one at a time: the two policies share game ids
        rows = _rows(facts_table([events]))
        want = _independent(events)
        assert rows.get(events[0].game_id, {}) == want, events[0].game_id
        seen |= {f for _, f in want}
        for (_, fact), (_, first) in rows.get(events[0].game_id, {}).items():
            assert events[first].kind == EVENT_OF.get(fact, "HU"), fact
    assert {"dealer", "peng", "chi", "won_on_discard", "dealt_in"} <= seen, seen


# ---------------------------------------------------------------- positions

class Run:
    """A hand-built position played on, each event and every owed automatic event shown to a
    FactCollector as the fold shows them."""

    def __init__(self, s) -> None:
        self.s, self.log = s, []
        self.collector = FactCollector()
        self.collector.begin(lh.GAME, s, start())
        self.auto()

    def _apply(self, e: Event) -> None:
        e = e._replace(seq=self.s.seq, game_id=self.s.game_id)
        self.s = lh.apply(self.s, e)
        self.collector.after(self.s, e)
        self.log.append(e)

    def auto(self) -> None:
        while (a := lh.auto_event(self.s)) is not None:
            self._apply(a)

    def play(self, *events: Event) -> Run:
        for e in events:
            self._apply(e)
            self.auto()
        return self

    def first(self, kind: str, tag: str | None = None) -> int:
        """The seq of the first event of the kind (and tag) played."""
        return next(e.seq for e in self.log if e.kind == kind and tag in (None, e.tag))

    def facts(self) -> dict[str, dict[int, tuple[int, int]]]:
        """fact -> {seat: (count, first seq)} of the finished hand."""
        assert lh.is_over(self.s)
        self.collector.end(Verdict(self.s.game_id, "ok", len(self.log), None, self.s, lh.GAME))
        out: dict[str, dict[int, tuple[int, int]]] = defaultdict(dict)
        for r in self.collector.table().to_pylist():
            out[r["fact"]][r["seat"]] = (r["count"], r["first_seq"])
        return out


def _rob(mode: str, answer3: str) -> Run:
    """Seat 0 adds As to its 碰 (加杠); seats 3 and 4 could rob it; seat 3 answers answer3,
    seat 4 claims 胡."""
    s = table({0: JIA0, 3: ROB3, 4: ROB4}, melds={0: [("peng", "As As As", 5, "As")]},
              options={"min_hu": 0, "multi_win": mode})
    r = Run(s).play(act(s, "JIA_GANG", 0, "As"))
    assert [x for x, _ in r.s.eligible] == [3, 4]
    r.play(act(r.s, "RESPOND", 3, tag=answer3), act(r.s, "RESPOND", 4, tag="hu"))
    while not lh.is_over(r.s):
        r.play(legal(r.s)[0])
    return r


def test_qianggang_robbed_and_cut_off_lh29_lh35_lh62():
    r = _rob("nearest", "hu")
    f = r.facts()
    hu = r.first("HU")
    assert f["jia_gang"] == {0: (1, r.first("JIA_GANG"))}
    assert f["won_qianggang"] == {3: (1, hu)}              # the nearest claimant wins
    assert f["kong_robbed"] == {0: (1, hu)}                # the declarer suffers it
    assert f["hu_cut_off"] == {4: (1, r.first("AWARD", "hu"))}   # 截胡: seat 4's call lost
    assert f["won_one_colour_special"] == {3: (1, hu)}     # As 2s 3s, all black (LH-52)
    for fact in ("won_on_discard", "dealt_in", "passed_hu", "won_zimo", "paid_for_zimo"):
        assert fact not in f, fact
    assert r.s.melds[0][0][0] == "peng"                    # the kong was not made


def test_every_robber_wins_with_multi_win_all_lh35_lh63():
    r = _rob("all", "hu")
    f = r.facts()
    hus = [e.seq for e in r.log if e.kind == "HU"]
    assert f["won_qianggang"] == {3: (1, hus[0]), 4: (1, hus[1])}
    assert f["kong_robbed"] == {0: (2, hus[0])}            # counted per winner
    assert "hu_cut_off" not in f
    assert f["won_one_colour_special"] == {3: (1, hus[0])}    # As 2h 3h is mixed (LH-51)


def test_a_passed_hu_is_the_passer_s_lh30():
    r = _rob("nearest", "pass")
    f = r.facts()
    assert f["passed_hu"] == {3: (1, r.first("RESPOND", "pass"))}
    assert f["won_qianggang"] == {4: (1, r.first("HU"))}
    assert "hu_cut_off" not in f


def test_cut_off_on_a_discard_and_dealt_in_lh27_lh35_lh61():
    s = table({0: "8c " + FILL14[3:], 2: WAIT8, 4: WAIT8}, options={"min_hu": 0})
    r = Run(s).play(act(s, "DISCARD", 0, "8c"))
    r.play(act(r.s, "RESPOND", 2, tag="hu"), act(r.s, "RESPOND", 4, tag="hu"))
    r.play(legal(r.s)[0])
    f = r.facts()
    hu = r.first("HU")
    assert f["won_on_discard"] == {2: (1, hu)} and f["dealt_in"] == {0: (1, hu)}
    assert f["hu_cut_off"] == {4: (1, r.first("AWARD"))}
    assert "passed_hu" not in f and "kong_robbed" not in f and "paid_for_zimo" not in f


def test_a_pass_is_passed_hu_only_when_hu_was_possible_lh30_lh34():
    after = lh.GAME.facts.after
    for hand3, could_hu in (("9s 9s Ah 2h 5h Th 5c 6c 8c Jc Qc 3d 3h", False), (WAIT8, True)):
        card = "9s" if not could_hu else "8c"
        s = table({0: card + " " + FILL14[3:], 3: hand3}, options={"min_hu": 0})
        s = lh.apply(s, act(s, "DISCARD", 0, card))
        s = lh.apply(s, lh.auto_event(s))                       # WINDOW
        assert [x for x, _ in s.eligible] == [3]
        e = act(s, "RESPOND", 3, tag="pass")
        assert tuple(after(lh.apply(s, e), e)) == (((3, "passed_hu"),) if could_hu else ())


def test_dealer_first_turn_zimo_and_the_five_who_pay_lh13_lh28_lh60():
    s = table({0: WAIT8 + " 8d"}, options={"min_hu": 0})
    hu = legal(s)[0]
    assert (hu.kind, hu.tag, hu.cards) == ("HU", "zimo", ())
    r = Run(s).play(hu)
    f = r.facts()
    assert f["won_zimo"] == {0: (1, r.first("HU"))}
    assert f["won_first_turn"] == {0: (1, r.first("HU"))}
    assert f["paid_for_zimo"] == {x: (1, r.first("SETTLE")) for x in range(1, 6)}


def test_zimo_after_a_draw_is_not_the_first_turn_lh28():
    s = table({2: "3h 3h 3h 9s Ts Js 4d 5d 6d 7c 7s"}, turn=2, drawn="7s",
              melds={2: [("an_gang", "Kd Kd Kd Kd", None, None)]})
    r = Run(s).play(legal(s)[0])
    f = r.facts()
    assert f["won_zimo"] == {2: (1, r.first("HU"))} and "won_first_turn" not in f
    assert set(f["paid_for_zimo"]) == {0, 1, 3, 4, 5}


def test_an_gang_and_the_exhausted_wall_lh23_lh64():
    s = table({0: "9h 9h 9h 9h 2s 5s 8s Jh 3c 6c 9d Qd Kc Ac"}, tail="Ac")
    r = Run(s).play(act(s, "AN_GANG", 0, "9h"))
    assert (r.log[-1].kind, r.log[-1].tag) == ("DRAW", "tail")
    while not lh.is_over(r.s):          # each seat discards what it drew, every claim passed
        r.play(act(r.s, "DISCARD", r.s.turn, (r.s.drawn,)) if r.s.phase == "turn"
               else legal(r.s)[0])
    f = r.facts()
    assert f["an_gang"] == {0: (1, r.first("AN_GANG"))}
    assert lh.result(r.s)["reason"] == "liuju"
    assert f["liuju"] == {x: (1, r.first("LIUJU")) for x in range(6)}


# ---------------------------------------------------------------- the catalog

def test_every_cited_rule_exists_and_rare_facts_are_in_the_catalog():
    rules = (Path(lh.__file__).parents[2] / "rules" / "liuhu.md").read_text()
    ids = set(re.findall(r"\bLH-\d+\b", rules))
    hooks = lh.GAME.facts
    for f in hooks.FACTS:
        cited = set(re.findall(r"\bLH-\d+\b", f.description))
        assert cited and cited <= ids, (f.name, cited - ids)
        assert re.search(r"[\u4e00-\u9fff]", f.label), f.label   # the game's own term
    assert set(lh.CONFORMANCE["rare_facts"]) <= set(hooks.names())
    assert hooks.KINDS is not None and "DRAW" not in hooks.KINDS and "DISCARD" not in \
        hooks.KINDS                                  # the commonest events are skipped
