"""Positions must be possible: the checks that a 六人斗地主 position read by ``position.py`` is one
the rules can reach (docs/positions.md, "What is checked").

Everything before the first play is a function of the deck, the marks and the seats' recorded
choices (bids, side choices, doubling and show-hand decisions): ``setup_replay`` plays those
through the engine's own steps, and every setup field of the position (the case and its
landlords, the bidding order and winner, sides, the kitty and its shares, the hands after the
deal, S and N, the auto-win, the events owed) must be what they give. A choice the rules refuse
is named with the rule it breaks. In play, the cards can only have left the hands they were
dealt: ``check_play`` ties hands, played cards, the top play and its seat, the passes and the
seat to act, N and its bomb increments, reveals, the 七星聚 lock, the seat gone out and the end
to each other.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.errors import EngineError, IllegalMove
from engine.events import Event
from engine.games.codec import bad, shown
from engine.games.common import faces
from engine.games.ddz6 import rules, setup
from engine.games.ddz6.cards import BJ, HAND_SIZE, RJ
from engine.games.ddz6.combos import QIXINGJU, classify, locked_joker
from engine.games.ddz6.play import SEATS, side_code
from engine.games.ddz6.scoring import JOKER_INC_3V3, JOKER_INC_4DECK, bomb_increment
from engine.games.ddz6.state import BID, DOUBLE, END, OUT, OVER, PLAY, SHOW, SIDE, DdzState

# The position field each recorded choice (the event kind that records it) is read from.
CHOICE_FIELD = {"DEAL": "marks.open", "BID": "bidding.bids", "SIDE_CHOICE": "side_choosing.sides",
                "DOUBLE": "doubles", "SHOW_HAND": "shows"}

# Fields of the state fixed before the first play, in the order they are compared (the seats'
# choices first: a wrong derived field is then named only when the choices agree), with the
# position field and the rule that fixes them (by variant where they differ).
SETUP_FIELDS: tuple[tuple[str, str, Any], ...] = (
    ("bids", "bidding.bids", {"3v3": "DDZ-15", "2v4": "DDZ-19"}),
    ("side_of", "side_choosing.sides", "DDZ-35"),
    ("doubles", "doubles", "DDZ-37"),
    ("shows", "shows", "DDZ-38"),
    ("case", "case", "DDZ-24"),
    ("p_seat", "p_seat", "DDZ-24"),
    ("hidden", "hidden", "DDZ-24"),
    ("bid_order", "bidding.order", {"3v3": "DDZ-15", "2v4": "DDZ-19"}),
    ("bid_winner", "bidding.winner", {"3v3": "DDZ-17", "2v4": "DDZ-19"}),
    ("bid_value", "bidding.bid", "DDZ-14"),
    ("landlords", "landlords", {"3v3": "DDZ-24", "2v4": "DDZ-28", "zhengfan": "DDZ-32"}),
    ("solo", "solo", {"3v3": "DDZ-24", "2v4": "DDZ-29", "zhengfan": "DDZ-33"}),
    ("fixed", "fixed", {"3v3": "DDZ-24", "2v4": "DDZ-28", "zhengfan": "DDZ-35"}),
    ("farmer_order", "side_choosing.farmers", "DDZ-35"),
    ("placed", "side_choosing.placed", "DDZ-35"),
    ("sides_done", "side_choosing.ended", "DDZ-36"),
    ("auto", "auto", {"3v3": "DDZ-77", "2v4": "DDZ-78", "zhengfan": "DDZ-79"}),
    ("base", "S", {"3v3": "DDZ-82", "2v4": "DDZ-85", "zhengfan": "DDZ-85"}),
    ("shares", "shares", {"3v3": "DDZ-4", "2v4": "DDZ-30", "zhengfan": "DDZ-34"}),
    ("kitty", "kitty", {"3v3": "DDZ-4", "2v4": "DDZ-30", "zhengfan": "DDZ-34"}),
    ("shown", "shown", "DDZ-38"),
)
# The other fields, compared as well while the hand has not reached its first play.
LATER_FIELDS: tuple[tuple[str, str, Any], ...] = (
    ("hands", "hands", "DDZ-7"),
    ("played", "played", "DDZ-71"),
    ("mult", "N", {"3v3": "DDZ-83", "2v4": "DDZ-86", "zhengfan": "DDZ-86"}),
    ("bomb_incs", "bomb_increments", "DDZ-81"),
    ("revealed", "revealed", "DDZ-26"),
    ("round_no", "round.number", "DDZ-71"),
    ("leader", "round.leader", "DDZ-71"),
    ("turn", "round.turn", "DDZ-71"),
    ("turn_rule", "round.turn_rule", "DDZ-71"),
    ("top_seat", "round.top_seat", "DDZ-71"),
    ("top_cards", "round.top_cards", "DDZ-71"),
    ("passes", "round.passes", "DDZ-72"),
    ("acts", "round.last", "DDZ-72"),
    ("locked", "locked", "DDZ-70"),
    ("out_seat", "end.out_seat", "DDZ-76"),
    ("win_side", "end.winning_side", "DDZ-76"),
    ("end_reason", "end.reason", "DDZ-76"),
    ("phase", "phase", "DDZ-92"),
    ("owed", "owed", "DDZ-92"),
    ("seq", "seq", "DDZ-92"),
    ("result", "result", "DDZ-81"),
)
PER_SEAT = frozenset({"hands", "shares"})

# What one bomb can add to N (DDZ-83, DDZ-86; DDZ-87: nothing in a solo 4-deck hand).
INCREMENTS = {"3v3": frozenset({0, 1, *JOKER_INC_3V3.values()}),
              "four": frozenset({*range(0, 11), *JOKER_INC_4DECK.values()})}

_PLAY_STARTS: dict[tuple, DdzState] = {}      # setup replays that reached the first play
_CACHE_SIZE = 256


def _rule(rule: Any, variant: str) -> str:
    return rule.get(variant, "DDZ-14") if isinstance(rule, dict) else rule


def _show(slot: str, v: Any) -> str:
    """A state value as a message quotes it (faces as text, -1 as null)."""
    if slot in ("kitty", "played", "top_cards"):
        return shown(faces(v)) if len(v) > 12 else str(faces(v))
    if isinstance(v, tuple):
        return str(list(v))
    if isinstance(v, int) and not isinstance(v, bool) and v < 0 and slot not in ("mult",):
        return "null"
    if isinstance(v, str) and len(v) > 40:
        return shown(v)
    return repr(v) if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)


# ---------------------------------------------------------------- the setup replay

def _next_setup_event(k: DdzState, s: DdzState) -> Event | None:
    """The next event of the setup replay: the owed engine event (the deal with the
    position's marks), else the position's recorded choice of the seat to decide; None when
    the position records no more choices."""
    if k.owed:
        kind = k.owed[0]
        if kind == "DEAL":
            if s.mark_pos < 0:
                return None
            return setup.deal_event(k, s.mark_pos, s.dark_pos if k.four else None)
        return rules.expected(k, kind)
    from engine.games.ddz6.game import to_move
    seat = to_move(k)
    if k.phase == BID:
        i = len(k.bids)
        return setup.action(k, "BID", seat, value=s.bids[i]) if i < len(s.bids) else None
    if k.phase == SIDE:
        side = s.side_of[seat] if len(s.side_of) == SEATS and seat >= 0 else -1
        return setup.action(k, "SIDE_CHOICE", seat, value=side) if side >= 0 else None
    if k.phase in (DOUBLE, SHOW):
        made = s.doubles if k.phase == DOUBLE else s.shows
        i = len(k.doubles if k.phase == DOUBLE else k.shows)
        kind = "DOUBLE" if k.phase == DOUBLE else "SHOW_HAND"
        return setup.action(k, kind, seat, value=made[i]) if i < len(made) else None
    return None


def setup_replay(s: DdzState) -> DdzState:
    """The hand replayed from GAME_START with the position's marks and recorded choices, up to
    the position's seq or the first play (a choice the rules refuse is named with its rule)."""
    from engine.games.ddz6.game import fresh
    key = (s.variant, s.options, s.deck, s.mark_pos, s.dark_pos, s.bids, s.side_of,
           s.doubles, s.shows)
    k = _PLAY_STARTS.get(key)
    if k is not None and k.seq <= s.seq:
        return k
    k = fresh(s.variant, s.game_id, s.options, s.players, s.deck)
    while k.seq < s.seq and k.phase != PLAY:
        e = _next_setup_event(k, s)
        if e is None:
            break
        try:
            rules.step(k, e)
        except IllegalMove as exc:
            reason = exc.reason.split(": ", 1)[-1]
            raise bad(CHOICE_FIELD.get(e.kind, "owed"), f"the recorded {e.describe()} breaks "
                      f"{exc.rule_id}: {reason}"[:400]) from None
        except EngineError as exc:
            raise bad(CHOICE_FIELD.get(e.kind, "owed"), f"the recorded {e.describe()} is "
                      f"refused: {exc}"[:400]) from None
    if k.phase == PLAY:
        if len(_PLAY_STARTS) >= _CACHE_SIZE:
            _PLAY_STARTS.clear()
        _PLAY_STARTS[key] = k
    return k


def _mismatches(s: DdzState, k: DdzState,
                fields: tuple[tuple[str, str, Any], ...]) -> list[tuple[str, str, Any]]:
    """The fields of the position that differ from the replay's, in order."""
    return [f for f in fields if getattr(s, f[0]) != getattr(k, f[0])]


def _refuse(s: DdzState, k: DdzState, field: tuple[str, str, Any]) -> None:
    """Refuse the position naming a field that differs from the replay's."""
    slot, name, rule = field
    mine, want = getattr(s, slot), getattr(k, slot)
    rid = _rule(rule, s.variant)
    if slot in PER_SEAT:
        i = next(i for i in range(SEATS) if mine[i] != want[i])
        what = "dealt to" if slot == "hands" else "taken by"
        extra = sorted((Counter(mine[i]) - Counter(want[i])).elements())
        raise bad(f"{name}[{i}]", f"holds {len(mine[i])} cards, but the deck, the marks "
                  f"and the recorded choices give {len(want[i])} cards {what} seat {i} "
                  f"now ({rid})" if len(mine[i]) != len(want[i]) else
                  f"holds {faces(extra)[:6]}, which the deck does not give seat {i} "
                  f"({rid})")
    raise bad(name, f"is {_show(slot, mine)}, but the deck, the marks and the recorded "
              f"choices make it {_show(slot, want)} at this point ({rid})")


def _compare(s: DdzState, k: DdzState, fields: tuple[tuple[str, str, Any], ...]) -> None:
    """Each field of the position equals the replay's, or the first that does not is named;
    when several disagree and the marks' holders disagree with the hand's records, the marks
    are named (the replay follows them, so a wrong mark shows in many fields)."""
    wrong = _mismatches(s, k, fields)
    if not wrong:
        return
    if len(wrong) > 1:
        _check_holders(s)
    _refuse(s, k, wrong[0])


def check_reachable(s: DdzState, acts_known: bool = True) -> None:
    """Refuse a position no hand of its options reaches (module docstring); ``acts_known``:
    False for a position written before ``round.last`` (its other acts are not checked)."""
    if s.four and (s.mark_pos < 0) != (s.dark_pos < 0):
        raise bad("marks.dark", "the 4-deck deal marks two cards, the open and the dark mark "
                  "(DDZ-10)")
    k = setup_replay(s)
    if k.phase != PLAY:
        _compare(s, k, SETUP_FIELDS + LATER_FIELDS)
        return
    _compare(s, k, SETUP_FIELDS)
    if s.phase not in (PLAY, END, OVER):
        raise bad("phase", f"is {s.phase!r}, but the recorded choices have begun play "
                  "(DDZ-71)")
    check_play(s, k, acts_known)


def _check_holders(s: DdzState) -> None:
    """The marks' holders (d[i] goes to seat i mod 6, DDZ-7) are the seats the hand records
    for them: M the first 3v3 landlord (DDZ-8), OM the first 2v4 bidder (DDZ-19) and the 正
    landlord (DDZ-32), DM the second landlord or the solo one (DDZ-22, DDZ-29, DDZ-32)."""
    if s.mark_pos < 0:
        return
    om, where = s.mark_pos % SEATS, f"deck position {s.mark_pos}"
    recorded = s.bid_order[:1] if s.variant == "2v4" else s.landlords[:1]
    if recorded and recorded[0] != om:
        rule = {"3v3": "DDZ-8", "2v4": "DDZ-19", "zhengfan": "DDZ-32"}[s.variant]
        raise bad("marks.open", f"the mark at {where} goes to seat {om}, but the hand records "
                  f"seat {recorded[0]} as its holder ({rule})")
    if s.four and s.dark_pos >= 0 and (s.solo or len(s.landlords) == 2):
        dm = s.dark_pos % SEATS
        want = s.landlords[0] if s.solo else s.landlords[1]
        if want != dm:
            raise bad("marks.dark", f"the dark mark at deck position {s.dark_pos} goes to seat "
                      f"{dm}, but the hand records seat {want} as its holder (DDZ-22, DDZ-32)")


# ---------------------------------------------------------------- play

def check_play(s: DdzState, k: DdzState, acts_known: bool = True) -> None:
    """The play fields against the hands at the first play ``k`` (section 9, 10, 11)."""
    _check_hands(s, k)
    plays = _check_round(s, k, acts_known)
    _check_multiplier(s, k, plays)
    _check_reveals(s, k)
    _check_lock(s)
    _check_owed_and_end(s)
    minimum = (k.seq + 7 * (s.round_no - 1) + (1 + s.passes if s.top is not None else 0)
               + len(s.revealed) + (s.locked >= 0) + (s.phase in (END, OVER)) + (s.phase == OVER))
    if s.seq < minimum:
        raise bad("seq", f"is {s.seq}, but the plays, passes and rounds of this position take "
                  f"the next seq to {minimum} at least (DDZ-92)")


def _check_hands(s: DdzState, k: DdzState) -> None:
    """Cards only leave the hands they were dealt (and the kitty shares taken) by plays."""
    for i in range(SEATS):
        extra = Counter(s.hands[i]) - Counter(k.hands[i])
        if extra:
            face = next(iter(sorted(extra)))
            raise bad(f"hands[{i}]", f"holds {faces([face])[0]}, which the deal and the kitty "
                      f"did not give seat {i} (more than its {HAND_SIZE[s.variant]} dealt and "
                      f"{len(k.shares[i])} kitty cards hold) (DDZ-7, DDZ-40)")


def _check_round(s: DdzState, k: DdzState, acts_known: bool = True) -> int:
    """The round: its number, leader, top play and its seat, the passes and the seat to act
    (DDZ-71 … DDZ-74); returns the fewest plays the position needs."""
    if s.round_no < 1:
        raise bad("round.number", "play is in round 1 or later (DDZ-71)")
    plays = s.round_no - 1 + (s.top is not None)
    if plays > len(s.played) or (plays == 0) != (not s.played):
        raise bad("round.number", f"round {s.round_no} with {len(s.played)} cards played: "
                  "every round has a play, and no card is played before the first (DDZ-72)")
    first = setup.first_leader(k)
    if s.round_no == 1 and s.leader != first:
        raise bad("round.leader", f"is {_show('leader', s.leader)}, but seat {first} leads the "
                  "first round (DDZ-71)")
    if s.leader < 0:
        raise bad("round.leader", "a round in play has a leader (DDZ-72)")
    if s.top is None:
        want_rule = ("DDZ-71",) if s.round_no == 1 else ("DDZ-74", "DDZ-70")
        if any(a is not None for a in s.acts):
            raise bad("round.last", "a round not yet led has no acts (DDZ-74)")
        if s.turn != s.leader or s.passes or s.turn_rule not in want_rule:
            raise bad("round.turn", f"on a lead the leader {s.leader} is to act, with no "
                      f"passes, by {' or '.join(want_rule)}")
        if s.turn_rule == "DDZ-70" and s.locked < 0:
            raise bad("round.turn_rule", "the lead passes on only past a locked joker (DDZ-70)")
        if not any(c != s.locked for c in s.hands[s.leader]):
            raise bad("round.leader", f"seat {s.leader} holds no card it may lead (DDZ-70, "
                      "DDZ-74)")
        return plays
    n = len(s.top_cards)
    if tuple(s.played[-n:]) != s.top_cards:
        raise bad("round.top_cards", "the top play is the last cards played (DDZ-72)")
    made = Counter(k.hands[s.top_seat]) - Counter(s.hands[s.top_seat])
    if Counter(s.top_cards) - made:
        raise bad("round.top_seat", f"seat {s.top_seat} did not play {faces(s.top_cards)[:8]}: "
                  "they are not cards that left its hand (DDZ-40)")
    if s.hands[s.leader] == k.hands[s.leader]:
        raise bad("round.leader", f"seat {s.leader} led this round but has played no card "
                  "(DDZ-72)")
    _check_acts(s, k, acts_known)
    return plays


def _check_acts(s: DdzState, k: DdzState, acts_known: bool = True) -> None:
    """Each seat's last act of the round: the top play is its maker's, the passes since are
    the next seats', the seats yet to act are those from the seat to act up to the leader,
    and each play is a combination of cards that left its seat's hand (DDZ-72, DDZ-73)."""
    if s.acts[s.top_seat] != s.top_cards:
        raise bad(f"round.last[{s.top_seat}]", "the top play's maker last played the top play "
                  "(DDZ-72)")
    for j in range(1, s.passes + 1):
        x = (s.top_seat + j) % SEATS
        if s.acts[x] != ():
            raise bad("round.passes", f"is {s.passes}, but seat {x}'s last act in this round "
                      "is no pass after the top play (DDZ-72)")
    want = (s.top_seat + s.passes + 1) % SEATS
    if s.turn != want or s.turn_rule != "DDZ-72":
        raise bad("round.turn", f"is {_show('turn', s.turn)}, but after seat {s.top_seat}'s "
                  f"play and {s.passes} passes in succession seat {want} is to act (DDZ-72)")
    if not acts_known:
        return
    idle = {i for i in range(SEATS) if s.acts[i] is None}
    if idle and idle != {(s.turn + j) % SEATS for j in range((s.leader - s.turn) % SEATS)}:
        raise bad("round.last", "the seats that have not acted in this round are those after "
                  "the seat to act, up to the leader (DDZ-72)")
    for i, a in enumerate(s.acts):
        if a and (classify(a, s.variant, s.options) is None
                  or Counter(a) - (Counter(k.hands[i]) - Counter(s.hands[i]))):
            raise bad(f"round.last[{i}]", f"seat {i}'s last play is a combination of cards "
                      "that left its hand (DDZ-40)")


def _check_multiplier(s: DdzState, k: DdzState, plays: int) -> None:
    """N is N at the first play plus the bomb increments (DDZ-81, DDZ-83, DDZ-86, DDZ-87)."""
    allowed = frozenset({0}) if s.four and s.solo else INCREMENTS["four" if s.four else "3v3"]
    bad_inc = next((x for x in s.bomb_incs if x not in allowed), None)
    rule = "DDZ-83" if not s.four else "DDZ-87" if s.solo else "DDZ-86"
    if bad_inc is not None:
        raise bad("bomb_increments", f"a bomb adds one of {sorted(allowed)} to N here, not "
                  f"{bad_inc} ({rule})")
    if 3 * len(s.bomb_incs) > len(s.played):
        raise bad("bomb_increments", f"{len(s.bomb_incs)} bombs need more than the "
                  f"{len(s.played)} cards played (DDZ-51, DDZ-67)")
    if s.top is not None and s.top.level:
        inc = bomb_increment(s.top, s.four, s.solo)
        if not s.bomb_incs or s.bomb_incs[-1] != inc:
            raise bad("bomb_increments", f"the top play is a bomb adding {inc}: it is the last "
                      f"increment ({rule})")
    want = k.mult + sum(s.bomb_incs)
    if s.mult != want:
        raise bad("N", f"is {s.mult}, but N at the first play ({k.mult}) and the bombs' "
                  f"increments make {want} ({rule})")


def _check_reveals(s: DdzState, k: DdzState) -> None:
    """A hidden landlord is revealed exactly when he has played his F card (DDZ-26)."""
    if len(set(s.revealed)) != len(s.revealed) or not set(s.revealed) <= set(s.hidden):
        raise bad("revealed", "lists hidden landlords, each once (DDZ-26)")
    f = s.mark_face
    for h in s.hidden:
        played_f = k.hands[h].count(f) > s.hands[h].count(f)
        due = "REVEAL" in s.owed and s.top_seat == h
        if (h in s.revealed) != (played_f and not due):
            raise bad("revealed", f"hidden landlord {h} is revealed exactly once he has "
                      f"played his {faces([f])[0]} (DDZ-26)")


def _check_lock(s: DdzState) -> None:
    """The 七星聚 lock: 4-deck, option on, seven jokers played and the eighth held (DDZ-70)."""
    if s.locked < 0:
        eighth = None if s.top is None else locked_joker(s.top_cards, s.variant, s.options)
        if eighth is not None and "LOCK" not in s.owed and any(eighth in h for h in s.hands):
            raise bad("locked", "a 七星聚 was played: the eighth joker is locked (DDZ-70)")
        return
    jokers = Counter(c for c in s.played if c in (BJ, RJ))
    held = [i for i, h in enumerate(s.hands) if s.locked in h]
    if not s.four or s.options.qixingju_lock != "on" or s.locked not in (BJ, RJ) or \
            sum(jokers.values()) != 7 or jokers[s.locked] != 3 or len(held) != 1:
        raise bad("locked", f"{faces([s.locked])[0]} is locked only after a 七星聚 in a 4-deck "
                  "hand with qixingju_lock on: seven jokers played, the eighth held (DDZ-70)")


OWED_IN_PLAY = ("REVEAL", "LOCK", "HAND_END")


def _check_owed_and_end(s: DdzState) -> None:
    """The events owed in play and the end (DDZ-74, DDZ-76, DDZ-92)."""
    empty = [i for i, h in enumerate(s.hands) if not h]
    if s.phase == PLAY and s.owed and s.owed != ("ROUND_END",):
        order = [OWED_IN_PLAY.index(x) if x in OWED_IN_PLAY else -1 for x in s.owed]
        if -1 in order or order != sorted(set(order)) or s.top is None or s.passes:
            raise bad("owed", "after a play the engine owes REVEAL, LOCK and HAND_END, in this "
                      "order, each at most once (DDZ-92)")
        if "REVEAL" in s.owed and (s.top_seat not in s.hidden or s.top_seat in s.revealed
                                   or s.mark_face not in s.top_cards):
            raise bad("owed", "REVEAL is owed only after a hidden landlord's play of an F card "
                      "(DDZ-26)")
        if "LOCK" in s.owed and (s.top.place != QIXINGJU or s.locked >= 0 or not s.four
                                 or s.options.qixingju_lock != "on"):
            raise bad("owed", "LOCK is owed only after a 七星聚 (DDZ-70)")
    ending = "HAND_END" in s.owed or s.phase in (END, OVER)
    if len(empty) > 1 or bool(empty) != ending or (empty and empty[0] != s.top_seat):
        raise bad("hands", "the hand ends the moment one seat, the last to play, holds no card "
                  "(DDZ-76)")
    if not ending:
        if (s.out_seat, s.win_side, s.end_reason) != (-1, -1, ""):
            raise bad("end.out_seat", "no seat has gone out yet (DDZ-76)")
        return
    out = empty[0]
    if (s.out_seat, s.end_reason, s.win_side) != (out, OUT, side_code(s, out)):
        raise bad("end.out_seat", f"seat {out} went out: the end is theirs, reason 'out', won "
                  f"by their side (DDZ-76)")
    want = {PLAY: ("HAND_END",), END: ("GAME_END",), OVER: ()}[s.phase]
    if s.owed[-1:] != want[-1:] or (s.phase != PLAY and s.owed != want):
        raise bad("owed", f"the end owes {', '.join(want) or 'nothing'} (DDZ-92)")
