"""The 扑克六湖 table as terminal text (``liujia replay``), from a seat's view or the
auditor's: hands, melds face up, the pool in order, the wall size, the open window."""

from __future__ import annotations

from engine.games.liuhu.info import view
from engine.games.liuhu.state import LhState


def _hand(h: object) -> str:
    return " ".join(h) if isinstance(h, list) else f"[{h} cards]"


def render(s: LhState, seat: int | None = None) -> str:
    """The table at this state as the seat (None: the auditor) saw it."""
    v = view(s, seat)
    who = "auditor" if seat is None else f"seat {seat}"
    lines = [f"liuhu {s.game_id} hand {v['hand']}/{s.options.hands} seq {s.seq} "
             f"phase {v['phase']} ({who})  dealer {v['dealer']} dice {v['dice']} "
             f"wall {v['wall_size']}"]
    for i in range(6):
        melds = "  ".join(f"{m['kind']}[{' '.join(m['cards'])}]" for m in v["melds"][i])
        act = " <" if v["to_act"] == i else ""
        lines.append(f"  {i} {s.players[i]:<12} {v['balances'][i]:>6} "
                     f"{v['hand_sizes'][i]:>2}: {_hand(v['hands'][i])}"
                     f"{'  | ' + melds if melds else ''}{act}")
    if v["pool"]:
        lines.append("pool: " + " ".join(f"{p['card']}({p['seat']})" for p in v["pool"]))
    w = v["window"]
    if w:
        lines.append(f"window: {w['kind']} {w['card']} from seat {w['from']}")
    for win in v["wins"]:
        lines.append(f"hu: seat {win['seat']} {win['type']} total {win['total']}")
    r = v["result"]
    if r:
        lines.append(f"result: {r['reason']}, changes {r['changes']}, balances "
                     f"{r['balances']}, next dealer {r['next_dealer']}")
    return "\n".join(lines)
