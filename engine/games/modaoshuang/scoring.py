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
    n = len(face_sums)
    base = tuple(0 if i == winner else 2 * face_sums[i] for i in range(n))
    if dianpao < 0:
        pay = base
    else:
        halves = sum(base[i] // 2 for i in range(n) if i not in (winner, dianpao))
        pay = tuple(0 if i == winner else base[i] + halves if i == dianpao else base[i] // 2
                    for i in range(n))
    total = sum(pay)
    if mode == "chips":
        scores = tuple(total if i == winner else -pay[i] for i in range(n))
    else:
        scores = tuple(0 if i == winner else -pay[i] for i in range(n))
    return Settlement(base, pay, scores)


def dianpao_seat(table_seats: tuple[int, ...], winner: int, round_no: int, mode: str) -> int:
    """MDS-35: the 点炮 seat of a game won by ``winner`` in a round whose plays (so far) came
    from ``table_seats``: none in round 1 (the suit draw set the suit) or if the winner led;
    else the leader (``leader``) or the seat that played just before the winner
    (``preceding``)."""
    i = table_seats.index(winner)
    if round_no == 1 or i == 0:
        return -1
    return table_seats[0] if mode == "leader" else table_seats[i - 1]
