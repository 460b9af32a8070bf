"""A player's record of a game type told in that game's words (``Game.record_words``): the
headline rate (wins over decided games, or over all games where most seats of a game neither
win nor lose) with its 95% Wilson interval and n, and the net score per game with its 95%
interval — each figure per game type, never pooled across unlike games."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from engine.games import GAMES, find_game
from engine.games.frame import GAME_RECORD, RecordWords
from warehouse.tendencies import Z95, wilson

MIN_SCORE_GAMES = 2       # a score interval needs a standard deviation


def words(game: str) -> RecordWords:
    """The record words of a game type (the default words for an unregistered id)."""
    return find_game(game).record_words if game in GAMES else GAME_RECORD


class Headline(NamedTuple):
    """A game type's headline rate: the rate (None without a game in its n), n, the 95%
    Wilson bounds, and its name."""

    rate: float | None
    n: int
    low: float | None
    high: float | None
    name: str


def headline(game: str, wins: int, losses: int, games: int) -> Headline:
    """The headline rate of a record in its game's words (``RecordWords.rate_over``)."""
    w = words(game)
    n = games if w.rate_over == "games" else wins + losses
    if n <= 0:
        return Headline(None, 0, None, None, w.rate)
    low, high = wilson(wins, n)
    return Headline(wins / n, n, low, high, w.rate)


def score_interval(mean: float | None, sd: float | None, n: int) -> tuple[float, float] | None:
    """The 95% normal interval of a mean score per game (None under MIN_SCORE_GAMES games or
    without a standard deviation)."""
    if mean is None or sd is None or n < MIN_SCORE_GAMES or math.isnan(sd):
        return None
    half = Z95 * sd / math.sqrt(n)
    return mean - half, mean + half


def with_headline(row: dict[str, Any]) -> dict[str, Any]:
    """A players_list row (game, games, wins, losses, score_mean, score_sd …) with ``rate``,
    ``rate_n``, ``rate_low``, ``rate_high``, ``rate_name`` and ``score_low``/``score_high``."""
    h = headline(row["game"], row["wins"], row["losses"], row["games"])
    band = score_interval(row.get("score_mean"), row.get("score_sd"), row["games"])
    return {**row, "rate": h.rate, "rate_n": h.n, "rate_low": h.low, "rate_high": h.high,
            "rate_name": h.name, "score_low": None if band is None else band[0],
            "score_high": None if band is None else band[1]}
