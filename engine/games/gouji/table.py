"""够级's table as the neutral model (``engine.table``).

The seats follow the session's direction (``turn_step``): the next player (下家) of a seat sits
next to it counter-clockwise, so the 对门 of every seat is drawn across the table. Each seat
shows its team (the view's side: even blue, odd red), its 对门, what it is due to do, its hand
(under a seat's perspective the other hands are hidden without a count, GJ-47; a judged hand's
dead cards marked), its place once out (头客 … 拉客, points and how), its outcome once the game
is over and its flags: locked / passed, 让牌, 烧牌, opened (开点), 没头, 宣点, the top play, the
face-up cut card. The centre shows the top play (够级 or 会五 marked, its maker and the
responders), the turn, pending effects, the result, the game, stage and phase, the direction
and the 对门 pairs, the 宣点 window, the first game's cut and the places taken.

Only reads the view (``engine.games.gouji.position.view``): who is due and what for, the
responders, locks, the 让牌 order, the opposites, places and outcomes are the view's. What an
event means in words is in ``describe``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.games.gouji.describe import (
    DIRECTION_ARROWS,
    HOW_TEXT,
    POSITION_ORDINALS,
    profile_text,
)
from engine.table import (
    Badge,
    Faces,
    Grid,
    Line,
    SeatModel,
    TableModel,
    Tone,
    as_dict,
    as_int,
    as_list,
    base_seat,
    faces_of,
    line,
    model,
    result_summary,
    seat_list,
    seat_names,
    seat_or_none,
    side_of,
    signed,
    to_act_seat,
)

TITLE = "够级"
SIDE_TONES: dict[str, Tone] = {"even": "blue", "odd": "red"}
# What the seat the game waits for is to do (the view's due_action).
DUE_TEXT = {
    "choose_direction": "to choose the direction",
    "designate": "to designate (for the swept team)",
    "answer_xuandian": "to answer the 宣点 (和点)",
    "lead_huiwu": "to lead the 会五",
    "lead": "to lead",
    "respond": "to act",
}
STAGE_TEXT = {
    "cut": "the cut (first game)", "direction": "choosing the direction", "deal": "the deal",
    "play": "play", "designate": "designation after 串三户", "over": "game over",
}
COUNT_DIR = {1: "counted forwards (+1)", -1: "counted backwards (-1)"}
JOKER_CUT = "a joker: put back, drawn again"
DEAD_HOWS = ("men", "zhashao")


# ---------------------------------------------------------------- reading the view

def opposite_of(view: dict[str, Any], seat: int | None) -> int | None:
    """A seat's 对门 as the view gives it (``opposite_of``)."""
    opp = view.get("opposite_of")
    if seat is None or not isinstance(opp, list) or not 0 <= seat < len(opp):
        return None
    return seat_or_none(view, opp[seat])


def direction_of(view: dict[str, Any]) -> int:
    """The session's direction d (+1 or −1; +1 before it is chosen)."""
    return -1 if view.get("direction") == -1 else 1


def outs(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Seat -> its `out` entry (position 1-6, how, the position's name and points)."""
    out = {}
    for o in as_list(view.get("out")):
        o = as_dict(o)
        seat, pos = seat_or_none(view, o.get("seat")), as_int(o.get("position"))
        if seat is not None and pos is not None and pos >= 1:
            out[seat] = {"position": pos, "how": str(o.get("how", "")),
                         "name": str(o.get("name", "")), "points": as_int(o.get("points"))}
    return out


def rang(view: dict[str, Any]) -> tuple[int | None, list[int]]:
    """The yielder (让牌, GJ-26) and the seats still to act before him (the view's
    ``rang.acts_before``)."""
    r = as_dict(view.get("rang"))
    seat = seat_or_none(view, r.get("seat"))
    if seat is None:
        return None, []
    return seat, seat_list(view, r.get("acts_before", r.get("waiting")))


def due(view: dict[str, Any]) -> tuple[int | None, str]:
    """The seat whose decision the game waits for and what it is to do, or (None, '')."""
    seat = to_act_seat(view)
    if seat is None:
        return None, ""
    return seat, DUE_TEXT.get(str(view.get("due_action")), "to act")


# ---------------------------------------------------------------- seats

def _rang_flags(view: dict[str, Any], seat: int) -> list[str]:
    rang_seat, waiting = rang(view)
    if rang_seat == seat:
        if waiting:
            return ["让牌: yielded, waits for seat" + ("s " if len(waiting) != 1 else " ")
                    + ", ".join(map(str, waiting))]
        return ["让牌: yielded, acts next"]
    if rang_seat is not None and seat in waiting:
        return [f"让牌: to act before seat {rang_seat}"]
    return []


def seat_flags(view: dict[str, Any], seat: int) -> list[str]:
    """A seat's flags: locked or passed, 让牌, burning, opened, 开点 candidate, 没头, 宣点,
    the top play it made, the face-up cut card it holds."""
    flags = []
    if seat in seat_list(view, view.get("locked")):
        flags.append("locked (passed, 过牌)")
    if seat in seat_list(view, view.get("passed_since_top")):
        flags.append("passed since the top play")
    flags += _rang_flags(view, seat)
    if seat_or_none(view, view.get("burner")) == seat:
        flags.append("烧牌: burning")
    if seat in seat_list(view, view.get("opened")):
        flags.append("opened (开点)")
    if seat_or_none(view, view.get("kaidian_candidate")) == seat:
        flags.append("may 开点 with a lead of 4s")
    if seat in seat_list(view, view.get("meitou")):
        flags.append("没头 (对门 out)")
    if seat_or_none(view, view.get("xuandian_pending")) == seat:
        flags.append("宣点 declared, awaits 和点")
    top = as_dict(view.get("top"))
    if seat_or_none(view, top.get("seat")) == seat:
        what = "会五" if top.get("huiwu") else "够级 play" if view.get("top_is_gouji") else "play"
        flags.append(f"made the top {what}")
    if view.get("game_no") == 1 and not view.get("played") \
            and seat_or_none(view, view.get("cut_holder")) == seat:
        flags.append("holds the face-up cut card")
    return flags


def place_line(out: dict[str, Any]) -> Line:
    """A seat's place once out: '头客 (1st, +2)' as a badge (green, red for points lost),
    then how ('· went out'); ``data-position`` is the position."""
    pos, points = out["position"], out["points"]
    tone: Tone = "red" if (points or 0) < 0 else "green"
    ordinal = POSITION_ORDINALS[pos] if pos < len(POSITION_ORDINALS) else f"#{pos}"
    how = f" · {HOW_TEXT.get(out['how'], out['how'])}" if out["how"] else ""
    return line(Badge(f"{out['name'] or 'position'} ({ordinal}, {signed(points)})", tone), how,
                data=(("position", str(pos)),))


def seat_model(view: dict[str, Any], seat: int, name: str) -> SeatModel:
    """One seat: team badge and colour, 对门, what it is due to do, hand, place, flags."""
    side = side_of(view, seat)
    tone = SIDE_TONES.get(side, "") if side else ""
    badges = [Badge(side, tone, side=side)] if side else []
    opp = opposite_of(view, seat)
    if opp is not None:
        badges.append(Badge(f"对门 seat {opp}", "grey"))
    seat_due, what = due(view)
    if seat_due == seat and what != "to act":
        badges.append(Badge(what, "amber"))
    out = outs(view).get(seat)
    notes = [place_line(out)] if out is not None else []
    hand = as_list(view.get("hands"))
    faces = faces_of(hand[seat]) if seat < len(hand) else ()
    if out is not None and out["how"] in DEAD_HOWS and faces:
        n = len(faces)
        notes.append(line(f"dead cards: the {n} card{'s' * (n != 1)} above are dead",
                          title=HOW_TEXT[out["how"]]))
    return base_seat(view, seat, name, SIDE_TONES, badges=tuple(badges),
                     notes=tuple(notes), done=out is not None,
                     flags=tuple(seat_flags(view, seat)))


# ---------------------------------------------------------------- centre

def top_lines(view: dict[str, Any]) -> list[Line]:
    """The top play's cards (够级 or 会五 marked), its profile and maker, the responders; or
    that nothing is on the table."""
    top = as_dict(view.get("top"))
    faces = faces_of(top.get("cards"))
    if not faces:       # who is to lead: the turn line under it
        return [line("no play on the table", kind="top")]
    badges = []
    if top.get("huiwu"):
        badges.append(Badge("会五", "violet"))
    if view.get("top_is_gouji"):
        badges.append(Badge("够级", "red"))
    who = profile_text(faces)
    maker = seat_or_none(view, top.get("seat"))
    if maker is not None:
        opp = seat_or_none(view, view.get("opposite_of_top"))
        who += f" by seat {maker}" + (f" (对门 seat {opp})" if opp is not None else "")
    responders = seat_list(view, view.get("responders"))
    return [line(Faces(faces), *badges, kind="top", title="top play"),
            line(who),
            line("responders: " + (", ".join(f"seat {i}" for i in responders) or "none"))]


def pending_texts(view: dict[str, Any]) -> list[str]:
    """Pending effects in words: a burn, a 让牌, a 宣点, a 会五, derived events owed, the
    designation after a 串三户."""
    out = []
    burner = seat_or_none(view, view.get("burner"))
    if burner is not None:
        out.append(f"烧牌 in progress: seat {burner} is burning")
    rang_seat, waiting = rang(view)
    if rang_seat is not None:
        out.append(f"让牌 by seat {rang_seat}: "
                   + (f"seat{'s' * (len(waiting) != 1)} {', '.join(map(str, waiting))} "
                      "to act first" if waiting else "the turn returns to him"))
    pending = seat_or_none(view, view.get("xuandian_pending"))
    if pending is not None:
        out.append(f"宣点 by seat {pending}: seat {opposite_of(view, pending)} to agree (和点) "
                   "or refuse")
    if view.get("huiwu_due"):
        out.append(f"会五 due: team {view.get('huiwu_team')} leads all its 5s "
                   f"(starter seat {seat_or_none(view, view.get('starter'))})")
    kinds = [str(o.get("kind")) for o in as_list(view.get("owed")) if isinstance(o, dict)]
    if kinds:
        out.append(f"derived events still to be logged: {', '.join(kinds)}")
    sweep, designating = view.get("sweep"), view.get("designating_side")
    if sweep and designating and not (view.get("outcomes") and view.get("result")):
        placed = outs(view)
        unplaced = [i for i in range(len(as_list(view.get("hands")))) if i not in placed]
        out.append(f"串三户 by team {sweep}: the {designating} team designates the order of "
                   f"seats {', '.join(map(str, unplaced))}")
    return out


def turn_text(view: dict[str, Any]) -> str:
    """The result once over ('game over: even won, even +3 : odd −3'), else who is due and
    what for, else the stage."""
    summary = result_summary(view)
    if summary:
        totals = as_dict(as_dict(view.get("result")).get("team_totals"))
        text = " : ".join(f"{side} {signed(v)}" for side, v in totals.items())
        head = "draw (平)" if summary == "draw" else summary
        return f"game over: {head}" + (f", {text}" if text else "")
    seat, what = due(view)
    if seat is not None:
        return f"seat {seat} {what}"
    stage = str(view.get("stage", ""))
    return STAGE_TEXT.get(stage, stage)


def result_texts(view: dict[str, Any]) -> list[str]:
    """Once over: the 串三户 and the designated order, who starts the next game and whether
    a team owes the 会五."""
    r = as_dict(view.get("result"))
    if not view.get("outcomes") or not r:
        return []
    out = []
    if r.get("chuansanhu"):
        design = as_list(r.get("designation"))
        out.append(f"串三户 by team {r['chuansanhu']}"
                   + (f"; designated order: seats {', '.join(map(str, design))}" if design
                      else ""))
    nxt = seat_or_none(view, r.get("next_starter"))
    if nxt is not None:
        out.append(f"next game: seat {nxt} (拉客) starts"
                   + (f", team {r['next_huiwu_team']} owes the 会五"
                      if r.get("next_huiwu_team") else ""))
    return out


def _pairs_text(view: dict[str, Any], pairs: Any) -> list[str]:
    return [f"{p[0]}–{p[1]}" for p in pairs or []
            if isinstance(p, (list, tuple)) and len(p) == 2]


def direction_text(view: dict[str, Any]) -> str:
    """The session's direction: 'direction ↺ d = +1: 0→1→2→3→4→5' (from the view's turn
    order)."""
    if view.get("direction") not in (1, -1):
        return "direction not chosen yet"
    d = direction_of(view)
    order = "→".join(str(i) for i in as_list(view.get("turn_order")))
    return f"direction {DIRECTION_ARROWS[d]} d = {signed(d)}" + (f": {order}" if order else "")


def game_lines(view: dict[str, Any]) -> list[Line]:
    """The game number, stage and phase; the direction; the 对门 pairs; the 宣点 window."""
    stage = str(view.get("stage", ""))
    game_no = as_int(view.get("game_no"))
    phase = "open" if view.get("open_phase") else "restricted"
    out = [line(f"game {game_no if game_no is not None else '?'} · "
                f"{STAGE_TEXT.get(stage, stage)} · phase {phase}")]
    if view.get("open_phase"):
        out.append(line("(two players out: no 够级, nobody locked)"))
    pairs = as_list(view.get("opposites"))
    out.append(line(direction_text(view),
                    title="turn order runs counter-clockwise in this picture"))
    out.append(line("对门 " + " · ".join(_pairs_text(view, pairs))))
    if view.get("window"):
        used = [pairs[p] for p in as_list(view.get("xuandian_used"))
                if as_int(p) is not None and 0 <= p < len(pairs)]
        text = ", ".join(_pairs_text(view, used))
        out.append(line("宣点 window open" + (f" (used by {text})" if text else "")))
    return out


def cut_lines(view: dict[str, Any]) -> list[Line]:
    """The first game's cut (GJ-6, GJ-47), all public: each card shown and its counting
    direction, the first player, who received the face-up cut card."""
    cuts = [as_dict(c) for c in as_list(view.get("cuts"))]
    out = []
    for i, c in enumerate(cuts):
        how = COUNT_DIR.get(as_int(c.get("count_dir")), JOKER_CUT)  # type: ignore[arg-type]
        out.append(line("cut: " * (i == 0) + f"seat {c.get('seat')} showed ",
                        Faces((str(c.get("card")),)), f", {how}"))
    first = seat_or_none(view, view.get("first_player"))
    if first is not None and out:
        out[-1] = Line((*out[-1].parts, f" → seat {first} is first"))
    holder = seat_or_none(view, view.get("cut_holder"))
    if holder is not None and cuts:
        out.append(line("the face-up ", Faces((str(cuts[-1].get("card")),), counted=False),
                        f" went to seat {holder}"))
    return out


def places_grid(view: dict[str, Any]) -> list[Grid]:
    """The places taken so far, best first: position, seat, points, how."""
    taken = sorted(outs(view).items(), key=lambda kv: kv[1]["position"])
    if not taken:
        return []
    rows = tuple(((o["name"],), (f"seat {seat}",), (signed(o["points"]),),
                  (HOW_TEXT.get(o["how"], o["how"]),)) for seat, o in taken)
    return [Grid("places", ("place", "seat", "points", "how"), rows)]


def centre(view: dict[str, Any]) -> list[Line | Grid]:
    """The middle of the table: top play, turn, pending effects, result, game and phase,
    direction, the cut, the places."""
    return [*top_lines(view), line(turn_text(view), kind="turn"),
            *(line(t, kind="pending") for t in pending_texts(view)),
            *(line(t) for t in result_texts(view)), *game_lines(view), *cut_lines(view),
            *places_grid(view)]


def table(view: dict[str, Any], players: Sequence[str] | None = None) -> TableModel:
    """The 够级 table of a view (``engine.table.TableModel``), laid out in the session's
    direction."""
    names = seat_names(view, players)
    seats = (seat_model(view, i, names[i]) for i in range(len(names)))
    return model(TITLE, view, seats, centre(view), turn_step=direction_of(view))
