"""Positions (GJ-49): the full 够级 state as JSON and back, and per-seat views (GJ-47).

The format is documented in docs/gouji.md; cards are text faces, seats are 0-5.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, cast

from engine.cards import format_face
from engine.errors import EngineError
from engine.events import Event, event_from_json, event_to_json
from engine.games.codec import (
    MAX_SEQ,
    Fields,
    bad,
    check_pack,
    faces_value,
    open_position,
    player_value,
    shown,
)
from engine.games.common import faces as _faces
from engine.games.gouji.cards import CUT_VALUE, FIVE, PACK, STRENGTH, THREE, sort_hand
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.plays import analyse
from engine.games.gouji.rules import (
    POINTS,
    POSITION_NAMES,
    designator,
    game_end_event,
    sweep_team,
)
from engine.games.gouji.state import (
    CUT,
    DEAL,
    DESIGNATE,
    DESIGNATED,
    DIRECTION,
    FINISHED,
    LAST,
    MEN,
    N_SEATS,
    OVER,
    PLAY,
    STAGES,
    TEAM_NAMES,
    ZHASHAO,
    GoujiState,
    PlayInfo,
    opposite,
    team_of,
)
from engine.games.gouji.turns import (
    active_mask,
    after,
    counts_out,
    gouji_now,
    is_meitou,
    responders,
)

POSITION_FORMAT = "liujia.gouji.position/1"


HOWS = ("", "finished", "men", "zhashao", "last", "designated")


def _seats(mask: int) -> list[int]:
    return [i for i in range(N_SEATS) if mask >> i & 1]


def _opt_seat(v: int) -> int | None:
    return None if v < 0 else v


def to_position(s: GoujiState) -> dict[str, Any]:
    """The full state as a JSON-ready dict (docs/gouji.md)."""
    return {
        "format": POSITION_FORMAT,
        "game": "gouji",
        "game_id": s.game_id,
        "seq": s.seq,
        "stage": s.stage,
        "options": s.options.to_dict(),
        "players": list(s.players),
        "game_no": s.game_no,
        "session": s.session,
        "previous_game": s.previous_game,
        "direction": s.direction or None,
        "starter": _opt_seat(s.starter),
        "huiwu_team": TEAM_NAMES[s.huiwu_team] if s.huiwu_team >= 0 else None,
        "huiwu_due": s.huiwu_due,
        "cutter": _opt_seat(s.cutter),
        "cuts": [{"seat": a, "card": format_face(c), "count_dir": d or None}
                 for a, c, d in s.cuts],
        "first_player": _opt_seat(s.first_player),
        "cut_holder": _opt_seat(s.cut_holder),
        "hands": [_faces(h) for h in s.hands],
        "played": _faces(s.played),
        "out": [{"seat": i, "position": s.out_pos[i], "how": s.out_how[i]}
                for i in sorted(range(N_SEATS), key=lambda i: s.out_pos[i]) if s.out_pos[i]],
        "open_phase": s.open_phase,
        "opened": _seats(s.opened),
        "xuandian_used": [p for p in range(3) if s.xd_used >> p & 1],
        "xuandian_pending": _opt_seat(s.xd_pending),
        "window": s.window,
        "burner": _opt_seat(s.burner),
        "kaidian_candidate": _opt_seat(s.kd_cand),
        "top": None if s.top_seat < 0 else {
            "cards": _faces(s.top), "seat": s.top_seat, "huiwu": s.top_huiwu},
        "passed": _seats(s.passed),
        "rang": None if s.rang_seat < 0 else {"seat": s.rang_seat, "waiting": list(s.rang_wait)},
        "last": _opt_seat(s.last),
        "to_act": _opt_seat(s.to_act),
        "owed": [event_to_json(e) for e in s.owed],
        "sweep": TEAM_NAMES[sweep_team(s)] if sweep_team(s) >= 0 else None,
        "designation": list(s.designation) if s.designation is not None else None,
        "result": s.result,
    }


def _owed(f: Fields, game_id: str) -> tuple[Event, ...]:
    """The derived events owed (GJ-48), as action JSON; their fields are checked later."""
    out = []
    for i, x in enumerate(f.list("owed")):
        try:
            e = event_from_json(x)
        except EngineError as exc:
            raise bad(f"owed[{i}].{getattr(exc, 'field', '') or 'kind'}",
                      str(exc).split(" (field ")[0]) from None
        e = e._replace(seq=-1, game_id=game_id)
        if e.payload is not None:
            e = e._replace(payload=json.dumps(json.loads(e.payload), sort_keys=True,
                                              separators=(",", ":")))
        out.append(e)
    return tuple(out)


def _mask(f: Fields, key: str) -> int:
    m = 0
    for x in f.seats(key):
        m |= 1 << x
    return m


def _team(f: Fields, key: str) -> int:
    v = f.get(key, None)
    return -1 if v is None else TEAM_NAMES.index(f.choice(key, TEAM_NAMES))


def from_position(p: Any, *, scenario: bool = False) -> GoujiState:
    """A state from its JSON form; raises PositionError (an InvalidEvent) naming the bad field
    for anything no game can reach (docs/gouji.md, "What is checked"). ``scenario`` is for
    hand-built rule tests: every field is still read and typed, but only the shape the rules
    need is checked, not that a game could reach the position (never for untrusted input)."""
    open_position(p, POSITION_FORMAT, "gouji")
    f = Fields(p, N_SEATS)
    f.choice("game", ("gouji",))
    v: dict[str, Any] = {}     # the fields as read, in reading order (errors name the first)
    v["game_id"] = f.ident("game_id")
    v["options"] = f.options("options", GoujiOptions)
    v["players"] = f.per_seat("players", player_value)
    v["game_no"] = f.int("game_no", 1, MAX_SEQ)
    v["session"] = f.ident("session", allow_none=True, default=None)
    v["previous_game"] = f.ident("previous_game", allow_none=True, default=None)
    v["seq"] = f.int("seq", 1, MAX_SEQ)
    v["stage"] = f.choice("stage", STAGES)
    v["direction"] = f.choice("direction", (None, 1, -1)) or 0
    v["starter"] = f.seat("starter", True)
    v["huiwu_team"] = _team(f, "huiwu_team")
    v["huiwu_due"] = f.bool("huiwu_due")
    v["cutter"] = f.seat("cutter", True)
    v["cuts"] = tuple(_cut(f.nested(c, f"cuts[{i}]")) for i, c in enumerate(f.list("cuts")))
    v["first_player"] = f.seat("first_player", True)
    v["cut_holder"] = f.seat("cut_holder", True)
    v["hands"] = f.per_seat("hands", lambda v, name: sort_hand(faces_value(v, name)))
    v["played"] = f.faces("played")
    _read_out(v, f)
    _read_declarations(v, f)
    _read_top(v, f.optional_sub("top"))
    v["passed"] = _mask(f, "passed")
    r = f.optional_sub("rang")
    v["rang_seat"] = -1 if r is None else r.seat("seat")
    v["rang_wait"] = () if r is None else r.seats("waiting")
    v["last"] = f.seat("last", True)
    v["to_act"] = f.seat("to_act", True)
    v["owed"] = _owed(f, v["game_id"])
    sweep = _team(f, "sweep")
    v["designation"] = None if f.get("designation") is None else f.seats("designation")
    v["result"] = f.get("result")
    result = v["result"]
    if result is not None and not isinstance(result, dict):
        raise bad("result", f"must be GAME_END's result object or null, got {shown(result)}")
    f.done("format", "game")
    s = GoujiState(**v)
    if scenario:
        _check_shape(s, sweep)
    else:
        check_position(s, sweep)
    return s


def _read_declarations(v: dict[str, Any], f: Fields) -> None:
    """The phase, 开点/宣点/和点 and the burn (GJ-18, GJ-36 to GJ-39)."""
    v["open_phase"] = f.bool("open_phase")
    v["opened"] = _mask(f, "opened")
    v["xd_used"] = 0
    for pair in f.list("xuandian_used"):
        if pair not in (0, 1, 2) or isinstance(pair, bool) or v["xd_used"] >> pair & 1:
            raise bad("xuandian_used", "lists opposite pairs 0-2 (0-3, 1-4, 2-5), each once")
        v["xd_used"] |= 1 << pair
    v["xd_pending"] = f.seat("xuandian_pending", True)
    v["window"] = f.bool("window")
    v["burner"] = f.seat("burner", True)
    v["kd_cand"] = f.seat("kaidian_candidate", True)


def _cut(c: Fields) -> tuple[int, int, int]:
    card = faces_value([c.get("card")], c.name("card"))[0]
    return c.seat("seat"), card, c.choice("count_dir", (None, 1, -1)) or 0


def _read_out(v: dict[str, Any], f: Fields) -> None:
    pos, how = [0] * N_SEATS, [""] * N_SEATS
    for k, o in enumerate(f.list("out")):
        o = f.nested(o, f"out[{k}]")
        i = o.seat("seat")
        if pos[i]:
            raise bad(f"out[{k}].seat", f"seat {i} is placed twice")
        pos[i], how[i] = o.int("position", 1, N_SEATS), o.choice("how", HOWS[1:])
    if len([x for x in pos if x]) != len({x for x in pos if x}):
        raise bad("out", "gives two seats the same position")
    v["out_pos"], v["out_how"] = tuple(pos), tuple(how)


def _read_top(v: dict[str, Any], top: Fields | None) -> None:
    if top is None:
        v["top"], v["top_seat"], v["top_info"], v["top_huiwu"] = (), -1, None, False
        return
    v["top"] = top.faces("cards")
    v["top_seat"] = top.seat("seat")
    v["top_huiwu"] = top.bool("huiwu", False)
    v["top_info"] = analyse(v["top"])
    if v["top_info"] is None:
        raise bad("top.cards", "is not a play: cards other than 2s and jokers share one rank "
                  "(GJ-12)")


# The deal's cards are secret (each seat sees its own); judged players' dead cards nobody sees.
SECRET_CARD_KINDS = frozenset({"DEAL"})


def cards_visible(e: Event, seat: int | None) -> bool:
    """True if the seat (None: auditor) may see this event's cards (GJ-47)."""
    return seat is None or e.kind not in SECRET_CARD_KINDS


def seen_event(e: Event, seat: int | None) -> Event:
    """The event as the seat saw it: its cards only where ``cards_visible``."""
    return e if cards_visible(e, seat) else e._replace(cards=())


def view(s: GoujiState, seat: int | None) -> dict[str, Any]:
    """What a seat knew at this moment (GJ-47): its own hand, public events; no hand counts.
    Seat None is the auditor's full view. Both add the derived table facts (teams, 没头, 够级,
    and the common keys of ``_table_facts``: to_act, sides, outcomes …)."""
    pos = to_position(s)
    pos["perspective"] = "auditor" if seat is None else seat
    pos["teams"] = {"even": [0, 2, 4], "odd": [1, 3, 5]}
    pos["opposites"] = [[0, 3], [1, 4], [2, 5]]
    pos["meitou"] = [i for i in range(N_SEATS) if is_meitou(s, i)]
    pos["top_is_gouji"] = s.top_seat >= 0 and gouji_now(s)
    pos["responders"] = _seats(responders(s))
    pos["opposite_of_top"] = None if s.top_seat < 0 else opposite(s.top_seat)
    _table_facts(s, pos, seat)
    if seat is not None:
        # GJ-47: only the seat's own hand; no counts of others' hands, no dead cards
        pos["hands"] = [h if i == seat else None for i, h in enumerate(pos["hands"])]
        pos["owed"] = [o if o.get("kind") != "DEAL" else None for o in pos["owed"]]
    return pos


# What the seat the game waits for is to do (``due_action`` of a view).
DUE_ACTIONS = ("choose_direction", "designate", "answer_xuandian", "lead_huiwu", "lead",
               "respond")


def _due_action(s: GoujiState, due: int) -> str | None:
    if due < 0:
        return None
    if s.stage == DIRECTION:
        return "choose_direction"
    if s.stage == DESIGNATE:
        return "designate"
    if s.xd_pending >= 0:
        return "answer_xuandian"
    if s.huiwu_due:
        return "lead_huiwu"
    return "lead" if s.top_seat < 0 else "respond"


def _table_facts(s: GoujiState, pos: dict[str, Any], seat: int | None) -> None:
    """Add the common view keys and the table facts the dashboard draws, all public.

    ``phase`` is the stage (the common name); ``to_act`` becomes the seat whose decision the
    game waits for (``due_seat``: the chooser of the direction, the designator, the answerer of
    a 宣点, the leader or responder; None while the engine owes an event or the game is over)
    and ``due_action`` what it is to do
    (``DUE_ACTIONS``); the leader or responder of the play stays as ``turn_seat``. ``sides``
    are the fixed teams (GJ-4); ``outcomes`` once the game is over each seat's place (1-6),
    points and win/loss/draw by the team totals (equal totals: a draw, GJ-32).
    ``opposite_of`` is each seat's 对门; ``locked`` the seats locked in the restricted phase,
    ``passed_since_top`` those that passed the top play in the open phase; ``rang.acts_before``
    the waiting seats still to act before the yielder (responders only, GJ-26);
    ``designating_side`` the team that designates after a 串三户; ``turn_order`` the seats
    from seat 0 in the session's direction (None before it is chosen); each ``out`` entry
    gains its position's ``name`` and ``points``.
    """
    from engine.games.gouji import game  # late: the game module uses this package

    n = len(s.players)
    due = game.due_seat(s)
    pos["phase"] = s.stage
    pos["turn_seat"] = _opt_seat(s.to_act)
    pos["to_act"] = _opt_seat(due)
    pos["due_action"] = _due_action(s, due)
    pos["sides"] = list(game.sides(s, seat))
    outcomes = game.outcomes(s)
    pos["outcomes"] = None if outcomes is None else [o._asdict() for o in outcomes]
    pos["opposite_of"] = [opposite(i) for i in range(n)]
    passed = _seats(s.passed)
    pos["locked"] = [] if s.open_phase else passed
    pos["passed_since_top"] = passed if s.open_phase else []
    if pos["rang"] is not None:
        r = responders(s)
        pos["rang"]["acts_before"] = [w for w in s.rang_wait if r >> w & 1]
    sweep = sweep_team(s)
    pos["designating_side"] = TEAM_NAMES[1 - sweep] if sweep >= 0 else None
    pos["turn_order"] = [k * s.direction % n for k in range(n)] if s.direction else None
    for o in pos["out"]:
        o["name"] = POSITION_NAMES[o["position"]]
        o["points"] = POINTS[o["position"]]



# ---------------------------------------------------------------- invariants (GJ-49)

def _check_shape(s: GoujiState, sweep: int) -> None:
    """What the rules need of a scenario position so that they cannot crash on it."""
    if s.stage == PLAY and not s.owed and s.to_act < 0:
        raise bad("to_act", "a game in play needs a seat to act")
    if s.stage == PLAY and s.direction == 0:
        raise bad("direction", "a game in play needs a direction")
    if s.to_act >= 0 and s.out_pos[s.to_act] and s.stage == PLAY:
        raise bad("to_act", "the seat to act is out")
    if sweep != sweep_team(s):
        raise bad("sweep", "must name the team holding positions 1-3 (串三户), or be null")
    if s.stage == DESIGNATE and sweep < 0:
        raise bad("sweep", "a designation needs the sweeping team")


def check_position(s: GoujiState, sweep: int = -2) -> None:
    """Raise PositionError unless the state is one the rules can reach: the stage's setup
    fields, the pack, the places taken, the declarations, the round, the turn and the owed
    events (docs/gouji.md, "What is checked")."""
    if sweep != -2 and sweep != sweep_team(s):
        raise bad("sweep", "must name the team holding positions 1-3 (串三户, GJ-34), or be "
                  "null")
    _check_setup(s)
    if s.stage in (CUT, DIRECTION, DEAL):
        _check_fresh(s)
        return
    _check_cards(s)
    _check_places(s)
    _check_declarations(s)
    _check_round(s)
    _check_owed(s)
    _check_turn(s)
    _check_over(s)


def _check_setup(s: GoujiState) -> None:
    """The first game's cut and direction (GJ-6, GJ-7), a later game's start (GJ-9, GJ-35)."""
    early = s.game_no == 1 and s.stage in (CUT, DIRECTION)
    if (s.direction == 0) != early:
        raise bad("direction", "is null until the first game's first player chooses it, then "
                  "+1 or -1 for the whole session (GJ-5, GJ-7)")
    if (s.starter < 0) != early:
        raise bad("starter", "is the first player once he chose the direction (GJ-7), in a "
                  "later game the previous 拉客 (GJ-9)")
    if s.game_no > 1:
        if s.stage in (CUT, DIRECTION) or s.cuts or s.cutter >= 0 or s.first_player >= 0 \
                or s.cut_holder >= 0:
            raise bad("cuts" if s.cuts else "stage", "only the first game of a session has a "
                      "cut (GJ-6, GJ-9)")
    else:
        _check_cuts(s)
    if s.huiwu_team >= 0 and (s.game_no == 1 or team_of(s.starter) != s.huiwu_team):
        raise bad("huiwu_team", "a 会五 follows a 串三户 of the previous game and is led by "
                  "the swept team's 拉客, the starter (GJ-34, GJ-35)")


def _check_cuts(s: GoujiState) -> None:
    """GJ-6: the same cutter shows jokers until a non-joker, which counts the first player."""
    cuts = s.cuts
    if len(cuts) >= s.seq:
        raise bad("cuts", f"holds {len(cuts)} cuts, more than the events before seq {s.seq}")
    for i, (seat, card, d) in enumerate(cuts):
        last = i == len(cuts) - 1
        if seat != s.cutter or (card >= 52) != (d == 0) or (card >= 52 and last
                                                           and s.stage != CUT):
            raise bad(f"cuts[{i}]", "the cutter shows jokers (no counting direction) until a "
                      "non-joker, which is counted +1 or -1 (GJ-6)")
        if card < 52 and not last:
            raise bad(f"cuts[{i + 1}]", "the cut ends with the first non-joker (GJ-6)")
    if s.cutter >= 0 and not cuts:
        raise bad("cutter", "is the seat of the cuts, null before the first (GJ-6)")
    done = bool(cuts) and cuts[-1][1] < 52
    if done != (s.stage != CUT):
        raise bad("stage", "the cut stage lasts until a non-joker is shown (GJ-6)")
    if done:
        seat, card, d = cuts[-1]
        first = (seat + d * (CUT_VALUE[card] - 1)) % N_SEATS
        if s.first_player != first:
            raise bad("first_player", f"the cut counts seat {first} (GJ-6)")
        if s.stage != DIRECTION and s.starter != first:
            raise bad("starter", f"the first player, seat {first}, starts the first game "
                      "(GJ-7)")
    elif s.first_player >= 0:
        raise bad("first_player", "is counted by the cut's non-joker, null before (GJ-6)")
    if (s.cut_holder >= 0) != (STAGES.index(s.stage) > STAGES.index(DEAL)):
        raise bad("cut_holder", "is known once the first game's deal is made (GJ-6)")


def _fresh(s: GoujiState) -> dict[str, tuple[str, Any]]:
    """Position field -> (state attribute, value) of everything before the deal."""
    return {"hands": ("hands", ((),) * N_SEATS), "played": ("played", ()),
            "out": ("out_pos", (0,) * N_SEATS), "open_phase": ("open_phase", False),
            "opened": ("opened", 0), "xuandian_used": ("xd_used", 0),
            "xuandian_pending": ("xd_pending", -1), "window": ("window", False),
            "burner": ("burner", -1), "kaidian_candidate": ("kd_cand", -1),
            "top": ("top_seat", -1), "passed": ("passed", 0), "rang": ("rang_seat", -1),
            "last": ("last", -1), "owed": ("owed", ()), "designation": ("designation", None),
            "result": ("result", None), "huiwu_due": ("huiwu_due", False),
            "to_act": ("to_act", s.first_player if s.stage == DIRECTION else -1)}


def _check_fresh(s: GoujiState) -> None:
    """Before the deal nothing of the play exists yet (GJ-10)."""
    for name, (attr, value) in _fresh(s).items():
        if getattr(s, attr) != value:
            raise bad(name, f"must be {_fresh_text(value)} before the deal (GJ-10)")


def _fresh_text(v: Any) -> str:
    if v is None or v is False or v == -1:
        return "null" if v is not False else "false"
    if isinstance(v, tuple) or v == 0:
        return "empty"
    return str(v)


def _dealt(s: GoujiState, seat: int) -> int:
    """GJ-8: the starter and the next three in turn order draw 33 cards, the last two 32."""
    return 33 if (seat - s.starter) * s.direction % N_SEATS < 4 else 32


def _check_cards(s: GoujiState) -> None:
    """GJ-2: the hands (dead cards included) and the played cards are the 196-card pack; no
    hand holds more than it was dealt (GJ-8: nobody draws in play)."""
    places = [(f"hands[{i}]", h) for i, h in enumerate(s.hands)] + [("played", s.played)]
    check_pack(places, PACK, "够级 pack (GJ-2)", missing_field="played")
    for i, h in enumerate(s.hands):
        if len(h) > _dealt(s, i):
            raise bad(f"hands[{i}]", f"holds {len(h)} cards, more than the {_dealt(s, i)} "
                      "the seat was dealt (GJ-8)")


def _check_places(s: GoujiState) -> None:
    """GJ-29 to GJ-34, GJ-45: players who go out take 1, 2, … from the top, judged ones 6,
    5, … from the bottom; the one left alone and a designation fill what is free; a player
    who went out holds nothing, an active one something, a stifled one its 3s."""
    by_how: dict[str, list[int]] = {h: [] for h in HOWS[1:]}
    for i in range(N_SEATS):
        if s.out_pos[i]:
            by_how[s.out_how[i]].append(s.out_pos[i])
    top_n = len(by_how[FINISHED])
    low_n = len(by_how[MEN]) + len(by_how[ZHASHAO])
    if sorted(by_how[FINISHED]) != list(range(1, top_n + 1)):
        raise bad("out", "players who went out hold positions 1, 2, … in order (GJ-31)")
    if sorted(by_how[MEN] + by_how[ZHASHAO]) != list(range(7 - low_n, 7)):
        raise bad("out", "judged players hold positions 6, 5, … in order (GJ-45)")
    if by_how[LAST] and (len(by_how[LAST]) > 1 or top_n + low_n != 5
                         or by_how[LAST] != [top_n + 1]):
        raise bad("out", "the player left alone takes the last free position (GJ-33)")
    if by_how[DESIGNATED] and (s.designation is None or 0 in s.out_pos):
        raise bad("out", "designated positions come with the designation (GJ-34)")
    for i, h in enumerate(s.hands):
        how = s.out_how[i]
        if (how == FINISHED) == bool(h):
            raise bad(f"hands[{i}]", "a player who went out holds no card, an active one at "
                      "least one (GJ-29)")
        if how == MEN and not _men_hand(s, h):
            raise bad(f"hands[{i}]", "a stifled player holds the 3s he was stifled with "
                      "(GJ-44)")
        if how in (LAST, DESIGNATED) and not h:
            raise bad(f"hands[{i}]", "a player placed without going out holds cards (GJ-33)")
    if s.designation is not None:
        want = tuple(sorted((i for i in range(N_SEATS) if s.out_how[i] == DESIGNATED),
                            key=s.out_pos.__getitem__))
        if s.designation != want or not want or sweep_team(s) < 0:
            raise bad("designation", "is the swept team's order of its designated seats, best "
                      "position first (GJ-34)")


def _men_hand(s: GoujiState, hand: tuple[int, ...]) -> bool:
    threes = bool(hand) and all(STRENGTH[c] == THREE for c in hand)
    return threes and (len(hand) == 1 or s.options.men_scope != "single_three")


def _game_ending(s: GoujiState) -> bool:
    """The game has ended or owes its GAME_END (the state no longer moves, GJ-33)."""
    return s.stage != PLAY or any(e.kind == "GAME_END" for e in s.owed)


def _check_declarations(s: GoujiState) -> None:
    """GJ-18, GJ-35, GJ-38: the phase follows the players out; the declaration window is open
    from the deal to the first play, and a 宣点 or the 会五 only then."""
    n_out = sum(1 for i in range(N_SEATS)
                if counts_out(s, i) and s.out_how[i] not in (LAST, DESIGNATED))
    if s.open_phase != (n_out >= 2):
        raise bad("open_phase", f"the phase is open once two players are out in play (GJ-18);"
                  f" {n_out} are")
    if s.window != (s.stage == PLAY and not s.played):
        raise bad("window", "the declaration window is open from the deal to the first play "
                  "(GJ-38)")
    if s.xd_pending >= 0 and (not s.window or not s.xd_used >> (s.xd_pending % 3) & 1):
        raise bad("xuandian_pending", "a 宣点 awaiting its answer is its pair's one 宣点, "
                  "in the declaration window (GJ-38)")
    if s.huiwu_due:
        team = [i for i in range(N_SEATS) if team_of(i) == s.huiwu_team]
        if s.huiwu_team < 0 or not s.window or s.to_act != s.starter or not any(
                STRENGTH[c] == FIVE for i in team for c in s.hands[i]):
            raise bad("huiwu_due", "the 会五 is the first play, by the starter, of a swept "
                      "team holding a 5 (GJ-35)")
    if s.burner >= 0 and (s.open_phase or (s.out_pos[s.burner] and not _game_ending(s))):
        raise bad("burner", "a burn ends with the open phase and when the burner is placed "
                  "(GJ-41 to GJ-43)")


def _check_round(s: GoujiState) -> None:
    """The top play (GJ-12, GJ-15, GJ-35), the locked seats (GJ-23), a yield (GJ-26) and the
    开点 candidate (GJ-36)."""
    if s.top_seat < 0:
        if s.passed or s.rang_seat >= 0:
            raise bad("passed" if s.passed else "rang", "locks and yields belong to a round "
                      "with a top play (GJ-23, GJ-26)")
    else:
        info = cast(PlayInfo, s.top_info)       # set whenever a top play is on
        if Counter(s.top) - Counter(s.played):
            raise bad("top.cards", "the top play's cards are played cards")
        if s.top_huiwu and (s.top_seat != s.starter or info.base != FIVE or info.n2
                            or s.huiwu_team != team_of(s.starter) or s.huiwu_due):
            raise bad("top.huiwu", "the 会五 is the swept team's 5s led by the starter (GJ-35)")
        if info.nrj and not _game_ending(s):
            raise bad("top.cards", "a play with a big joker ends its round at once (GJ-15)")
        if s.passed >> s.top_seat & 1 or s.passed & ~active_mask(s):
            raise bad("passed", "the locked seats are active seats other than the top play's "
                      "maker (GJ-23)")
    if s.kd_cand >= 0 and (s.out_pos[s.kd_cand] or (not _game_ending(s) and (
            s.top_seat >= 0 or s.to_act != s.kd_cand))):
        raise bad("kaidian_candidate", "the maker of a pure 够级 play that stood leads the "
                  "next round (GJ-36)")
    d = s.rang_seat
    if d >= 0:
        wait = (after(s, d), after(s, d, 2))
        if s.out_pos[d] or s.passed >> d & 1 or s.rang_wait not in (wait, wait[1:], ()):
            raise bad("rang", f"a yield by an active seat that has not passed, waiting for "
                      f"seats {wait[0]} then {wait[1]} (GJ-26)")


def _check_turn(s: GoujiState) -> None:
    """The seat to act: the starter in the declaration window, the leader or a responder
    of the top play (never a locked or out seat), the designator (GJ-21, GJ-22, GJ-34)."""
    if s.last < 0:
        raise bad("last", "a dealt game has a seat that acted last (the starter at first)")
    seat = s.to_act
    if _game_ending(s):
        ended = any(e.kind == "GAME_END" for e in s.owed) or s.stage == OVER
        want = -1 if ended else designator(s) if sweep_team(s) >= 0 else -2
        if s.stage == DESIGNATE and (want == -2 or ended != (0 not in s.out_pos)
                                     or ended != (s.designation is not None)):
            raise bad("stage", "a designation follows a 串三户 while seats are unplaced, and "
                      "places them all (GJ-34)")
        if seat != want:
            raise bad("to_act", f"must be {'null' if want < 0 else want} once the game has "
                      "ended (GJ-33, GJ-34)")
        return
    if seat < 0 or s.out_pos[seat] or s.passed >> seat & 1:
        raise bad("to_act", f"seat {_opt_seat(seat)} cannot act: the seat to act is an "
                  "active seat that has not passed (GJ-18, GJ-22, GJ-23)")
    if s.window and seat != s.starter:
        raise bad("to_act", f"before the first play the starter, seat {s.starter}, acts "
                  "(GJ-10)")
    if s.top_seat >= 0 and not responders(s) >> seat & 1:
        raise bad("to_act", f"seat {seat} is not a responder of the top play (GJ-22)")
    if s.rang_seat >= 0 and seat != (s.rang_wait[0] if s.rang_wait else s.rang_seat):
        raise bad("to_act", "during a yield the waiting seats act, then the yielder (GJ-26)")


OWED_SHAPES = {   # kind -> (seat, target, value, tags) of the derived events (GJ-48)
    "OPENED": ("seat", None, None, ("kaidian", "hedian")),
    "BURN_START": ("seat", "seat", None, ("burn", "counter")),
    "BURN_END": ("seat", None, None, ("relieved", "countered", "meitou", "open_phase",
                                      "success", "fake")),
    "OUT": ("seat", None, "position", HOWS[1:]),
    "PHASE_OPEN": (None, None, None, ("",)),
    "ROUND_END": ("seat or none", "seat", "flag", ("passes", "big_joker", "fake_burn")),
}


def _owed_shape_ok(s: GoujiState, e: Event) -> bool:
    seat_k, target_k, value_k, tags = OWED_SHAPES[e.kind]
    ok = {None: lambda v: v == -1, "seat": lambda v: 0 <= v < N_SEATS,
          "seat or none": lambda v: -1 <= v < N_SEATS, "flag": lambda v: v in (0, 1),
          "position": lambda v: 1 <= v <= N_SEATS}
    return (ok[seat_k](e.seat) and ok[target_k](e.target) and ok[value_k](e.value)
            and e.tag in tags and not e.cards and e.payload is None)


def _check_owed(s: GoujiState) -> None:
    """The derived events still owed (GJ-48): each of its kind's shape and agreeing with the
    state it records (an OUT its place, OPENED an opened seat, PHASE_OPEN the open phase, a
    ROUND_END the leader to act), ROUND_END or GAME_END last, GAME_END the game's result."""
    for i, e in enumerate(s.owed):
        name = f"owed[{i}]"
        last = i == len(s.owed) - 1
        if e.kind == "GAME_END":
            want = game_end_event(s) if 0 not in s.out_pos else None
            if want is None or not last or (e.seat, e.cards, e.target, e.value, e.tag) != \
                    (want.seat, want.cards, want.target, want.value, want.tag) or \
                    json.loads(e.payload or "null") != json.loads(cast(str, want.payload)):
                raise bad(name, "a GAME_END is owed last, once every seat is placed, with the "
                          "game's result (GJ-31 to GJ-34)")
            continue
        if e.kind not in OWED_SHAPES or not _owed_shape_ok(s, e):
            raise bad(name, f"is not a derived event of 够级: {', '.join(OWED_SHAPES)} or "
                      "GAME_END, each with its own fields (GJ-48)")
        if (e.kind == "OUT" and (s.out_pos[e.seat], s.out_how[e.seat]) != (e.value, e.tag)) \
                or (e.kind == "OPENED" and not s.opened >> e.seat & 1) \
                or (e.kind == "PHASE_OPEN" and not s.open_phase):
            raise bad(name, f"records a {e.kind} the state does not show (GJ-48)")
        if e.kind == "ROUND_END" and (not last or s.top_seat >= 0 or e.target != s.to_act):
            raise bad(name, "a ROUND_END is owed last, after the round is cleared, naming the "
                      "next leader, the seat to act (GJ-24, GJ-27)")


def _check_over(s: GoujiState) -> None:
    """A finished game has every seat placed, owes nothing and holds GAME_END's result."""
    if s.stage != OVER:
        if s.result is not None:
            raise bad("result", "only a finished game has a result")
        return
    if 0 in s.out_pos or s.owed:
        raise bad("stage", "a finished game has every seat placed and owes no event (GJ-33)")
    if s.result != json.loads(cast(str, game_end_event(s).payload)):
        raise bad("result", "must be the GAME_END result of the positions (GJ-31 to GJ-34)")
