"""players_list against counts made by hand from the events (the players of GAME_START, the
outcomes of the game's final view, the start time of each game), never from the same SQL."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from engine.games import find_game
from engine.replay import Replay
from warehouse import queries as q
from warehouse.db import reader


def _hand_counts(games, search: str = ""):
    """(player, game) -> {games, wins, losses, draws, score, last_seen} over these games."""
    out: dict[tuple[str, str], Counter] = {}
    last: dict[tuple[str, str], datetime] = {}
    for events in games:
        rp = Replay(events)
        game = events[0].game_id.split("-")[0]
        outcomes = find_game(game).view(rp.final, None)["outcomes"]
        when = datetime.fromtimestamp(events[0].ts / 1e6, UTC)
        for player, o in zip(rp.final.players, outcomes, strict=True):
            if search.lower() not in player.lower():
                continue
            key = (player, game)
            c = out.setdefault(key, Counter())
            c["games"] += 1
            c[{"win": "wins", "loss": "losses", "draw": "draws"}[o["result"]]] += 1
            c["score"] += o["score"]
            last[key] = max(last.get(key, when), when)
    return {k: {"games": c["games"], "wins": c["wins"], "losses": c["losses"],
                "draws": c["draws"], "score": c["score"], "last_seen": last[k]}
            for k, c in out.items()}


def _rows(table):
    got = {}
    for r in table.to_pylist():
        decided = r["wins"] + r["losses"]
        assert r["decided"] == decided
        assert r["win_rate"] == (pytest.approx(r["wins"] / decided) if decided else None)
        assert r["score_mean"] == pytest.approx(r["score"] / r["games"])
        got[(r["player_id"], r["game"])] = {
            "games": r["games"], "wins": r["wins"], "losses": r["losses"], "draws": r["draws"],
            "score": r["score"], "last_seen": r["last_seen"].astimezone(UTC)}
    return got


@pytest.fixture
def mixed(mixed_wh):
    with reader(mixed_wh) as c:
        yield c


def test_every_player_with_hand_counts(mixed, corpus, gouji_corpus):
    table = q.players_list(mixed)
    assert table.column_names == ["player_id", "game", "games", "wins", "losses", "draws",
                                  "decided", "win_rate", "score", "score_mean", "score_sd",
                                  "last_seen"]
    assert _rows(table) == _hand_counts([*corpus, *gouji_corpus])
    games = table.column("games").to_pylist()
    assert games == sorted(games, reverse=True)          # most games first


def test_filter_by_game(mixed, corpus, gouji_corpus):
    assert _rows(q.players_list(mixed, "keng")) == _hand_counts(corpus)
    assert _rows(q.players_list(mixed, "gouji")) == _hand_counts(gouji_corpus)
    assert q.players_list(mixed, "no-such-game").num_rows == 0


def test_search_is_a_parameter_not_sql(mixed, corpus, gouji_corpus):
    everyone = _hand_counts([*corpus, *gouji_corpus])
    some = next(iter(everyone))[0]
    part = some[2:6].upper()                              # case-insensitive substring
    want = _hand_counts([*corpus, *gouji_corpus], part)
    assert some in {p for p, _ in want} and _rows(q.players_list(mixed, None, part)) == want
    assert _rows(q.players_list(mixed, "gouji", part)) == _hand_counts(gouji_corpus, part)
    assert q.players_list(mixed, None, "' OR 1=1 --").num_rows == 0
    assert q.players_list(mixed, None, "%").num_rows == 0   # no LIKE wildcard either
    assert _rows(q.players_list(mixed, None, "")) == everyone
