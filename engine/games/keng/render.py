"""A terminal rendering of a 六人坑 table from one seat's view or the auditor's."""

from __future__ import annotations

from engine.cards import parse_face, pretty_face
from engine.games.keng.position import view
from engine.games.keng.state import KengState

DIRECTION = {1: "0→1→2→3→4→5 (counter-clockwise)", -1: "0→5→4→3→2→1 (clockwise)"}


def _cards(faces: list[str]) -> str:
    return " ".join(pretty_face(parse_face(f)) for f in faces) or "-"


def render(s: KengState, seat: int | None = None) -> str:
    """Multi-line text of the table at this state, as seen by seat (None: auditor)."""
    v = view(s, seat)
    who = "auditor (all cards)" if seat is None else f"seat {seat}"
    lines = [f"六人坑 {s.game_id}  after seq {s.seq - 1}  view: {who}  phase: {s.phase}"]
    top = v["top"]
    top_txt = _cards(top["cards"])
    if top["suit"] and (len(top["cards"]) > 1 or top["cards"][0] in ("BJ", "RJ")):
        top_txt += f"  (suit {top['suit']})"
    if top["seat"] >= 0:
        top_txt += f"  by seat {top['seat']}"
    lines.append(f"top play: {top_txt}    pending draw: {v['pending_draw']}    "
                 f"direction: {DIRECTION[v['direction']]}")
    stock = v["stock"] if isinstance(v["stock"], int) else len(v["stock"])
    lines.append(f"stock: {stock}    played under top: {len(v['table'])}    cycle: {v['cycle']}"
                 f"    snatch window: {'open' if v['snatch_window_open'] else 'closed'}")
    if v["duel"]:
        d = v["duel"]
        lines.append(f"duel: challenger {d['challenger']} vs defender {d['defender']}, "
                     f"cards {_cards(d['cards'])}, seat {d['to_act']} to act")
    for i, h in enumerate(v["hands"]):
        mark = "▶" if (v["duel"] or {}).get("to_act", s.to_act) == i and s.phase == "play" \
            else " "
        team = "even" if i % 2 == 0 else "odd"
        flags = []
        if v["banned"][i]:
            flags.append("banned from 抢")
        if v["last_card_obligation"] == i:
            flags.append("must report last card")
        if v["count_used"][i]:
            flags.append("count used")
        hand = f"{h} cards (hidden)" if isinstance(h, int) else f"{len(h):2d}: {_cards(h)}"
        lines.append(f" {mark} seat {i} {'[' + team + ']':<6} {s.players[i]:>10}  {hand}"
                     + (f"   ({', '.join(flags)})" if flags else ""))
    if s.result:
        r = s.result
        lines.append(f"result: {r['reason']}, deciding seat {r['deciding_seat']}, "
                     f"winning team {r['winning_team']}")
    return "\n".join(lines)
