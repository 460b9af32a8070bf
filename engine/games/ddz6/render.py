"""The 六人斗地主 table as terminal text (``liujia replay``), from a seat's view or the
auditor's."""

from __future__ import annotations

from engine.games.ddz6.info import view
from engine.games.ddz6.state import DdzState


def _hand(h: object) -> str:
    return " ".join(h) if isinstance(h, list) else f"[{h} cards]"


def render(s: DdzState, seat: int | None = None) -> str:
    """The table at this state as the seat (None: the auditor) saw it."""
    v = view(s, seat)
    who = "auditor" if seat is None else f"seat {seat}"
    lines = [f"{v['game']} {s.game_id} after seq {s.seq - 1} phase {s.phase} ({who})  "
             f"S={v['S'] or '-'} N={v['N']}"]
    mark = v.get("open_mark")
    if mark:
        extra = f", dark mark seat {v['dark_mark_seat']}" if s.four and \
            v.get("dark_mark_seat") is not None else ""
        lines.append(f"mark {mark['face']} at seat {mark['seat']}{extra}"
                     + (f", case {v['case']}" if v.get("case") else ""))
    for i in range(6):
        side = v["sides"][i] or "?"
        act = " <" if v["to_act"] == i else ""
        lines.append(f"  {i} {s.players[i]:<12} {side:<9} "
                     f"{v['hand_sizes'][i]:>2}: {_hand(v['hands'][i])}{act}")
    top = v["round"]["top"]
    if top:
        lines.append(f"top: seat {top['seat']} {' '.join(top['cards'])} ({top['combo']}), "
                     f"{v['round']['passes']} pass(es)")
    if v["result"]:
        r = v["result"]
        lines.append(f"result: {r['reason']}, {r['winning_side'] or 'nobody'} won, "
                     f"W={r['W']}, scores {r['scores']}")
    return "\n".join(lines)
