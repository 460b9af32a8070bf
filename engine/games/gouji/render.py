"""A terminal rendering of a 够级 table from one seat's view or the auditor's."""

from __future__ import annotations

from engine.cards import parse_face, pretty_face
from engine.games.gouji.position import view
from engine.games.gouji.rules import POSITION_NAMES
from engine.games.gouji.state import GoujiState

DIRECTION = {1: "0→1→2→3→4→5", -1: "0→5→4→3→2→1", None: "not chosen yet"}


def _cards(faces: list[str]) -> str:
    return " ".join(pretty_face(parse_face(f)) for f in faces) or "-"


COUNT_DIR = {1: "counted forwards (+1)", -1: "counted backwards (-1)"}


def cut_line(v: dict) -> str:
    """The public facts of the first game's cut (GJ-6, GJ-47): each card shown, the counting
    direction, the first player, and who received the face-up cut card."""
    shown = []
    for c in v["cuts"]:
        how = COUNT_DIR.get(c["count_dir"], "a joker: put back, drawn again")
        shown.append(f"seat {c['seat']} showed {_cards([c['card']])}, {how}")
    text = "cut: " + "; ".join(shown)
    if v["first_player"] is not None:
        text += f" → seat {v['first_player']} is first"
    if v["cut_holder"] is not None:
        text += f"; the face-up {_cards([v['cuts'][-1]['card']])} went to seat {v['cut_holder']}"
    return text


def _unplaced(v: dict) -> list[int]:
    placed = {o["seat"] for o in v["out"]}
    return [i for i in range(len(v["hands"])) if i not in placed]


def render(s: GoujiState, seat: int | None = None) -> str:
    """Multi-line text of the table at this state, as seen by seat (None: auditor)."""
    v = view(s, seat)
    who = "auditor (all cards)" if seat is None else f"seat {seat}"
    phase = "open" if v["open_phase"] else "restricted"
    lines = [f"够级 {s.game_id}  game {s.game_no}  after seq {s.seq - 1}  view: {who}  "
             f"stage: {s.stage}  phase: {phase}  direction: {DIRECTION[v['direction']]}"]
    if v["cuts"]:
        lines.append(cut_line(v))
    top = v["top"]
    if s.stage == "designate" and v["to_act"] is not None:
        lines.append(f"串三户: the {v['designating_side']} team designates the order of seats "
                     f"{', '.join(str(o) for o in _unplaced(v))}; seat {v['to_act']} to act")
    if s.stage != "play":
        pass
    elif top is None:
        lines.append(f"no top play: seat {v['to_act']} leads")
    else:
        kind = "会五" if top["huiwu"] else "够级 play" if v["top_is_gouji"] else "play"
        lines.append(f"top {kind}: {_cards(top['cards'])}  by seat {top['seat']}  "
                     f"(opposite: seat {v['opposite_of_top']})")
    extras = []
    if v["burner"] is not None:
        extras.append(f"burning: seat {v['burner']}")
    if v["rang"]:
        extras.append(f"让牌 by seat {v['rang']['seat']}, waiting {v['rang']['waiting']}")
    if v["window"]:
        extras.append("宣点 window open")
    if v["xuandian_pending"] is not None:
        extras.append(f"宣点 by seat {v['xuandian_pending']} awaits 和点")
    if v["huiwu_due"]:
        extras.append(f"会五 due ({v['huiwu_team']} team)")
    if extras:
        lines.append("    ".join(extras))
    out = {o["seat"]: o for o in v["out"]}
    for i, h in enumerate(v["hands"]):
        mark = "▶" if v["to_act"] == i and s.stage == "play" else " "
        team = "even" if i % 2 == 0 else "odd"
        flags = []
        if i in out:
            o = out[i]
            flags.append(f"{POSITION_NAMES[o['position']]} ({o['position']}, {o['how']})")
        if i in v["opened"]:
            flags.append("opened")
        if i in v["meitou"]:
            flags.append("没头")
        if i in v["passed"]:
            flags.append("passed" if v["open_phase"] else "locked")
        hand = "hidden" if h is None else f"{len(h):2d}: {_cards(h)}"
        lines.append(f" {mark} seat {i} {'[' + team + ']':<6} {s.players[i]:>10}  {hand}"
                     + (f"   ({', '.join(flags)})" if flags else ""))
    if s.result:
        r = s.result
        lines.append(f"result: {r['result']}  team totals {r['team_totals']}  "
                     f"串三户: {r['chuansanhu'] or '-'}  next starter: seat {r['next_starter']}")
    return "\n".join(lines)
