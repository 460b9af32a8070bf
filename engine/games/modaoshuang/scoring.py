"""摸到爽 settlement (MDS-37 to MDS-39) and the 点炮 seat (MDS-35)."""

from __future__ import annotations

from typing import NamedTuple


class Settlement(NamedTuple):
    """Per seat: base loss (MDS-37), payment (MDS-38) and score (MDS-39); the winner's base
    loss and payment are 0."""

    base_losses: tuple[int, ...]
    payments: tuple[int, ...]
    scores: tuple[int, ...]


def settle(face_sums: tuple[int, ...], winner: int, dianpao: int, mode: str) -> Settlement:
    """Settle a game: face sums left per seat, the winner, the 点炮 seat (-1 none) and the
    scoring mode ``negative`` or ``chips``."""
    base = [2 * x for x in face_sums]
    base[winner] = 0
    if dianpao < 0:
        pay = list(base)
    else:
        pay = [b // 2 for b in base]
        pay[dianpao] = base[dianpao] + sum(pay) - pay[dianpao]
    total = sum(pay)
    scores = [-x for x in pay]
    scores[winner] = total if mode == "chips" else 0
    return Settlement(tuple(base), tuple(pay), tuple(scores))


def dianpao_seat(table_seats: tuple[int, ...], winner: int, round_no: int, mode: str) -> int:
    """MDS-35: the 点炮 seat of a game won by ``winner`` in a round whose plays (so far) came
    from ``table_seats``: none in round 1 (the suit draw set the suit) or if the winner led;
    else the leader (``leader``) or the seat that played just before the winner
    (``preceding``)."""
    i = table_seats.index(winner)
    if round_no == 1 or i == 0:
        return -1
    return table_seats[0] if mode == "leader" else table_seats[i - 1]
