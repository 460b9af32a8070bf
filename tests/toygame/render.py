"""A terminal rendering of a 小墩 table from one seat's view or the auditor's (plain text)."""

from __future__ import annotations

from typing import Any

from engine.cards import parse_face, pretty_face
from tests.toygame.position import view
from tests.toygame.state import ToyState


def safe_text(text: str) -> str:
    """Text with every non-printable character escaped (player ids are untrusted)."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))


def _hand(h: Any) -> str:
    if isinstance(h, int):
        return f"{h} cards (hidden)"
    return f"{len(h):2d}: {' '.join(pretty_face(parse_face(f)) for f in h) or '-'}"


def render(s: ToyState, seat: int | None = None) -> str:
    """Multi-line text of the table at this state, as seen by seat (None: auditor)."""
    v = view(s, seat)
    who = "auditor (all cards)" if seat is None else f"seat {seat}"
    lines = [f"小墩 {safe_text(s.game_id)}  after seq {s.seq - 1}  view: {who}  "
             f"phase: {v['phase']}",
             f"trick {v['trick_no'] + 1}  leader seat {v['leader']}  stock {v['stock_size']}",
             "table: " + ("  ".join(f"seat {p['seat']} {pretty_face(parse_face(p['card']))}"
                                    for p in v["trick"]) or "-")]
    for i, h in enumerate(v["hands"]):
        mark = "▶" if v["to_act"] == i else " "
        lines.append(f" {mark} seat {i} {safe_text(s.players[i]):>12}  tricks "
                     f"{v['tricks'][i]}  {_hand(h)}")
    if v["result"]:
        r = v["result"]
        won = "draw" if r["draw"] else "won by seat(s) " + ", ".join(map(str, r["winners"]))
        lines.append(f"result: scores {r['scores']}, {won}")
    return "\n".join(lines)
