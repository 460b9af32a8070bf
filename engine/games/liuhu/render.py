"""The 扑克六湖 table as terminal text (``liujia replay``), from a seat's view or the
auditor's: hands, melds face up, the pool in order, the wall size, the open window."""

from __future__ import annotations

from engine.games.liuhu.info import view
from engine.games.liuhu.state import LhState


def _hand(h: object) -> str:
    return " ".join(h) if isinstance(h, list) else f"[{h} cards]"


def _meld(m: dict) -> str:
    """A meld face up, with the claimed card and its seat (LH-69)."""
    took = f" took {m['card']} from {m['from']}" if m.get("from") is not None else ""
    return f"{m['kind']}[{' '.join(m['cards'])}]{took}"


def _part(kind: str, part: dict) -> str:
    """One group or the pair of a split: kind, cards (RJ as the faces chosen), value."""
    wild = f" RJ as {' '.join(part['wild'])}" if part.get("wild") else ""
    marks = "".join((" exposed" if part.get("exposed") else "",
                     " meld" if part.get("meld") else "",
                     " *winning card*" if part.get("holds_winning") else ""))
    return f"    {kind:<9} {' '.join(part['cards'])}{wild}{marks}  {part['value']} hu"


def _win_lines(win: dict) -> list[str]:
    """A 胡 with its recorded split and total (public at a win, LH-69)."""
    card = f" on {win['card']}" if win.get("card") else ""
    payer = f" paid by seat {win['payer']}" if win.get("payer") is not None else ""
    split = win.get("split") or {}
    out = [f"hu: seat {win['seat']} {win['type']}{card}{payer} total {win['total']}"]
    out += [_part(g["kind"], g) for g in split.get("groups", [])]
    if split.get("pair"):
        out.append(_part("pair", split["pair"]))
    if split:
        out.append(f"    bonus {split.get('bonus', 0)}, total {split.get('total')}")
    return out


def render(s: LhState, seat: int | None = None) -> str:
    """The table at this state as the seat (None: the auditor) saw it."""
    v = view(s, seat)
    who = "auditor" if seat is None else f"seat {seat}"
    # a seat counts only the events it saw happen (LH-70), the auditor the log's seqs
    at = f"after seq {s.seq - 1}" if seat is None else f"after its event {v['seq'] - 1}"
    lines = [f"liuhu {s.game_id} hand {v['hand']}/{s.options.hands} {at} "
             f"phase {v['phase']} ({who})  dealer {v['dealer']} dice {v['dice']} "
             f"wall {v['wall_size']}"]
    for i in range(6):
        melds = "  ".join(_meld(m) for m in v["melds"][i])
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
        lines.extend(_win_lines(win))
    r = v["result"]
    if r:
        lines.append(f"result: {r['reason']}, changes {r['changes']}, balances "
                     f"{r['balances']}, next dealer {r['next_dealer']}")
    return "\n".join(lines)
