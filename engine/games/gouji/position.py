"""Positions (GJ-49): the full 够级 state as JSON and back, and per-seat views (GJ-47).

The format is documented in docs/gouji.md; cards are text faces, seats are 0-5.
"""

from __future__ import annotations

import json
from typing import Any

from engine.cards import format_face
from engine.errors import EngineError, InvalidEvent
from engine.events import Event, event_from_json, event_to_json
from engine.games.codec import Fields, bad, faces_value
from engine.games.common import faces as _faces
from engine.games.gouji.cards import sort_hand
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.plays import analyse
from engine.games.gouji.rules import POINTS, POSITION_NAMES, sweep_team
from engine.games.gouji.state import (
    DESIGNATE,
    DIRECTION,
    N_SEATS,
    STAGES,
    TEAM_NAMES,
    GoujiState,
    opposite,
)
from engine.games.gouji.turns import gouji_now, is_meitou, responders

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


def _owed_event(x: Any, game_id: str) -> Event:
    e = event_from_json(x)._replace(seq=-1, game_id=game_id)
    if e.payload is not None:
        e = e._replace(payload=json.dumps(json.loads(e.payload), sort_keys=True,
                                          separators=(",", ":")))
    return e


def _mask(f: Fields, key: str) -> int:
    m = 0
    for x in f.list(key):
        m |= 1 << f.seat_value(x, f.name(key))
    return m


def _team(f: Fields, key: str) -> int:
    v = f.get(key, None)
    return -1 if v is None else TEAM_NAMES.index(f.choice(key, TEAM_NAMES))


def from_position(p: dict[str, Any]) -> GoujiState:
    """A state from its JSON form; raises InvalidEvent naming the bad field."""
    if not isinstance(p, dict) or p.get("format") != POSITION_FORMAT:
        raise InvalidEvent(f"not a gouji position (format must be {POSITION_FORMAT!r})",
                           field="format")
    f = Fields(p, N_SEATS)
    s = GoujiState.__new__(GoujiState)
    s.game_id = f.text("game_id")
    try:
        s.options = GoujiOptions.from_dict(f.get("options"))
    except EngineError as exc:
        raise bad("options", str(exc)) from None
    s.players = f.per_seat("players", lambda v, name: str(v))
    s.game_no = f.int("game_no", 1)
    s.session = f.get("session", None)
    s.previous_game = f.get("previous_game", None)
    s.seq = f.int("seq", 1)
    s.stage = f.choice("stage", STAGES)
    s.direction = f.choice("direction", (None, 1, -1)) or 0
    s.starter = f.seat("starter", True)
    s.huiwu_team = _team(f, "huiwu_team")
    s.huiwu_due = f.bool("huiwu_due")
    s.cutter = f.seat("cutter", True)
    s.cuts = tuple(_cut(f.nested(c, f"cuts[{i}]")) for i, c in enumerate(f.list("cuts")))
    s.first_player = f.seat("first_player", True)
    s.cut_holder = f.seat("cut_holder", True)
    s.hands = f.per_seat("hands", lambda v, name: sort_hand(faces_value(v, name)))
    s.played = f.faces("played")
    _read_out(s, f)
    s.open_phase = f.bool("open_phase")
    s.opened = _mask(f, "opened")
    s.xd_used = 0
    for pair in f.list("xuandian_used"):
        if pair not in (0, 1, 2) or isinstance(pair, bool):
            raise bad("xuandian_used", "lists opposite pairs 0-2")
        s.xd_used |= 1 << pair
    s.xd_pending = f.seat("xuandian_pending", True)
    s.window = f.bool("window")
    s.burner = f.seat("burner", True)
    s.kd_cand = f.seat("kaidian_candidate", True)
    _read_top(s, f.optional_sub("top"))
    s.passed = _mask(f, "passed")
    r = f.optional_sub("rang")
    s.rang_seat = -1 if r is None else r.seat("seat")
    s.rang_wait = () if r is None else tuple(r.seat_value(x, "rang.waiting")
                                              for x in r.list("waiting"))
    s.last = f.seat("last", True)
    s.to_act = f.seat("to_act", True)
    s.owed = tuple(_owed_event(x, s.game_id) for x in f.list("owed"))
    sweep = _team(f, "sweep")
    dz = f.get("designation")
    s.designation = None if dz is None else tuple(
        f.seat_value(x, "designation") for x in f.list("designation"))
    s.result = f.get("result")
    f.done("format", "game")
    _check_shape(s, sweep)
    return s


def _cut(c: Fields) -> tuple[int, int, int]:
    card = faces_value([c.get("card")], c.name("card"))[0]
    return c.seat("seat"), card, c.choice("count_dir", (None, 0, 1, -1)) or 0


def _read_out(s: GoujiState, f: Fields) -> None:
    pos, how = [0] * N_SEATS, [""] * N_SEATS
    for k, o in enumerate(f.list("out")):
        o = f.nested(o, f"out[{k}]")
        i = o.seat("seat")
        pos[i], how[i] = o.int("position", 1, N_SEATS), o.choice("how", HOWS[1:])
    if len([x for x in pos if x]) != len({x for x in pos if x}):
        raise bad("out", "gives two seats the same position")
    s.out_pos, s.out_how = tuple(pos), tuple(how)


def _read_top(s: GoujiState, top: Fields | None) -> None:
    if top is None:
        s.top, s.top_seat, s.top_info, s.top_huiwu = (), -1, None, False
        return
    s.top = top.faces("cards")
    s.top_seat = top.seat("seat")
    s.top_huiwu = top.bool("huiwu", False)
    s.top_info = analyse(s.top)
    if s.top_info is None:
        raise bad("top.cards", "is not a play (GJ-12)")


def _check_shape(s: GoujiState, sweep: int) -> None:
    """Invariants every reachable state has, so that a loaded position cannot crash the rules."""
    if s.seq < 1:
        raise InvalidEvent("seq must be >= 1", field="seq")
    if s.stage == "play" and not s.owed and s.to_act < 0:
        raise InvalidEvent("a game in play needs a seat to act", field="to_act")
    if s.stage == "play" and s.direction == 0:
        raise InvalidEvent("a game in play needs a direction", field="direction")
    if s.to_act >= 0 and s.out_pos[s.to_act] and s.stage == "play":
        raise InvalidEvent("the seat to act is out", field="to_act")
    if sweep != sweep_team(s):
        raise InvalidEvent("sweep must name the team holding positions 1-3 (串三户), or be "
                           "null", field="sweep")
    if s.stage == "designate" and sweep < 0:
        raise InvalidEvent("a designation needs the sweeping team", field="sweep")


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

