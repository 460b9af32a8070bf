"""够级 rules: checking and applying one event, and the derived events the engine owes (GJ-48).

``step(state, event)`` validates the event completely before it changes anything, then evolves
the state in place; ``apply`` and ``check`` in game.py wrap it with a copy. An action applies all
its consequences at once and queues the derived events that record them (``state.owed``); the
log must then carry exactly those events, in that order, before the next action.
"""

from __future__ import annotations

import json
from typing import cast

from engine.cards import format_faces
from engine.errors import IllegalMove, InvalidEvent
from engine.events import NONE, Event, payload_json
from engine.games.common import holds, remove_cards
from engine.games.frame import check_frame, illegal, invalid, result_diff
from engine.games.gouji.actions import legal_now
from engine.games.gouji.cards import (
    CUT_VALUE,
    FIVE,
    PACK,
    STRENGTH,
    THREE,
    pack_diff,
    sort_hand,
)
from engine.games.gouji.plays import analyse, beats, make_info
from engine.games.gouji.state import (
    CUT,
    DEAL,
    DESIGNATE,
    DESIGNATED,
    DIRECTION,
    FINISHED,
    JUDGED,
    LAST,
    MEN,
    N_SEATS,
    OVER,
    PLAY,
    TEAM_NAMES,
    ZHASHAO,
    GoujiState,
    PlayInfo,
    opposite,
    team_of,
)
from engine.games.gouji.turns import (
    after,
    first_active_after,
    gouji_now,
    is_meitou,
    may_answer_gouji,
    n_out_for_phase,
    next_to_act,
    play_tag,
    predict,
    responders,
    stifleable,
    sweep_team,
)

POSITION_NAMES = ("", "头客", "二客", "三客", "四客", "小拉", "拉客")
POINTS = (0, 2, 1, 0, 0, -1, -2)
DERIVED_KINDS = ("OPENED", "BURN_START", "BURN_END", "OUT", "PHASE_OPEN", "ROUND_END",
                 "GAME_END")
TAG_RULES = {"lead": "GJ-21", "answer": "GJ-22", "shaped": "GJ-16", "pure": "GJ-17",
             "gouji": "GJ-19", "kaidian": "GJ-36", "void": "GJ-43"}
BURN_END_RULES = {"fake": "GJ-43", "success": "GJ-42"}
OUT_RULES = {FINISHED: "GJ-29", MEN: "GJ-44", ZHASHAO: "GJ-43", LAST: "GJ-33"}


# ---------------------------------------------------------------- errors

_EMPTY = (("cards", ()), ("target", NONE), ("value", NONE), ("tag", ""), ("payload", None))


def _only(s: GoujiState, e: Event, *used: str) -> None:
    """The fields a kind does not use must be empty (checked in this order)."""
    for name, default in _EMPTY:
        if name not in used and getattr(e, name) != default:
            raise invalid(s, e, f"a {e.kind} carries no {name}", name)


def _seat(s: GoujiState, e: Event) -> int:
    if not isinstance(e.seat, int) or not 0 <= e.seat < N_SEATS:
        raise invalid(s, e, f"seat {e.seat!r} is not a seat 0-5", "seat")
    return e.seat


# ---------------------------------------------------------------- annotation (GJ-48)

# ---------------------------------------------------------------- derived events

def _ev(s: GoujiState, kind: str, seat: int = -1, target: int = NONE, value: int = NONE,
        tag: str = "", payload: str | None = None) -> Event:
    return Event(kind, seat, (), target, value, tag, payload, s.game_id, -1)


def _owe(s: GoujiState, *events: Event) -> None:
    s.owed = s.owed + events


def _place(s: GoujiState, seat: int, how: str) -> int:
    """Give a seat the highest (went out) or lowest (judged) free position (GJ-31, GJ-45)."""
    used = set(s.out_pos)
    free = [p for p in range(1, 7) if p not in used]
    pos = free[-1] if how in (MEN, ZHASHAO) else free[0]
    out = list(s.out_pos)
    out[seat] = pos
    s.out_pos = tuple(out)
    hows = list(s.out_how)
    hows[seat] = how
    s.out_how = tuple(hows)
    if s.kd_cand == seat:
        s.kd_cand = -1
    # a yielder placed by his own deferred play keeps the yield until _continue has taken its
    # anchor (GJ-26: the turn continues after next(next(D))); nothing else places a yielder
    return pos


def _out(s: GoujiState, seat: int, how: str) -> None:
    pos = _place(s, seat, how)
    _owe(s, _ev(s, "OUT", seat, value=pos, tag=how))


def _end_burn(s: GoujiState, how: str) -> None:
    _owe(s, _ev(s, "BURN_END", s.burner, tag=how))
    s.burner = -1


def _phase_check(s: GoujiState) -> None:
    """The second player out opens the phase (GJ-18, GJ-25); a burn in progress ends (GJ-41)."""
    if not s.open_phase and n_out_for_phase(s) >= 2:
        s.open_phase = True
        s.passed = 0
        _owe(s, _ev(s, "PHASE_OPEN"))
        if s.burner >= 0:
            _end_burn(s, "open_phase")


def _check_end(s: GoujiState) -> bool:
    """GJ-33/GJ-34 after players are placed: end the game when due; True if it ended."""
    sweep = sweep_team(s)
    if sweep < 0:
        active = [i for i in range(N_SEATS) if s.out_pos[i] == 0]
        if len(active) > 1:
            return False
        if active:
            _out(s, active[0], LAST)
        sweep = sweep_team(s)
    s.to_act = -1
    s.rang_seat = -1
    s.rang_wait = ()
    if sweep >= 0 and any(s.out_pos[i] == 0 for i in range(N_SEATS)):
        s.stage = DESIGNATE
        s.to_act = designator(s)
    else:
        _owe(s, game_end_event(s))
    return True


def designator(s: GoujiState) -> int:
    """The member of the swept team who designates: the first in seat order who is not placed
    (GJ-34; a judged member takes no further part, GJ-46)."""
    team = 1 - sweep_team(s)
    return next(i for i in range(N_SEATS) if team_of(i) == team and s.out_pos[i] == 0)


def game_end_event(s: GoujiState) -> Event:
    """GAME_END with positions, points, team totals and the result (GJ-31 to GJ-34)."""
    pos = list(s.out_pos)
    sweep = sweep_team(s)
    points = [POINTS[p] for p in pos]
    even, odd = sum(points[0::2]), sum(points[1::2])
    result = "even" if even > odd else "odd" if odd > even else "draw"
    nxt = pos.index(6)
    payload = {
        "positions": pos,
        "names": [POSITION_NAMES[p] for p in pos],
        "points": points,
        "how": list(s.out_how),
        "team_totals": {"even": even, "odd": odd},
        "result": result,
        "chuansanhu": TEAM_NAMES[sweep] if sweep >= 0 else None,
        "designation": list(s.designation) if s.designation is not None else None,
        "next_starter": nxt,
        "next_huiwu_team": TEAM_NAMES[1 - sweep] if sweep >= 0 else None,
    }
    return _ev(s, "GAME_END", value=nxt, tag=result,
               payload=json.dumps(payload, sort_keys=True, separators=(",", ":")))


def clear_round(s: GoujiState) -> None:
    """No top play, no locks, no yield: the state between two rounds."""
    s.top = ()
    s.top_seat = -1
    s.top_info = None
    s.top_huiwu = False
    s.passed = 0
    s.rang_seat = -1
    s.rang_wait = ()


def _round_end(s: GoujiState, winner: int, reason: str, after_seat: int) -> None:
    """GJ-24/GJ-27: the round ends; its winner (or 接风, or the seat after a 诈烧) leads."""
    if winner >= 0 and s.out_pos[winner] == 0:
        leader = winner
    else:
        leader = first_active_after(s, after_seat)
    if reason != "fake_burn" and s.top_info is not None and s.top_info.pure and gouji_now(s) \
            and s.out_pos[s.top_seat] == 0:
        s.kd_cand = s.top_seat
    _owe(s, _ev(s, "ROUND_END", winner, target=leader,
                value=int(winner >= 0 and leader != winner), tag=reason))
    clear_round(s)
    s.to_act = leader
    s.last = leader


def _continue(s: GoujiState, actor: int) -> None:
    """After a play, pass or yield: yield bookkeeping, then the next responder or the round's end."""
    anchor = actor
    if s.rang_seat >= 0:
        if actor in s.rang_wait:
            s.rang_wait = s.rang_wait[s.rang_wait.index(actor) + 1:]
        elif actor == s.rang_seat:
            anchor = after(s, actor, 2)
            s.rang_seat = -1
            s.rang_wait = ()
    s.last = actor
    if s.top_info.nrj:   # type: ignore[union-attr]  # the play just made is the top play
        _round_end(s, s.top_seat, "big_joker", s.top_seat)
    elif not next_to_act(s, anchor):
        _round_end(s, s.top_seat, "passes", s.top_seat)


# ---------------------------------------------------------------- owed events

def next_auto(s: GoujiState) -> str | None:
    """Kind of the event the engine owes now: a derived event, or a chance event (CUT, DEAL)."""
    if s.owed:
        return s.owed[0].kind
    if s.stage == CUT:
        return "CUT"
    if s.stage == DEAL:
        return "DEAL"
    return None


def _derived_rule(x: Event) -> str:
    if x.kind == "OPENED":
        return "GJ-38" if x.tag == "hedian" else "GJ-36"
    if x.kind == "BURN_END":
        return BURN_END_RULES.get(x.tag, "GJ-41")
    if x.kind == "OUT":
        return OUT_RULES.get(x.tag, "GJ-31")
    return {"BURN_START": "GJ-39", "PHASE_OPEN": "GJ-18", "ROUND_END": "GJ-24",
            "GAME_END": "GJ-32"}[x.kind]


def _game_end_diff(x: Event, e: Event) -> str:
    """The fields in which a GAME_END differs from the one the engine owes."""
    out = [f"{name} is {a!r}, event says {b!r}" for name, a, b in
           (("seat", x.seat, e.seat), ("value (next starter)", x.value, e.value),
            ("tag (result)", x.tag, e.tag)) if a != b]
    try:
        got = None if e.payload is None else payload_json(e)
    except InvalidEvent:
        got = "unreadable JSON"
    diff = result_diff(json.loads(cast(str, x.payload)), got)
    if diff:
        out.append(diff)
    return "; ".join(out) or "the payload differs"


def _big_joker_check(s: GoujiState, e: Event) -> None:
    """GJ-15: after a play with a big joker nobody may act on it; the round is over."""
    big = next((x for x in s.owed if x.kind == "ROUND_END" and x.tag == "big_joker"), None)
    if big is None or e.kind not in ("PLAY", "PASS", "RANG"):
        return
    owed = ", ".join(x.kind for x in s.owed)
    raise illegal(s, e, "GJ-15", f"seat {big.seat}'s play with a big joker (RJ) cannot be "
                  "beaten: nobody may act on it and the round is over", also=("GJ-48",),
                  legal=f"the engine records {owed}, then seat {big.target} leads")


def _owed_refusal(s: GoujiState, e: Event, want: str) -> IllegalMove:
    """The refusal of an action sent while derived events are owed: the rule the action
    breaks once they are recorded (a play that does not beat, a seat out of turn, the game
    over …), GJ-48 named too; GJ-48 alone when the action would then be legal. The state
    already holds every consequence, so recording the events only empties the debt (and a
    GAME_END ends the game)."""
    t = s.copy()
    end = next((x for x in t.owed if x.kind == "GAME_END"), None)
    if end is not None:
        t.stage, t.to_act, t.result = OVER, -1, json.loads(cast(str, end.payload))
    t.owed = ()
    try:
        step(t, e)
    except IllegalMove as err:
        kinds = ", ".join(x.kind for x in s.owed)
        then = f", then {err.legal}" if err.legal else ""
        return IllegalMove(err.rule_id, err.cause, game_id=s.game_id, seq=e.seq, seat=e.seat,
                           event=e, also=(*err.also, "GJ-48"),
                           legal=f"the engine records {kinds}{then}")
    except InvalidEvent:
        pass
    return illegal(s, e, "GJ-48", f"the engine owes {want} before any action")


def _step_owed(s: GoujiState, e: Event) -> None:
    x = s.owed[0]
    same = (e.kind, e.seat, e.cards, e.target, e.value, e.tag) == \
        (x.kind, x.seat, x.cards, x.target, x.value, x.tag)
    if same and e.payload != x.payload:
        want = None if x.payload is None else json.loads(cast(str, x.payload))  # the engine's own
        same = e.payload is not None and want is not None and \
            payload_json(e, obj=isinstance(want, dict)) == want
    if not same:
        want = x._replace(seq=e.seq).describe()
        if e.kind not in DERIVED_KINDS:
            _big_joker_check(s, e)
            raise _owed_refusal(s, e, want)
        if x.kind == "GAME_END" and e.kind == "GAME_END":
            raise illegal(s, e, _derived_rule(x), "the game's end differs from the engine's: "
                          + _game_end_diff(x, e))
        raise illegal(s, e, _derived_rule(x), f"the engine owes {want}")
    s.owed = s.owed[1:]
    if x.kind == "GAME_END":
        s.stage = OVER
        s.to_act = -1
        s.result = json.loads(cast(str, x.payload))


# ---------------------------------------------------------------- setup: cut, direction, deal

def _step_cut(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e, "cards", "value")
    if s.cutter >= 0 and seat != s.cutter:
        raise illegal(s, e, "GJ-6", f"after a joker the same cutter (seat {s.cutter}) draws again")
    if len(e.cards) != 1 or not 0 <= e.cards[0] < 54:
        raise invalid(s, e, "a cut shows exactly one card", "cards")
    card = e.cards[0]
    if card >= 52:
        if e.value != NONE:
            raise illegal(s, e, "GJ-6", "a joker is put back and redrawn: it counts nobody "
                          "(value must be -1)")
        s.cutter = seat
        s.cuts = s.cuts + ((seat, card, 0),)
        return
    if e.value not in (1, -1):
        raise illegal(s, e, "GJ-6", f"the counting direction must be +1 or -1, not {e.value}")
    s.cutter = seat
    s.cuts = s.cuts + ((seat, card, e.value),)
    s.first_player = (seat + e.value * (CUT_VALUE[card] - 1)) % N_SEATS
    s.stage = DIRECTION
    s.to_act = s.first_player


def _step_direction(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e, "value")
    if seat != s.first_player:
        raise illegal(s, e, "GJ-7", f"seat {s.first_player}, counted by the cut, chooses the "
                      "direction")
    if e.value not in (1, -1):
        raise illegal(s, e, "GJ-5", f"the direction is +1 or -1, not {e.value}")
    s.direction = e.value
    s.starter = seat
    s.stage = DEAL
    s.to_act = -1


def _deal_error(s: GoujiState, e: Event, rule: str, reason: str) -> IllegalMove:
    """An IllegalMove against a DEAL, its 196 faces counted, not listed."""
    return IllegalMove(rule, f"seat {e.seat} DEAL of {len(e.cards)} cards at seq {e.seq}: "
                       f"{reason}", game_id=s.game_id, seq=e.seq, seat=e.seat, event=e)


def _step_deal(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e, "cards", "value", "tag")
    if seat != s.starter:
        raise _deal_error(s, e, "GJ-8", f"the deal starts with the starter, seat {s.starter}")
    if e.tag != f"{s.direction:+d}":
        raise _deal_error(s, e, "GJ-8", f"the deal runs in the session direction "
                          f"{s.direction:+d}")
    if len(e.cards) != len(PACK) or sorted(e.cards) != list(PACK):
        raise _deal_error(s, e, "GJ-2", f"the deal is not the 196-card 够级 pack: "
                          f"{pack_diff(e.cards)}")
    if s.game_no == 1:
        last_cut = s.cuts[-1][1]
        if not 0 <= e.value < len(PACK) or e.cards[e.value] != last_cut:
            at = f" (card {e.value} is {format_faces((e.cards[e.value],))})" \
                if 0 <= e.value < len(PACK) else ""
            raise _deal_error(s, e, "GJ-6", f"cut_index {e.value} must point at the shown cut "
                              f"card {format_faces((last_cut,))}{at}")
    elif e.value != NONE:
        raise _deal_error(s, e, "GJ-9", "later games have no cut (cut_index must be -1)")
    hands: list[list[int]] = [[] for _ in range(N_SEATS)]
    d = s.direction
    for k, c in enumerate(e.cards):
        hands[(seat + d * (k % N_SEATS)) % N_SEATS].append(c)
    s.hands = tuple(sort_hand(h) for h in hands)
    if s.game_no == 1:
        s.cut_holder = (seat + d * (e.value % N_SEATS)) % N_SEATS
    s.stage = PLAY
    s.window = True
    s.to_act = s.last = seat
    if s.huiwu_team >= 0:
        s.huiwu_due = any(STRENGTH[c] == FIVE for i in range(N_SEATS)
                          if team_of(i) == s.huiwu_team for c in s.hands[i])


# ---------------------------------------------------------------- declarations (GJ-38)

def _step_xuandian(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e)
    if s.stage != PLAY or not s.window:
        raise illegal(s, e, "GJ-38", "宣点 is only possible after the deal and before the "
                      "first play")
    if s.xd_pending >= 0:
        raise illegal(s, e, "GJ-38", f"seat {s.xd_pending}'s 宣点 awaits the answer of seat "
                      f"{opposite(s.xd_pending)}")
    pair = seat % 3
    if s.xd_used >> pair & 1:
        raise illegal(s, e, "GJ-38", f"the pair {pair}-{pair + 3} has used its 宣点")
    s.xd_used |= 1 << pair
    s.xd_pending = seat


def _step_hedian(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e, "tag")
    if s.xd_pending < 0 or seat != opposite(s.xd_pending):
        raise illegal(s, e, "GJ-38", "和点 answers the opposite's 宣点 right after it" +
                      (f" (seat {opposite(s.xd_pending)} answers now)" if s.xd_pending >= 0
                       else "; none awaits an answer"))
    if e.tag not in ("agree", "refuse"):
        raise invalid(s, e, "和点 is 'agree' or 'refuse'", "tag")
    proposer = s.xd_pending
    s.xd_pending = -1
    if e.tag == "agree":
        for x in (proposer, seat):
            if not s.opened >> x & 1:
                s.opened |= 1 << x
                _owe(s, _ev(s, "OPENED", x, tag="hedian"))


# ---------------------------------------------------------------- plays

def _set_hand(s: GoujiState, seat: int, hand: tuple[int, ...]) -> None:
    hands = list(s.hands)
    hands[seat] = hand
    s.hands = tuple(hands)


def _turn_check(s: GoujiState, e: Event, seat: int) -> None:
    """The seat may act now (stage, declarations, out, 会五, lock, turn); the most specific
    rule is cited, the others named, and what is legal now said."""
    if s.stage == DESIGNATE:
        sweep = sweep_team(s)
        raise illegal(s, e, "GJ-34", f"the {TEAM_NAMES[sweep]} team's 串三户 has ended the game: "
                      f"nobody plays any more, the {TEAM_NAMES[1 - sweep]} team designates its "
                      "order", also=("GJ-10",), legal=legal_now(s))
    if s.stage != PLAY:
        raise illegal(s, e, "GJ-10", f"no play is possible in the {s.stage} stage",
                      legal=legal_now(s))
    if s.xd_pending >= 0:
        raise illegal(s, e, "GJ-38", f"seat {s.xd_pending}'s 宣点 awaits the answer of seat "
                      f"{opposite(s.xd_pending)}", legal=legal_now(s))
    if s.out_pos[seat]:
        if s.out_how[seat] in JUDGED:
            raise illegal(s, e, "GJ-46", f"seat {seat} was judged ({s.out_how[seat]}, position "
                          f"{s.out_pos[seat]}) and takes no further part", also=("GJ-18",),
                          legal=legal_now(s))
        raise illegal(s, e, "GJ-18", f"seat {seat} is out (position {s.out_pos[seat]}) and "
                      "never acts again", legal=legal_now(s))
    if s.huiwu_due:
        raise illegal(s, e, "GJ-35", f"the game opens with the 会五 of the "
                      f"{TEAM_NAMES[s.huiwu_team]} team, played by seat {s.starter}",
                      legal=legal_now(s))
    if seat != s.to_act:
        _out_of_turn(s, e, seat)


def _out_of_turn(s: GoujiState, e: Event, seat: int) -> None:
    """Raise for a seat acting when it is not its turn: locked (GJ-23), the 会五's own team
    (GJ-35), a yield in progress (GJ-26), else GJ-21/GJ-22."""
    turn = "GJ-21" if s.top_seat < 0 else "GJ-22"
    if s.top_seat >= 0 and not s.open_phase and s.passed >> seat & 1:
        raise illegal(s, e, "GJ-23", f"seat {seat} passed earlier in this round and is locked: "
                      "he may not answer again until the round ends", also=(turn,),
                      legal=legal_now(s))
    if s.top_huiwu and team_of(seat) == team_of(s.top_seat):
        raise illegal(s, e, "GJ-35", f"the 会五 of seat {s.top_seat}'s team is answered only "
                      f"by the {TEAM_NAMES[1 - team_of(seat)]} team", also=(turn,),
                      legal=legal_now(s))
    if s.rang_seat >= 0 and seat != s.top_seat:
        d = s.rang_seat
        first = f"seats {s.rang_wait[0]}, {s.rang_wait[1]} act" if len(s.rang_wait) == 2 \
            else f"seat {s.rang_wait[0]} acts" if s.rang_wait else f"seat {d} acts again"
        raise illegal(s, e, "GJ-26", f"seat {d} yielded (让牌): {first} first, then the turn "
                      f"goes on after seat {after(s, d, 2)}", also=(turn,), legal=legal_now(s))
    made = f"seat {seat} made the top play; " if seat == s.top_seat else ""
    raise illegal(s, e, turn, f"{made}it is seat {s.to_act}'s turn", legal=legal_now(s))


def _profile_text(info: PlayInfo) -> str:
    names = {16: "BJ", 17: "RJ"}
    parts = [f"{info.n}×" + {15: "2", 14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}.get(
        info.base, names.get(info.base, str(info.base)))]
    if info.nbj and info.base < 16:
        parts.append(f"{info.nbj} BJ")
    if info.nrj and info.base < 17:
        parts.append(f"{info.nrj} RJ")
    return " with ".join(parts)


def check_play(s: GoujiState, e: Event) -> tuple[PlayInfo, str, bool, bool, bool]:
    """Validate a PLAY; returns (info, answer clause, gouji, kaidian, void). Changes nothing."""
    seat = _seat(s, e)
    _only(s, e, "cards", "value", "tag")
    _turn_check(s, e, seat)
    hand = s.hands[seat]
    if not e.cards:
        raise invalid(s, e, "a play has at least one card", "cards")
    if not holds(hand, e.cards):
        for c in e.cards:
            if not isinstance(c, int) or not 0 <= c < 54:
                raise invalid(s, e, f"card code {c!r} is not a face code 0-53", "cards")
        raise illegal(s, e, "GJ-12", f"seat {seat} does not hold {format_faces(e.cards)}")
    info = analyse(e.cards)
    if info is None:
        raise illegal(s, e, "GJ-12", "cards other than 2s and jokers must share one rank")
    empties = len(e.cards) == len(hand)
    if info.base == THREE and not all(STRENGTH[c] == THREE for c in remove_cards(hand, e.cards)):
        raise illegal(s, e, "GJ-28", "3s go last: a play with a 3 must leave only 3s in hand")
    clause = ""
    if s.top_seat >= 0:
        t = cast(PlayInfo, s.top_info)      # set whenever a top play is on
        beaten = beats(info, t)
        if gouji_now(s):
            clause = may_answer_gouji(s, seat)
            if not clause:      # this seat may only pass, whatever the cards (GJ-20)
                raise illegal(s, e, "GJ-20", f"only seat {opposite(s.top_seat)} (opposite), a "
                              "没头 player or an opened burner may answer the 够级 play of "
                              f"seat {s.top_seat}", also=() if beaten else ("GJ-14",))
        if not beaten:
            raise illegal(s, e, "GJ-14", f"{_profile_text(info)} does not beat the top play "
                          f"{_profile_text(t)} of seat {s.top_seat}")
    gouji, kaidian, void = predict(s, seat, info, empties)
    if e.value != info.base:
        raise illegal(s, e, "GJ-12", f"the play's base is {info.base}, event says {e.value}")
    tag = play_tag("lead" if s.top_seat < 0 else "answer", info, gouji, kaidian, void)
    if e.tag != tag:
        want, got = tag.split("+"), e.tag.split("+")
        diff = [t for t in want if t not in got] + [t for t in got if t not in want]
        raise illegal(s, e, TAG_RULES.get(diff[0], "GJ-48") if diff else "GJ-48",
                      f"the play's annotation is {tag!r}, event says {e.tag!r}")
    return info, clause, gouji, kaidian, void


def _step_play(s: GoujiState, e: Event) -> None:
    info, clause, _gouji, kaidian, void = check_play(s, e)
    x = e.seat
    leading = s.top_seat < 0
    _set_hand(s, x, remove_cards(s.hands[x], e.cards))
    s.played = s.played + e.cards
    s.window = False
    if s.kd_cand == x:
        s.kd_cand = -1
    if kaidian and not s.opened >> x & 1:
        s.opened |= 1 << x
        _owe(s, _ev(s, "OPENED", x, tag="kaidian"))
    if void:                                     # 诈烧 (GJ-43)
        _end_burn(s, "fake")
        _out(s, x, ZHASHAO)
        _phase_check(s)
        if not _check_end(s):
            _round_end(s, -1, "fake_burn", x)
        return
    stifle = -1
    if not leading:
        m = s.top_seat
        burning = clause == "burn"
        if s.burner == m:
            how = "relieved" if x == opposite(m) else "meitou" if clause == "meitou" or \
                is_meitou(s, x) else "countered"
            _end_burn(s, how)
            if burning:
                s.burner = x
                _owe(s, _ev(s, "BURN_START", x, target=m, tag="counter"))
        elif burning:
            s.burner = x
            _owe(s, _ev(s, "BURN_START", x, target=m, tag="burn"))
        if stifleable(s, m):
            stifle = m
    placed = False
    if not s.hands[x]:
        _out(s, x, FINISHED)
        placed = True
        if s.burner == x:
            _end_burn(s, "success")
    if stifle >= 0:
        _out(s, stifle, MEN)
        placed = True
    _phase_check(s)
    s.top = e.cards
    s.top_seat = x
    s.top_info = info
    s.top_huiwu = False
    if s.open_phase:
        s.passed = 0
    if placed and _check_end(s):
        return
    _continue(s, x)


def _step_huiwu(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e, "cards", "value", "tag", "payload")
    if s.stage != PLAY or not s.huiwu_due:
        raise illegal(s, e, "GJ-35", "no 会五 is due (only the first play after a 串三户, when "
                      "the swept team holds a 5)")
    if s.xd_pending >= 0:
        raise illegal(s, e, "GJ-38", f"seat {s.xd_pending}'s 宣点 awaits its answer")
    if seat != s.starter:
        raise illegal(s, e, "GJ-35", f"the 会五 is led by the starter, seat {s.starter}")
    team = [i for i in range(N_SEATS) if team_of(i) == s.huiwu_team]
    fives = {i: tuple(c for c in s.hands[i] if STRENGTH[c] == FIVE) for i in team}
    want = {str(i): format_faces(sorted(fives[i])).split() for i in team}
    got = payload_json(e)
    try:
        got = {k: sorted(v) for k, v in got.items()}
    except (AttributeError, TypeError):
        raise invalid(s, e, "the 会五 payload maps each team seat to its 5s", "payload") from None
    if got != {k: sorted(v) for k, v in want.items()} or \
            sorted(e.cards) != sorted(c for i in team for c in fives[i]):
        raise illegal(s, e, "GJ-35", "every member plays every 5 he holds: "
                      + "; ".join(f"seat {i}: {format_faces(fives[i]) or '-'}" for i in team))
    info = make_info(FIVE, len(e.cards), 0, 0, 0)
    if e.value != FIVE or e.tag != "lead":
        raise illegal(s, e, "GJ-35", "the 会五 is annotated base 5 (value 5), tag 'lead'")
    for i in team:
        if fives[i]:
            _set_hand(s, i, remove_cards(s.hands[i], fives[i]))
    s.played = s.played + e.cards
    s.window = False
    s.huiwu_due = False
    s.top = e.cards
    s.top_seat = seat
    s.top_info = info
    s.top_huiwu = True
    _continue(s, seat)


def _step_pass(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e)
    _turn_check(s, e, seat)
    if s.top_seat < 0:
        raise illegal(s, e, "GJ-21", "the leader must play; he may not pass")
    s.passed |= 1 << seat
    _continue(s, seat)


def _step_rang(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e)
    _turn_check(s, e, seat)
    if s.top_seat < 0:
        raise illegal(s, e, "GJ-21", "the leader must play; he may not yield")
    if s.top_seat != opposite(seat):
        raise illegal(s, e, "GJ-26", f"让牌 is only on the opposite's play (top by seat "
                      f"{s.top_seat})")
    if s.rang_seat == seat:
        raise illegal(s, e, "GJ-26", "a player yields at most once on the same play")
    n1, n2 = after(s, seat), after(s, seat, 2)
    r = responders(s)
    if not (r >> n1 & 1 or r >> n2 & 1):
        raise illegal(s, e, "GJ-26", f"neither seat {n1} nor seat {n2} can act on the top play")
    s.rang_seat = seat
    s.rang_wait = (n1, n2)
    s.last = seat
    next_to_act(s, seat)


def _step_designate(s: GoujiState, e: Event) -> None:
    seat = _seat(s, e)
    _only(s, e, "payload")
    if s.stage != DESIGNATE:
        raise illegal(s, e, "GJ-34", "a designation follows a 串三户 only")
    team = 1 - sweep_team(s)
    if team_of(seat) != team:
        raise illegal(s, e, "GJ-34", f"the swept {TEAM_NAMES[team]} team designates",
                      legal=legal_now(s))
    if s.out_pos[seat]:
        raise illegal(s, e, "GJ-46", f"seat {seat} was judged ({s.out_how[seat]}) and takes no "
                      "further part: an unplaced member of his team designates",
                      also=("GJ-34",), legal=legal_now(s))
    unplaced = sorted(i for i in range(N_SEATS) if s.out_pos[i] == 0)
    try:
        order = payload_json(e)["order"]
    except KeyError:
        raise invalid(s, e, "payload must be {\"order\": [seats]}", "payload") from None
    if not isinstance(order, list) or sorted(order) != unplaced:
        raise illegal(s, e, "GJ-34", f"the order must list the unplaced seats {unplaced}")
    free = sorted(p for p in range(1, 7) if p not in s.out_pos)
    pos, how = list(s.out_pos), list(s.out_how)
    for seat_i, p in zip(order, free, strict=True):
        pos[seat_i] = p
        how[seat_i] = DESIGNATED
    s.out_pos, s.out_how = tuple(pos), tuple(how)
    s.designation = tuple(order)
    s.to_act = -1
    _owe(s, game_end_event(s))


def _later_game_setup(s: GoujiState, e: Event) -> None:
    """Raise for a CUT (GJ-9) or a DIRECTION (GJ-7) in a game after the first."""
    if e.kind == "CUT":
        raise illegal(s, e, "GJ-9", f"game {s.game_no} has no cut (only the first game of a "
                      f"session does): seat {s.starter}, the previous game's 拉客, draws first "
                      "and leads", also=("GJ-10",), legal=legal_now(s))
    raise illegal(s, e, "GJ-7", f"the direction is chosen in the first game only and kept: "
                  f"this session plays {s.direction:+d}", also=("GJ-5", "GJ-10"),
                  legal=legal_now(s))


def _over_rule(s: GoujiState) -> str:
    """The rule that ended the game: GJ-34 after a 串三户, else GJ-33."""
    return "GJ-34" if s.result is not None and s.result.get("chuansanhu") else "GJ-33"


def _designating(s: GoujiState, e: Event) -> None:
    """Raise for any action but DESIGNATE after a 串三户: the game has ended (GJ-34)."""
    sweep = sweep_team(s)
    raise illegal(s, e, "GJ-34", f"the {TEAM_NAMES[sweep]} team's 串三户 has ended the game: "
                  f"the {TEAM_NAMES[1 - sweep]} team designates its order, nothing else "
                  "happens", also=("GJ-10",), legal=legal_now(s))


HANDLERS = {
    "CUT": _step_cut, "DIRECTION": _step_direction, "DEAL": _step_deal,
    "XUANDIAN": _step_xuandian, "HEDIAN": _step_hedian, "HUIWU": _step_huiwu,
    "PLAY": _step_play, "PASS": _step_pass, "RANG": _step_rang, "DESIGNATE": _step_designate,
}
STAGE_OF = {"CUT": CUT, "DIRECTION": DIRECTION, "DEAL": DEAL}


def step(s: GoujiState, e: Event) -> None:
    """Check the event against the state and apply it in place (raises, never half-applies
    a legal check: every rejection happens before the first change). The frame first (game id,
    seq, over: GJ-33; derived events still owed mean the game is not over yet), then the owed
    derived events (GJ-48), then the action's own rules."""
    if e.seq != s.seq or e.game_id != s.game_id or s.stage == OVER:
        check_frame(s, e, s.stage == OVER and not s.owed, _over_rule(s))  # raises, or owed
    if s.owed:
        _step_owed(s, e)
        s.seq += 1
        return
    h = HANDLERS.get(e.kind)
    if h is None:
        if e.kind in DERIVED_KINDS:
            raise illegal(s, e, "GJ-48", f"no {e.kind} is owed now")
        raise invalid(s, e, f"unknown event kind {e.kind!r} for 够级", "kind")
    want = STAGE_OF.get(e.kind)
    if s.game_no > 1 and e.kind in ("CUT", "DIRECTION"):
        _later_game_setup(s, e)
    if s.stage == DESIGNATE and e.kind != "DESIGNATE":
        _designating(s, e)
    if want is not None and s.stage != want:
        raise illegal(s, e, "GJ-10", f"a {e.kind} belongs to the {want} stage, the game is in "
                      f"the {s.stage} stage")
    if s.stage in (CUT, DEAL) and want is None:
        raise illegal(s, e, "GJ-10", f"the game is in the {s.stage} stage")
    h(s, e)
    s.seq += 1


__all__ = ["step", "next_auto", "play_tag", "predict", "check_play", "game_end_event",
           "sweep_team", "designator", "POSITION_NAMES", "POINTS"]
