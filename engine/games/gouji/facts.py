"""够级 facts (engine.facts, docs/facts.md): what happened to one seat in one game, as a strong
player searches for it — the jokers and 3s of the deal, 宣点 / 和点 / 开点, 够级 leads, burns
done and suffered (烧, 反烧, 解烧, 诈烧), 闷 done and suffered, 没头, the place (头客, 拉客) and
the 串三户.

``after`` reads the state *after* an accepted event. An action applies all its consequences at
once (rules.py) and the derived events that record them follow it (GJ-48), so most facts are
read off a derived event (OPENED, BURN_START, BURN_END, OUT, GAME_END); a 闷 is credited to the
seat whose PLAY caused it, read from the derived events that PLAY leaves owed.
"""

from __future__ import annotations

from engine.events import Event
from engine.games.gouji.cards import BJ_S, RJ_S, STRENGTH, THREE
from engine.games.gouji.plays import make_info
from engine.games.gouji.state import MEN, N_SEATS, GoujiState, opposite, team_of
from engine.games.gouji.turns import counts_out, play_tag, sweep_team

FACTS = (
    ("held_joker", "held a joker (王)",
     "the seat's hand after the DEAL held a joker, big (大王 RJ) or small (小王 BJ), counted "
     "per joker: 4 counts a hand of four jokers (GJ-2, GJ-8, GJ-11, GJ-12)"),
    ("held_big_joker", "held a big joker (大王)",
     "the seat's hand after the DEAL held a big joker (RJ), the card no play beats "
     "(GJ-11, GJ-15), counted per big joker (GJ-2, GJ-8)"),
    ("held_three", "held a 3 (3)",
     "the seat's hand after the DEAL held a 3, which must be played last and is what a player "
     "is stifled on (GJ-28, GJ-44), counted per 3 (GJ-2, GJ-8)"),
    ("proposed_point", "proposed the point (宣点)",
     "the seat declared 宣点 for its opposite pair (XUANDIAN, GJ-38), whatever the answer"),
    ("agreed_point", "opened by agreeing the point (和点)",
     "the seat was opened because its pair agreed the point: counted for both the proposer "
     "and the opposite who agreed (OPENED via hedian, GJ-37, GJ-38)"),
    ("opened_point", "opened the point (开点)",
     "the seat was opened by 开点: its pure 够级 play stood and its next lead was natural 4s "
     "(OPENED via kaidian, GJ-36, GJ-37)"),
    ("led_gouji", "led a 够级 play (够级牌)",
     "the seat led a play that is a 够级 play by its annotation (GJ-16, GJ-19, GJ-48): only "
     "its opposite, a 没头 player or a burner may answer it (GJ-20); counted per lead"),
    ("burned", "burned a 够级 play (烧)",
     "the seat started a burn: it answered a 够级 play of a player other than its opposite "
     "(BURN_START, GJ-39), a 反烧 included (GJ-41); counted per burn"),
    ("was_burned", "had a 够级 play burned (被烧)",
     "another seat burned this seat's 够级 play: the seat the BURN_START was taken from "
     "(GJ-39), a burner whose play was counter-burned included (GJ-41); counted per burn"),
    ("counter_burned", "counter-burned a burner (反烧)",
     "the seat answered the burner's play and became the burner itself (BURN_START as a "
     "counter, GJ-41 b)"),
    ("relieved_burn", "relieved a burn (解烧)",
     "the seat answered its opposite's play while the opposite was burning, ending the burn "
     "(BURN_END relieved, GJ-41 a)"),
    ("burn_succeeded", "went out burning (烧牌成功)",
     "the seat emptied its hand while its burn lasted (BURN_END success, GJ-42)"),
    ("false_burn", "false burn (诈烧)",
     "the seat, burning, led a play without a joker and was judged 拉客 (BURN_END fake, "
     "GJ-40, GJ-43)"),
    ("stifled", "stifled a player (闷)",
     "the seat's answer beat the play that left its maker holding only a 3 (or only 3s under "
     "men_scope threes_only), who was judged (GJ-44, GJ-45); counted per player stifled"),
    ("was_stifled", "was stifled (被闷)",
     "the seat was judged by 闷: its play that left it only a 3 (or only 3s) was beaten "
     "(OUT men, GJ-44, GJ-45)"),
    ("meitou", "left headless (没头)",
     "the seat's opposite went out or was judged (counted as out under judged_counts_as_out, "
     "GJ-18) while the seat was active and the phase stayed restricted: the seat is 没头 "
     "(GJ-30)"),
    ("touke", "finished first (头客)",
     "the seat's final position was 1, 头客 (GAME_END, GJ-31)"),
    ("lake", "finished last (拉客)",
     "the seat's final position was 6, 拉客 (大拉): last to go out, judged first (GJ-45) or "
     "designated after a 串三户 (GJ-34); it starts the next game (GJ-9, GJ-31)"),
    ("chuansanhu", "swept three places (串三户)",
     "the seat's team took positions 1, 2 and 3 (GJ-34), counted for each of its members"),
    ("was_swept", "was swept (被串三户)",
     "the other team took positions 1, 2 and 3 (GJ-34); the seat's team owes the 会五 of the "
     "next game (GJ-35); counted for each member of the swept team"),
)
KINDS = ("DEAL", "XUANDIAN", "OPENED", "PLAY", "BURN_START", "BURN_END", "OUT", "GAME_END")

_NONE: tuple[tuple[int, str], ...] = ()
# the annotation tags of a lead that is a 够级 play (GJ-48): pure (K K) or not (5 BJ); a 够级
# play is never 开点 (natural 4s are not 够级-shaped) nor void (诈烧)
_LEAD_GOUJI = frozenset(play_tag("lead", info, True, False, False)
                        for info in (make_info(13, 2, 0, 0, 0), make_info(5, 2, 0, 1, 0)))
_OPENED = {"kaidian": "opened_point", "hedian": "agreed_point"}


def after(s: GoujiState, e: Event) -> tuple[tuple[int, str], ...]:
    """The (seat, fact) pairs this accepted event makes happen, read from the state after it."""
    kind = e.kind
    if kind == "PLAY":                          # most events: the annotation, then the owed
        if s.owed:
            return _play(s, e)
        return ((e.seat, "led_gouji"),) if e.tag in _LEAD_GOUJI else _NONE
    if kind == "OUT":
        return _out(s, e)
    if kind == "BURN_START":
        pairs = ((e.seat, "burned"), (e.target, "was_burned"))
        return pairs + ((e.seat, "counter_burned"),) if e.tag == "counter" else pairs
    if kind == "BURN_END":
        how = e.tag
        if how == "relieved":
            return ((opposite(e.seat), "relieved_burn"),)
        if how == "success":
            return ((e.seat, "burn_succeeded"),)
        if how == "fake":
            return ((e.seat, "false_burn"),)
        return _NONE
    if kind == "DEAL":
        return _deal(s)
    if kind == "OPENED":
        fact = _OPENED.get(e.tag)
        return ((e.seat, fact),) if fact else _NONE
    if kind == "XUANDIAN":
        return ((e.seat, "proposed_point"),)
    if kind == "GAME_END":
        return _game_end(s)
    return _NONE


def _play(s: GoujiState, e: Event) -> tuple[tuple[int, str], ...]:
    """A 够级 lead (its annotation, GJ-48) and the 闷 this play causes (its owed OUT, GJ-44)."""
    pairs = ((e.seat, "led_gouji"),) if e.tag in _LEAD_GOUJI else _NONE
    for x in s.owed:            # the derived events of this play, not yet recorded
        if x.kind == "OUT" and x.tag == MEN:
            pairs += ((e.seat, "stifled"),)
    return pairs


def _out(s: GoujiState, e: Event) -> tuple[tuple[int, str], ...]:
    """闷 suffered, and the opposite left 没头 (GJ-18, GJ-30): the state after holds every
    consequence of the action, so a phase it opens is already open."""
    seat = e.seat
    pairs = ((seat, "was_stifled"),) if e.tag == MEN else _NONE
    opp = opposite(seat)
    if not s.open_phase and s.out_pos[opp] == 0 and counts_out(s, seat):
        pairs += ((opp, "meitou"),)
    return pairs


def _deal(s: GoujiState) -> tuple[tuple[int, str], ...]:
    """Jokers, big jokers and 3s of each hand: a hand is sorted by strength (state.py), its
    3s first and its jokers last."""
    pairs: tuple[tuple[int, str], ...] = ()
    for seat, hand in enumerate(s.hands):
        threes = 0
        while threes < len(hand) and STRENGTH[hand[threes]] == THREE:
            threes += 1
        jokers = big = 0
        for c in reversed(hand):
            v = STRENGTH[c]
            if v < BJ_S:
                break
            jokers += 1
            big += v == RJ_S
        pairs += ((seat, "held_joker"),) * jokers + ((seat, "held_big_joker"),) * big \
            + ((seat, "held_three"),) * threes
    return pairs


def _game_end(s: GoujiState) -> tuple[tuple[int, str], ...]:
    """头客 and 拉客 (GJ-31), the 串三户 made and suffered (GJ-34)."""
    pos = s.out_pos
    pairs: tuple[tuple[int, str], ...] = ((pos.index(1), "touke"), (pos.index(6), "lake"))
    sweep = sweep_team(s)
    if sweep >= 0:
        pairs += tuple((i, "chuansanhu" if team_of(i) == sweep else "was_swept")
                       for i in range(N_SEATS))
    return pairs


__all__ = ["FACTS", "KINDS", "after"]
