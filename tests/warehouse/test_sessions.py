"""warehouse.sessions against totals computed from the logs alone (tests/sessions_corpus.py):
twelve seeded 六人坑 games in three sessions of four — two won by a team (three players tied
at the top), one where every player ends level — and two games without a session id, which
are counted, never listed; the filters (player, game type, days and moments), newest first,
the limit's 'more' flag, one session's running totals, a player who sat in part of a session."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime

import duckdb
import pytest

from tests.sessions_corpus import LOOSE, build, expected
from warehouse.db import connect, reader
from warehouse.sessions import (
    SessionFilter,
    games_without_session,
    session_detail,
    session_view,
    sessions_list,
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("sessions")
    db = build(root)
    return db, expected(root / "logs")


_READERS: dict[str, duckdb.DuckDBPyConnection] = {}


@pytest.fixture(scope="module", autouse=True)
def _close_readers():
    """The module's read-only connections (``_listed``), closed after its last test."""
    yield
    while _READERS:
        _READERS.popitem()[1].close()


def _listed(db, **kw):
    """sessions_list under these filters, on one read-only connection per warehouse file
    (opening one costs ~7 times the query; the files are not written once listed)."""
    if str(db) not in _READERS:
        _READERS[str(db)] = connect(db, read_only=True)       # as reader() opens it
    return sessions_list(_READERS[str(db)], SessionFilter(**kw))


def _newest_first(want, ids):
    return sorted(ids, key=lambda s: (want["sessions"][s]["games"][0]["ts"], s), reverse=True)


def test_the_corpus_has_ties_and_a_level_session(corpus):
    _, want = corpus
    s = want["sessions"]
    assert len(s) == 3 and len(want["loose"]) == LOOSE
    assert any(v["level"] for v in s.values())
    assert any(len(v["winners"]) > 1 for v in s.values())


def test_totals_and_winners_are_the_logs(corpus):
    db, want = corpus
    rows, more = _listed(db)
    assert not more
    assert [r["session"] for r in rows] == _newest_first(want, want["sessions"])
    for r in rows:
        w = want["sessions"][r["session"]]
        assert r["game"] == "keng" and r["games"] == len(w["games"]) == 4
        assert {p["player_id"]: p["total"] for p in r["players"]} == w["totals"]
        assert all(p["games"] == 4 for p in r["players"]) and r["n_players"] == 6
        assert [p["total"] for p in r["players"]] == sorted(w["totals"].values(), reverse=True)
        assert r["winners"] == w["winners"] and r["level"] == w["level"]
        assert r["top_total"] == w["top"]
        first, last = w["games"][0], w["games"][-1]
        assert r["started"] == datetime.fromtimestamp(first["ts"] / 1e6, UTC)
        assert r["ended"] > datetime.fromtimestamp(last["ts"] / 1e6, UTC)


def test_games_without_a_session_are_left_out_and_counted(corpus):
    db, want = corpus
    rows, _ = _listed(db, limit=None)
    listed = {r["session"] for r in rows}
    assert None not in listed and "" not in listed
    loose_ids = {g["game_id"] for g in want["loose"]}
    with reader(db) as con:
        assert games_without_session(con, SessionFilter()) == LOOSE
        in_sessions = {r["game_id"] for s in listed for r in session_detail(con, s, "keng")}
        assert not loose_ids & in_sessions and len(in_sessions) == 12
        # the loose games are newer than every session: counted under a date filter too
        assert games_without_session(con, SessionFilter(since=datetime(2026, 1, 1, 19))) == LOOSE
        assert games_without_session(con, SessionFilter(player="player-05")) == LOOSE
        assert games_without_session(con, SessionFilter(game="gouji")) == 0


def test_filter_by_player(corpus):
    db, want = corpus
    players = {p for s in want["sessions"].values() for p in s["totals"]}
    for p in sorted(players):
        rows, _ = _listed(db, player=p)
        mine = [s for s, v in want["sessions"].items() if p in v["totals"]]
        assert [r["session"] for r in rows] == _newest_first(want, mine), p
    assert _listed(db, player="player-0") == ([], False)     # exact ids, not a search
    assert _listed(db, player="PLAYER-00") == ([], False)


def test_filter_by_game_type(corpus):
    db, want = corpus
    assert len(_listed(db, game="keng")[0]) == len(want["sessions"])
    assert _listed(db, game="gouji") == ([], False)


def _started_in(want, low_us, high_us):
    return [s for s, v in want["sessions"].items()
            if any(low_us <= g["ts"] < high_us for g in v["games"])]


def test_filter_by_dates(corpus):
    db, want = corpus
    us = 1_000_000
    day0 = int(datetime(2026, 1, 1, tzinfo=UTC).timestamp()) * us
    assert len(_listed(db, since=date(2026, 1, 1), until=date(2026, 1, 1))[0]) == 3
    assert _listed(db, since=date(2026, 1, 2)) == ([], False)
    assert _listed(db, until=date(2025, 12, 31)) == ([], False)
    for hour in range(0, 13):                 # a session with any game started in the range
        since = datetime(2026, 1, 1, hour, tzinfo=UTC)
        rows, _ = _listed(db, since=since)
        want_ids = _started_in(want, day0 + hour * 3600 * us, 2**62)
        assert [r["session"] for r in rows] == _newest_first(want, want_ids), hour
        rows, _ = _listed(db, until=since)
        want_ids = _started_in(want, 0, day0 + hour * 3600 * us + 1)
        assert [r["session"] for r in rows] == _newest_first(want, want_ids), hour
    # a session is listed whole: its totals are not cut by the range
    (row,), _ = _listed(db, since=datetime(2026, 1, 1, 7, tzinfo=UTC),
                        until=datetime(2026, 1, 1, 7, tzinfo=UTC))
    assert row["games"] == 4 and row["players"][0]["total"] == want["sessions"][
        row["session"]]["top"]


def test_limit_and_more(corpus):
    db, want = corpus
    order = _newest_first(want, want["sessions"])
    for limit in (1, 2):
        rows, more = _listed(db, limit=limit)
        assert [r["session"] for r in rows] == order[:limit] and more
    assert _listed(db, limit=3)[1] is False
    assert len(_listed(db, limit=None)[0]) == 3
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ValueError, match="limit"):
            SessionFilter(limit=bad)
    with pytest.raises(ValueError, match="since"):
        SessionFilter(since="2026-01-01")                    # type: ignore[arg-type]


def test_one_sessions_running_totals(corpus):
    db, want = corpus
    with reader(db) as con:
        for sid, w in want["sessions"].items():
            rows = session_detail(con, sid, "keng")
            assert len(rows) == 4 * 6
            running: dict[str, int] = {}
            for i, g in enumerate(w["games"], start=1):
                mine = [r for r in rows if r["n"] == i]
                assert {r["game_id"] for r in mine} == {g["game_id"]}
                assert [r["player_id"] for r in mine] == g["players"]
                for r, p, s in zip(mine, g["players"], g["scores"], strict=True):
                    running[p] = running.get(p, 0) + s
                    assert (r["score"], r["total"]) == (s, running[p]), (sid, i, p)
                    assert r["result"] == ("win" if s > 0 else "loss" if s < 0 else "draw")
            assert running == w["totals"]
            view = session_view(con, sid)
            assert view["types"] == ["keng"] and view["game"] == "keng"
            assert view["summary"]["winners"] == w["winners"] and view["games"] == rows
        assert session_view(con, "no-such-session") == {
            "types": [], "game": None, "summary": None, "games": []}
        assert session_view(con, next(iter(want["sessions"])), "gouji")["game"] == "keng"
        assert session_detail(con, "no-such-session", "keng") == []


def test_a_player_who_sat_in_part_of_a_session(corpus, tmp_path):
    """Seats may change hands within a session (another program's logs): each player's total
    is over the games the player sat in, and the player is named with that number."""
    db, want = corpus
    copy = tmp_path / "w.duckdb"
    shutil.copy(db, copy)
    sid = next(s for s, v in want["sessions"].items() if v["winners"])
    last = want["sessions"][sid]["games"][-1]
    leaver = last["players"][0]
    con = duckdb.connect(str(copy))
    con.execute("UPDATE seats SET player_id = 'player-new' WHERE game_id = ? AND seat = 0",
                [last["game_id"]])
    con.close()
    (row,) = [r for r in _listed(copy, limit=None)[0] if r["session"] == sid]
    got = {p["player_id"]: (p["games"], p["total"]) for p in row["players"]}
    assert row["n_players"] == 7 and got["player-new"] == (1, last["scores"][0])
    assert got[leaver] == (3, want["sessions"][sid]["totals"][leaver] - last["scores"][0])
    assert [r["session"] for r in _listed(copy, player="player-new")[0]] == [sid]
