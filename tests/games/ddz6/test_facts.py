"""六人斗地主 facts (engine.games.ddz6.facts): each variant's catalog against an independent count
from the events and the settlement of seeded self-play (count and first seq of every row), and
the rare facts (不打自贏 in the three variants, 七星聚 in the 4-deck ones) made to happen in
recorded hands built from arranged decks."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.cards import BLACK_JOKER, RED_JOKER
from engine.events import Event
from engine.facts import facts_table
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.combos import classify
from engine.games.ddz6.facts import FACTS, after, hooks
from engine.games.ddz6.play import play_event
from engine.games.ddz6.setup import deal_event
from engine.sim import simulate

from .reference import faces
from .test_game_support import PLAYERS, arrange, position

RANKS = "A23456789TJQK"          # face code % 13 (CONVENTIONS.md), jokers apart
BIG = {"3v3": 6, "2v4": 7, "zhengfan": 7}


# ---------------------------------------------------------------- an independent count

def _dealt(hand: tuple[int, ...], variant: str) -> list[str]:
    """The dealt facts of one hand, from rank characters."""
    ranks = Counter(RANKS[c % 13] for c in hand if c not in (BLACK_JOKER, RED_JOKER))
    out = []
    for n in ranks.values():
        if n >= 4:
            out.append("dealt_bomb")
        if n >= BIG[variant]:
            out.append("dealt_big_bomb")
    b, r = hand.count(BLACK_JOKER), hand.count(RED_JOKER)
    if b >= 3 or r >= 3 or b + r >= 4:
        out.append("dealt_joker_bomb")
    return out


PLAYED = {"bomb": "played_bomb", "joker_bomb": "played_joker_bomb",
          "airplane": "played_airplane", "straight": "played_straight"}


def expected(variant: str, events: list[Event]) -> dict[tuple[int, str], list[int]]:
    """(seat, fact) -> [count, first seq], counted from the events and the settlement alone
    (no engine state): what the catalog's descriptions say."""
    g = VARIANTS[variant]
    state = g.initial_state(events[0])
    for e in events[1:]:
        g.step(state, e)
    outcome = [o.result for o in g.outcomes(state)]
    result = json.loads(events[-1].payload)
    got: dict[tuple[int, str], list[int]] = {}

    def add(seat: int, fact: str, seq: int) -> None:
        row = got.setdefault((seat, fact), [0, seq])
        row[0] += 1

    sizes = [0] * 6
    landlords: set[int] = set()
    hidden: list[int] = []
    revealed: set[int] = set()
    rounds = 0
    for e in events:
        k, i = e.kind, e.seq
        if k == "DEAL":
            for seat in range(6):
                hand = e.cards[seat::6]
                sizes[seat] = len(hand)
                for f in _dealt(hand, variant):
                    add(seat, f, i)
        elif k == "CASE":
            hidden = json.loads(e.payload)["hidden"]
            lords = [e.seat] + ([e.target] if e.target >= 0 else []) + hidden
            landlords.update(lords)
            for x in lords:
                add(x, "landlord", i)
            for x in hidden:
                add(x, "hidden_landlord", i)
            if e.tag in ("A", "C"):
                for x in sorted(set(range(6)) - landlords):
                    add(x, "farmer", i)
        elif k == "BID_END" and e.seat >= 0 and variant == "3v3":
            landlords.add(e.seat)
            add(e.seat, "won_bid", i)
            add(e.seat, "landlord", i)
            for x in sorted(set(range(6)) - landlords):
                add(x, "farmer", i)
        elif k == "LANDLORDS":
            solo = e.value == 1
            lords = [e.seat] if solo else [e.seat, e.target]
            for x in lords:
                add(x, "landlord", i)
            if variant == "2v4":
                add(e.seat, "big_landlord", i)
                if not solo:
                    add(e.target, "second_landlord", i)
            elif not solo:
                add(e.seat, "zheng_landlord", i)
                add(e.target, "fan_landlord", i)
            if solo:
                add(e.seat, "solo", i)
            for x in range(6):
                if x not in lords:
                    add(x, "farmer", i)
        elif k == "KITTY":
            sizes[e.seat] += len(e.cards)
        elif k == "DOUBLE" and e.value == 1:
            add(e.seat, "doubled", i)
        elif k == "SHOW_HAND" and e.value == 1:
            add(e.seat, "showed_hand", i)
        elif k == "SIDE_CHOICE" and e.value == 1 and e.tag != "placed":
            add(e.seat, "joined_fan", i)
        elif k == "PLAY":
            c = classify(e.cards, variant, state.options)
            assert c is not None
            if c.kind in PLAYED:
                add(e.seat, PLAYED[c.kind], i)
            if variant != "3v3" and len(e.cards) == 7 and c.kind == "joker_bomb":
                add(e.seat, "qixingju", i)
            sizes[e.seat] -= len(e.cards)
            if sizes[e.seat] == 0:
                add(e.seat, "went_out", i)
        elif k == "ROUND_END":
            rounds += 1
        elif k == "REVEAL":
            revealed.add(e.seat)
            add(e.seat, "revealed", i)
            if rounds < 2:                       # no round has ended twice: round 1 or 2
                add(e.seat, "revealed_early", i)
        elif k == "AUTO_END" and e.tag != "void":
            for x in range(6):
                if outcome[x] == "win":
                    add(x, "auto_win", i)
        elif k == "HAND_END":
            for x in range(6):
                if outcome[x] in ("win", "loss") and result["sides"][x] is not None:
                    add(x, "won" if outcome[x] == "win" else "lost", i)
            if e.tag == "out":
                for x in hidden:
                    if x not in revealed:
                        add(x, "stayed_hidden", i)
    return got


def rows(events: list[Event]) -> dict[tuple[int, str], list[int]]:
    """The collector's rows of one game: (seat, fact) -> [count, first seq]."""
    return {(r["seat"], r["fact"]): [r["count"], r["first_seq"]]
            for r in facts_table([events]).to_pylist()}


def corpus(variant: str, n: int = 12) -> list[list[Event]]:
    """Seeded self-play of a variant's conformance option sets, random and greedy."""
    g = VARIANTS[variant]
    out = []
    for k, opts in enumerate(g.CONFORMANCE["option_sets"]):
        for policy in ("random", "greedy"):
            out += [x.events for x in simulate(g.GAME_ID, n, seed=31 + k, policy_name=policy,
                                                options=g.Options(**opts), session_games=4)]
    return out


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def played(request) -> tuple[str, list[list[Event]]]:
    """A variant and its self-play corpus."""
    return request.param, corpus(request.param)


def test_every_row_agrees_with_the_independent_count(played):
    variant, games = played
    seen: Counter[str] = Counter()
    for events in games:
        want = expected(variant, events)
        assert rows(events) == want, events[0].game_id
        seen.update(f for _, f in want)
    # the corpus reaches the branches the count tells apart
    rare = set(VARIANTS[variant].CONFORMANCE["rare_facts"])
    assert set(hooks(variant).names()) - rare <= set(seen), \
        set(hooks(variant).names()) - rare - set(seen)
    if variant == "3v3":
        assert seen["revealed"] > seen["revealed_early"] > 0 and seen["stayed_hidden"] > 0
    else:
        assert seen["solo"] > 0 and seen["farmer"] > seen["landlord"]


def test_first_seq_points_at_the_event(played):
    """The first seq of a reveal is the REVEAL, of going out the last play, of a role the event
    that gave it; a fact counted at HAND_END is on the HAND_END."""
    variant, games = played
    at = {"revealed": "REVEAL", "revealed_early": "REVEAL", "went_out": "PLAY",
          "won": "HAND_END", "lost": "HAND_END", "stayed_hidden": "HAND_END",
          "doubled": "DOUBLE", "showed_hand": "SHOW_HAND", "joined_fan": "SIDE_CHOICE",
          "dealt_bomb": "DEAL", "hidden_landlord": "CASE", "won_bid": "BID_END",
          "solo": "LANDLORDS", "big_landlord": "LANDLORDS"}
    checked = Counter()
    for events in games:
        for (seat, fact), (_, first) in rows(events).items():
            e = events[first]
            if fact in at:
                assert e.kind == at[fact], (fact, e)
                checked[fact] += 1
            if fact in ("revealed", "went_out", "doubled", "showed_hand", "joined_fan"):
                assert e.seat == seat
            if fact == "went_out":
                end = next(x for x in events[first + 1:] if x.kind not in ("REVEAL", "LOCK"))
                assert end.kind == "HAND_END" and end.seat == seat and end.tag == "out"
            if fact == "landlord":
                assert e.kind in ("CASE", "BID_END", "LANDLORDS")
    out = sum(1 for events in games for e in events if e.kind == "HAND_END" and e.tag == "out")
    assert checked["went_out"] == out > 0


def test_the_fast_path_agrees_with_after(played):
    """``hooks(v).after`` (plays without a further call) and ``after`` give the same pairs."""
    variant, games = played
    g = VARIANTS[variant]
    find, kinds = hooks(variant).after, hooks(variant).KINDS
    assert g.facts.names() == tuple(f.name for f in FACTS[variant])
    for events in games[:4]:
        s = g.initial_state(events[0])
        for e in events[1:]:
            g.step(s, e)
            pairs = tuple(find(s, e))
            assert pairs == after(s, e)
            if pairs:
                assert e.kind in kinds


def test_catalogs_share_the_common_facts_and_cite_rules():
    common = {"dealt_bomb", "dealt_joker_bomb", "played_bomb", "played_joker_bomb",
              "went_out", "won", "lost", "landlord", "farmer", "auto_win"}
    for variant, facts in FACTS.items():
        names = [f.name for f in facts]
        assert common <= set(names) and len(names) == len(set(names))
        assert 14 <= len(names) <= 20, (variant, len(names))
        assert all("DDZ-" in f.description and "(" in f.label for f in facts)
    assert "qixingju" not in {f.name for f in FACTS["3v3"]}       # no 七星聚 with 6 jokers


# ---------------------------------------------------------------- recorded hands of the rare facts

class Hand:
    """A hand recorded event by event from an arranged deck, finished by a seeded bot."""

    def __init__(self, variant: str, deck: tuple[int, ...], options: dict | None = None):
        self.g = g = VARIANTS[variant]
        e0 = g.start_event(f"facts-{variant}", PLAYERS, random.Random(0),
                           g.Options(**(options or {})))._replace(cards=deck)
        self.s = g.initial_state(e0)
        self.events = [e0]

    def push(self, e: Event) -> Event:
        """Step an event at the next seq and record it."""
        e = e._replace(game_id=self.s.game_id, seq=self.s.seq)
        self.g.step(self.s, e)
        self.events.append(e)
        return e

    def deal(self, pos: int, dark: int | None = None) -> None:
        """The DEAL with these mark positions, then the automatic events after it."""
        self.push(deal_event(self.s, pos, dark))
        self.autos()

    def autos(self) -> None:
        """Step the owed automatic events."""
        while self.s.owed:
            self.push(self.g.auto_event(self.s))

    def act(self, kind: str, seat: int, value: int) -> Event:
        """A seat's BID, SIDE_CHOICE or SHOW_HAND, then the automatic events after it."""
        e = self.push(Event(kind, seat, (), -1, value, "", None, "", 0))
        self.autos()
        return e

    def play(self, seat: int, text: str) -> Event:
        """A seat plays these cards (declared and valued as the engine does)."""
        cards = faces(text)
        e = self.push(play_event(self.s, seat, cards, classify(cards, self.s.variant,
                                                               self.s.options)))
        self.autos()
        return e

    def finish(self, seed: int = 1) -> list[Event]:
        """Play the hand out with the random bot; the recorded events."""
        rng = random.Random(seed)
        bot = self.g.POLICIES["random"]()
        while not self.g.is_over(self.s):
            self.push(self.g.auto_event(self.s, rng) or bot.choose(self.s, rng))
        return self.events


def _seats(got: dict[tuple[int, str], list[int]], fact: str) -> set[int]:
    return {seat for seat, f in got if f == fact}


def test_3v3_case_c_wins_without_play():
    f = faces("7")[0]
    d = arrange("3v3", {2: (f, f, f)}, seed=4)
    h = Hand("3v3", d)
    h.deal(position(d, 2, f))
    events = h.finish()
    kinds = [e.kind for e in events]
    assert kinds[-4:] == ["CASE", "AUTO_END", "HAND_END", "GAME_END"]
    got = rows(events)
    assert got == expected("3v3", events)
    auto_seq = kinds.index("AUTO_END")
    assert got[(2, "auto_win")] == [1, auto_seq] and _seats(got, "auto_win") == {2}
    assert _seats(got, "won") == {2} and _seats(got, "lost") == {0, 1, 3, 4, 5}
    assert got[(2, "landlord")][1] == kinds.index("CASE")
    assert _seats(got, "farmer") == {0, 1, 3, 4, 5}
    assert not _seats(got, "went_out") and not _seats(got, "hidden_landlord")


def test_3v3_a_joker_bomb_dealt_and_led_by_m():
    f, bj = faces("7")[0], faces("B")[0]
    d = arrange("3v3", {0: (f, bj, bj, bj), 1: (f,), 2: (f,)}, seed=3)
    h = Hand("3v3", d)
    h.deal(position(d, 0, f))                       # case A: M 0, hidden 1 and 2
    for seat in range(6):
        h.act("DOUBLE", seat, int(seat == 4))
    e = h.play(0, "BBB")                            # M leads (DDZ-71): 三王炸彈, N + 1
    assert e.tag == "joker_bomb:J3-4" and e.value == 3
    events = h.finish()
    got = rows(events)
    assert got == expected("3v3", events)
    assert got[(0, "played_joker_bomb")][1] == e.seq
    assert (0, "dealt_joker_bomb") in got and _seats(got, "doubled") == {4}
    assert _seats(got, "hidden_landlord") == {1, 2} and (0, "hidden_landlord") not in got


NO_BOMB = "333444555666777888999TTTJJJQQQKKKA"      # 34 cards, no rank four times


def test_2v4_a_landlord_without_a_bomb_wins_without_play():
    d = arrange("2v4", {0: NO_BOMB}, kitty="AA222B", seed=0)
    h = Hand("2v4", d)
    h.deal(0, 3)                                 # OM 0, DM 3
    h.act("BID", 0, 3)
    events = h.finish()
    got = rows(events)
    assert got == expected("2v4", events)
    end = next(e for e in events if e.kind == "AUTO_END")
    assert end.tag == "a" and end.seat == 0
    assert _seats(got, "auto_win") == {0, 3} == _seats(got, "won")
    assert all(got[(x, "auto_win")] == [1, end.seq] for x in (0, 3))
    assert _seats(got, "big_landlord") == {0} and _seats(got, "second_landlord") == {3}
    assert not any(f.startswith("played_") or f == "went_out" for _, f in got)


def test_zhengfan_auto_win_goes_to_the_qualifying_landlords_side():
    d = arrange("zhengfan", {0: NO_BOMB}, kitty="AA222B", seed=2)
    h = Hand("zhengfan", d)
    h.deal(0, 3)                                 # 正 0, 反 3; F1 … F4 = 1, 2, 4, 5
    h.act("SIDE_CHOICE", 1, 1)
    h.act("SIDE_CHOICE", 2, 1)                      # both 反: 4 and 5 placed 正
    events = h.finish()
    got = rows(events)
    assert got == expected("zhengfan", events)
    end = next(e for e in events if e.kind == "AUTO_END")
    assert _seats(got, "auto_win") == {0, 4, 5} == _seats(got, "won")
    assert _seats(got, "lost") == {1, 2, 3}
    assert all(got[(x, "auto_win")][1] == end.seq for x in (0, 4, 5))
    assert _seats(got, "joined_fan") == {1, 2}       # the placed farmers chose nothing
    assert _seats(got, "zheng_landlord") == {0} and _seats(got, "fan_landlord") == {3}


@pytest.mark.parametrize("lock", ["on", "off"])
def test_2v4_qixingju(lock):
    d = arrange("2v4", {0: "BBBBRRR33"}, seed=6)
    h = Hand("2v4", d, {"no_bomb_autowin": "off", "qixingju_lock": lock})
    h.deal(0, 3)
    h.act("BID", 0, 3)                                # seat 0: big landlord, leads
    h.act("SHOW_HAND", 0, 0)
    h.act("SHOW_HAND", 3, 0)
    before = h.s.mult
    e = h.play(0, "BBBBRRR")
    assert e.value == before + 9                      # DDZ-86 ③
    events = h.finish()
    got = rows(events)
    assert got == expected("2v4", events)
    assert got[(0, "qixingju")] == [1, e.seq] and got[(0, "played_joker_bomb")][1] == e.seq
    assert _seats(got, "qixingju") == {0}
    assert (0, "dealt_joker_bomb") in got and (0, "landlord") in got
    assert ("LOCK" in [x.kind for x in events]) == (lock == "on")


def test_zhengfan_qixingju_by_a_farmer_in_the_first_lead():
    d = arrange("zhengfan", {5: "BBBBRRR44"}, seed=8)
    h = Hand("zhengfan", d, {"no_bomb_autowin": "off"})
    h.deal(0, 3)                                 # the first lead: OM − 1 = seat 5
    h.act("SIDE_CHOICE", 1, 0)
    h.act("SIDE_CHOICE", 2, 1)
    h.act("SIDE_CHOICE", 4, 1)                      # F3 chooses; F4 = 5 placed 正
    h.act("SHOW_HAND", 0, 1)
    h.act("SHOW_HAND", 3, 0)
    assert h.s.turn == 5
    e = h.play(5, "BBBBRRR")
    events = h.finish()
    got = rows(events)
    assert got == expected("zhengfan", events)
    assert got[(5, "qixingju")] == [1, e.seq] and (5, "farmer") in got
    assert _seats(got, "joined_fan") == {2, 4} and _seats(got, "showed_hand") == {0}


def test_every_rare_fact_is_made_to_happen_here():
    """The rare facts of each variant are those this file's recorded hands make happen."""
    made = {"3v3": {"auto_win"}, "2v4": {"auto_win", "qixingju"},
            "zhengfan": {"auto_win", "qixingju"}}
    for variant, g in VARIANTS.items():
        assert set(g.CONFORMANCE["rare_facts"]) == made[variant]
