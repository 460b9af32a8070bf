"""A terminal rendering of a 摸到爽 table from one seat's view or the auditor's (plain text)."""

from __future__ import annotations

from typing import Any

from engine.cards import parse_face, pretty_face
from engine.games.modaoshuang.position import view
from engine.games.modaoshuang.state import MdsState

SUIT_NAMES = {"s": "♠", "h": "♥", "c": "♣", "d": "♦", None: "-"}


def safe_text(text: str) -> str:
    """Text with every non-printable character escaped (player ids are untrusted)."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))


def _cards(fs: list[str]) -> str:
    return " ".join(pretty_face(parse_face(f)) for f in fs) or "-"


def _hand(h: Any) -> str:
    return f"{h} cards (hidden)" if isinstance(h, int) else f"{len(h):2d}: {_cards(h)}"


def _duties(v: dict[str, Any]) -> list[str]:
    out = []
    if v["report"]:
        r = v["report"]
        out.append(f"report due: seat {r['seat']} must announce {r['count']} card(s) before "
                   "the next card is played")
    for m in v["missed_reports"]:
        out.append(f"missed report owed: seat {m['seat']} ({m['cause']})")
    if v["penalty"]:
        p = v["penalty"]
        what = (f"{p['draws_left']} draw(s) left" if p["kind"] == "draws"
                else f"gifts from seats {', '.join(map(str, p['gift_seats']))}")
        out.append(f"penalty: seat {p['seat']} ({p['cause']}): {what}")
    if v["out_pending"] is not None:
        out.append(f"seat {v['out_pending']} emptied its hand with a violation: out if the "
                   "penalty leaves it no card")
    return out


def render(s: MdsState, seat: int | None = None) -> str:
    """Multi-line text of the table at this state, as seen by seat (None: auditor)."""
    v = view(s, seat)
    who = "auditor (all cards)" if seat is None else f"seat {seat}"
    stage = "收到爽" if v["shoudaoshuang"] else "摸牌"
    if v["final_round"]:
        stage = "final round"
    lines = [f"摸到爽 {safe_text(s.game_id)}  after seq {s.seq - 1}  view: {who}  "
             f"phase: {v['phase']} ({stage})"]
    r = v["round"]
    sd = v["suit_draw"]
    drawn = f" (drew {_cards(sd['cards'])})" if sd.get("cards") else ""
    lines.append(f"round {r['number']}  suit {SUIT_NAMES[r['suit']]}  leader seat {r['leader']}"
                 f"  collector {'-' if r['collector'] is None else 'seat ' + str(r['collector'])}"
                 f"  stock {v['stock_size']}  dead {v['dead_count']}  "
                 f"suit draw {SUIT_NAMES[sd['suit']]} by seat {sd['drawer']}{drawn}")
    plays = "  ".join(f"seat {p['seat']} {pretty_face(parse_face(p['card']))}"
                      for p in r["plays"])
    lines.append(f"table: {plays or '-'}")
    for i, h in enumerate(v["hands"]):
        mark = "▶" if v["to_act"] == i else " "
        flag = "  (winner)" if v["winner"] == i else ""
        lines.append(f" {mark} seat {i} {safe_text(s.players[i]):>12}  {_hand(h)}{flag}")
    lines.extend(_duties(v))
    if v["result"]:
        res = v["result"]
        dp = res["dianpao"]
        lines.append(f"result: seat {res['winner']} wins, 点炮 {'-' if dp is None else dp}, "
                     f"scores {res['scores']} ({res['settlement']})")
    return "\n".join(lines)
