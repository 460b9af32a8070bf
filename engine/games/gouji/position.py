"""Positions (GJ-49): the full 够级 state as JSON and back, and per-seat views (GJ-47).

The format is documented in docs/gouji.md; cards are text faces, seats are 0-5.
"""

from __future__ import annotations

import json
from typing import Any

from engine.cards import format_face, parse_face
from engine.errors import EngineError, InvalidEvent
from engine.events import Event, event_from_json, event_to_json
from engine.games.common import codes as _codes
from engine.games.common import faces as _faces
from engine.games.common import seat_field
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


def _seat(v: Any, name: str, allow_none: bool = False) -> int:
    return seat_field(v, name, allow_none, n=N_SEATS)
HOWS = ("", "finished", "men", "zhashao", "last", "designated")


def _seats(mask: int) -> list[int]:
    return [i for i in range(6) if mask >> i & 1]


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
                for i in sorted(range(6), key=lambda i: s.out_pos[i]) if s.out_pos[i]],
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


def _mask(v: Any, name: str) -> int:
    if not isinstance(v, list):
        raise InvalidEvent(f"position field {name!r} must be a list of seats", field=name)
    m = 0
    for x in v:
        m |= 1 << _seat(x, name)
    return m


def _team(v: Any, name: str) -> int:
    if v is None:
        return -1
    if v not in TEAM_NAMES:
        raise InvalidEvent(f"position field {name!r} must be 'even', 'odd' or null", field=name)
    return TEAM_NAMES.index(v)


def from_position(p: dict[str, Any]) -> GoujiState:
    """A state from its JSON form; raises InvalidEvent naming the bad field."""
    if not isinstance(p, dict) or p.get("format") != POSITION_FORMAT:
        raise InvalidEvent(f"not a gouji position (format must be {POSITION_FORMAT!r})",
                           field="format")
    try:
        s = GoujiState.__new__(GoujiState)
        s.game_id = str(p["game_id"])
        try:
            s.options = GoujiOptions.from_dict(p["options"])
        except (EngineError, TypeError) as exc:
            raise InvalidEvent(f"options: {exc}", field="options") from None
        s.players = tuple(str(x) for x in p["players"])
        if len(s.players) != 6:
            raise InvalidEvent("players must name six seats", field="players")
        s.game_no = int(p["game_no"])
        s.session = p.get("session")
        s.previous_game = p.get("previous_game")
        s.seq = int(p["seq"])
        if p["stage"] not in STAGES:
            raise InvalidEvent(f"stage {p['stage']!r} is not one of {', '.join(STAGES)}",
                               field="stage")
        s.stage = p["stage"]
        d = p["direction"]
        if d not in (None, 1, -1):
            raise InvalidEvent("direction must be 1, -1 or null", field="direction")
        s.direction = d or 0
        s.starter = _seat(p["starter"], "starter", True)
        s.huiwu_team = _team(p["huiwu_team"], "huiwu_team")
        s.huiwu_due = bool(p["huiwu_due"])
        s.cutter = _seat(p["cutter"], "cutter", True)
        cuts = []
        for c in p["cuts"]:
            cuts.append((_seat(c["seat"], "cuts.seat"), parse_face(c["card"]),
                         int(c["count_dir"] or 0)))
        s.cuts = tuple(cuts)
        s.first_player = _seat(p["first_player"], "first_player", True)
        s.cut_holder = _seat(p["cut_holder"], "cut_holder", True)
        hands = p["hands"]
        if not isinstance(hands, list) or len(hands) != 6:
            raise InvalidEvent("hands must be six lists of faces", field="hands")
        s.hands = tuple(sort_hand(_codes(h, "hands")) for h in hands)
        s.played = _codes(p["played"], "played")
        pos, how = [0] * 6, [""] * 6
        for o in p["out"]:
            i = _seat(o["seat"], "out.seat")
            if not 1 <= o["position"] <= 6 or o["how"] not in HOWS[1:]:
                raise InvalidEvent("out entries need a position 1-6 and a how", field="out")
            pos[i], how[i] = int(o["position"]), str(o["how"])
        if len([x for x in pos if x]) != len({x for x in pos if x}):
            raise InvalidEvent("two seats hold the same position", field="out")
        s.out_pos, s.out_how = tuple(pos), tuple(how)
        s.open_phase = bool(p["open_phase"])
        s.opened = _mask(p["opened"], "opened")
        s.xd_used = 0
        for pair in p["xuandian_used"]:
            if pair not in (0, 1, 2):
                raise InvalidEvent("xuandian_used lists pairs 0-2", field="xuandian_used")
            s.xd_used |= 1 << pair
        s.xd_pending = _seat(p["xuandian_pending"], "xuandian_pending", True)
        s.window = bool(p["window"])
        s.burner = _seat(p["burner"], "burner", True)
        s.kd_cand = _seat(p["kaidian_candidate"], "kaidian_candidate", True)
        top = p["top"]
        if top is None:
            s.top, s.top_seat, s.top_info, s.top_huiwu = (), -1, None, False
        else:
            s.top = _codes(top["cards"], "top.cards")
            s.top_seat = _seat(top["seat"], "top.seat")
            s.top_huiwu = bool(top.get("huiwu", False))
            s.top_info = analyse(s.top)
            if s.top_info is None:
                raise InvalidEvent("top.cards is not a play (GJ-12)", field="top.cards")
        s.passed = _mask(p["passed"], "passed")
        r = p["rang"]
        if r is None:
            s.rang_seat, s.rang_wait = -1, ()
        else:
            s.rang_seat = _seat(r["seat"], "rang.seat")
            s.rang_wait = tuple(_seat(x, "rang.waiting") for x in r["waiting"])
        s.last = _seat(p["last"], "last", True)
        s.to_act = _seat(p["to_act"], "to_act", True)
        s.owed = tuple(_owed_event(x, s.game_id) for x in p["owed"])
        sweep = _team(p.get("sweep"), "sweep")
        dz = p["designation"]
        s.designation = None if dz is None else tuple(_seat(x, "designation") for x in dz)
        s.result = p["result"]
    except KeyError as exc:
        raise InvalidEvent(f"position lacks field {exc.args[0]!r}", field=str(exc.args[0])) from None
    except (TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, InvalidEvent):
            raise
        raise InvalidEvent(f"position is malformed: {exc}", field="position") from None
    _check_shape(s, sweep)
    return s


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


def seen_cards(e: Event, seat: int | None) -> tuple[int, ...]:
    """The cards of the event the seat sees: all of them or none (``cards_visible``)."""
    return e.cards if cards_visible(e, seat) else ()


def view(s: GoujiState, seat: int | None) -> dict[str, Any]:
    """What a seat knew at this moment (GJ-47): its own hand, public events; no hand counts.
    Seat None is the auditor's full view. Both add the derived table facts (teams, 没头, 够级,
    and the common keys of ``_table_facts``: to_act, sides, outcomes …)."""
    pos = to_position(s)
    pos["perspective"] = "auditor" if seat is None else seat
    pos["teams"] = {"even": [0, 2, 4], "odd": [1, 3, 5]}
    pos["opposites"] = [[0, 3], [1, 4], [2, 5]]
    pos["meitou"] = [i for i in range(6) if is_meitou(s, i)]
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

