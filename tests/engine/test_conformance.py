"""The conformance suite: seeded random playouts of every registered game, checked at every step.

Checks (STYLE.md): legal actions exist unless the game is over; every listed action passes
``check``; ``apply`` never mutates its input; each face's count is conserved; replaying the log
reproduces the live state and result; an Arrow write/read round trip keeps events and digests;
every game ends under the game's end conditions; the result functions agree with each other;
sessions start from ``session_start`` and pass ``check_session``.

What differs between games (where the cards lie, how a game may end, which event kinds
self-play must reach, which options to try) lives in ``ADAPTERS`` and ``OPTION_SETS``; a
registered game missing from either fails the suite.
"""

from __future__ import annotations

import collections
import random

import pytest

from engine.events import seal_events
from engine.games import GAMES, find_game, missing_names
from engine.log import read_log, write_log
from engine.replay import Replay, validate_events
from engine.sim import policy

OPTION_SETS = {
    "keng": [
        {},
        {"keng_hand_size": 8, "keng_hand_limit": 18, "keng_tens": False,
         "keng_black_jokers": 6, "keng_red_jokers": 6, "keng_rj_stack_value": 4,
         "keng_k_on_rj": True, "keng_pair_action": "once", "keng_draw_when_able": True},
        {"keng_hand_size": 6, "keng_hand_limit": 32, "keng_black_jokers": 4,
         "keng_red_jokers": 5},
    ],
    "gouji": [
        {},
        {"kaidian_effect": "record", "men_scope": "threes_only", "judged_counts_as_out": False},
        {"kaidian_effect": "record"},
    ],
}
# Random-bot games per option set (greedy plays half as many). 够级 games are long and a lead
# lists hundreds of plays, each checked here: its sessions are covered at length in
# tests/games/gouji/test_conformance_sessions.py.
GAMES_PER_SET = {"keng": 70, "gouji": 10}


class KengAdapter:
    """六人坑 specifics of the suite: where the cards are, how a game may end, what self-play
    must reach."""

    required_kinds = ("PLAY", "ACCEPT", "DRAW", "PASS", "DUEL_START", "DUEL_PLAY", "DUEL_END",
                      "SNATCH", "LAST_CARD", "REPORT_PENALTY", "COUNT", "RESHUFFLE")

    @staticmethod
    def face_counts(s):
        """Every card's face in stock, table, top play and hands; None during the deal (the
        deck is dealt one event per seat, so the cards are not all placed yet)."""
        if s.phase == "deal":
            return None
        c = collections.Counter(s.stock)
        c.update(s.table)
        c.update(s.top)
        for h in s.hands:
            c.update(h)
        return c

    @staticmethod
    def assert_end(s, gid):
        """KENG-46 to KENG-49: out, over the limit, or a stalemate without a winner."""
        r = s.result
        assert r["reason"] in ("out", "over_limit", "stalemate"), gid
        seat = r["deciding_seat"]
        if r["reason"] == "out":
            assert s.hands[seat] == () and r["winning_team"] == ("even", "odd")[seat % 2]
        elif r["reason"] == "over_limit":
            assert len(s.hands[seat]) > s.options.keng_hand_limit
            assert r["winning_team"] == ("even", "odd")[1 - seat % 2]
        else:
            assert r["winning_team"] is None and not s.stock and not s.table


class GoujiAdapter:
    """够级 specifics: the cards are in the hands and the played cards once dealt; a game ends
    with six distinct positions and opposite team totals (GJ-31, GJ-32)."""

    required_kinds = ("CUT", "DIRECTION", "DEAL", "PLAY", "PASS", "RANG", "ROUND_END", "OUT",
                      "PHASE_OPEN", "GAME_END", "XUANDIAN", "HEDIAN")

    @staticmethod
    def face_counts(s):
        """Hands (dead cards included) and played cards; None before the deal."""
        if s.stage in ("cut", "direction", "deal"):
            return None
        from engine.games.gouji.cards import PACK
        c = collections.Counter(s.played)
        for h in s.hands:
            c.update(h)
        assert c == collections.Counter(PACK)
        return c

    @staticmethod
    def assert_end(s, gid):
        """GJ-31 to GJ-33: six distinct positions, points by position, opposite team totals."""
        r = s.result
        assert sorted(r["positions"]) == [1, 2, 3, 4, 5, 6], gid
        assert r["points"] == [(0, 2, 1, 0, 0, -1, -2)[p] for p in r["positions"]], gid
        assert r["team_totals"]["even"] == -r["team_totals"]["odd"], gid
        assert r["next_starter"] == r["positions"].index(6), gid


# Per-game specifics: face_counts(state) -> Counter | None (every face where it lies; None: not
# checked at this state; the counts must equal the GAME_START cards, or, when that event holds
# none, the first counts given), assert_end(final_state, gid), required_kinds (event kinds
# random self-play must produce).
ADAPTERS = {"keng": KengAdapter, "gouji": GoujiAdapter}


def _adapter(game):
    assert game in ADAPTERS, f"{game}: add a conformance adapter to ADAPTERS"
    assert OPTION_SETS.get(game), f"{game}: add its option sets to OPTION_SETS"
    return ADAPTERS[game]


def test_every_registered_game_has_conformance_data():
    assert set(OPTION_SETS) == set(GAMES), "OPTION_SETS must cover exactly the registered games"
    assert set(ADAPTERS) == set(GAMES), "ADAPTERS must cover exactly the registered games"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_game_module_interface(game):
    g = find_game(game)
    assert missing_names(g) == [], f"{game} lacks part of engine.games.INTERFACE"
    assert g.GAME_ID == game
    assert isinstance(g.TITLE, str) and g.TITLE
    assert isinstance(g.RULE_PREFIX, str) and g.RULE_PREFIX.isupper()
    assert {g.team_of(seat) for seat in range(6)} == {"even", "odd"}
    assert all(g.team_of(seat) == g.team_of(seat + 2) for seat in range(4))
    for name in ("random", "greedy"):
        assert policy(game, name) is not None


def _playout(g, adapter, gid, seed, opts, pol):
    rng = random.Random(seed)
    e0 = g.start_event(gid, [f"p{i}" for i in range(6)], rng, g.Options(**opts))
    s = g.initial_state(e0)
    deck = collections.Counter(e0.cards) or None   # else: the first counts the adapter gives
    events = [e0]
    while not g.is_over(s):
        actions = g.legal_actions(s)
        assert actions, f"{gid} seq {s.seq}: no legal action in an unfinished game"
        before = s.copy()
        for a in actions:
            g.check(s, a)
        assert s == before, f"{gid} seq {s.seq}: check changed its input"
        a = g.auto_event(s, rng)
        if a is None:
            a = pol.choose(s, rng)
        new = g.apply(s, a)
        assert s == before, f"{gid} seq {s.seq}: apply changed its input"
        counts = adapter.face_counts(new)
        if counts is not None:
            deck = deck or counts
            assert counts == deck, f"{gid} seq {s.seq}: cards not conserved"
        events.append(a)
        s = new
    assert g.legal_actions(s) == []
    return seal_events(events), s


def _assert_result(g, s, gid):
    """The generic result functions agree on a finished game: the winning team is the team
    with the higher total score, and there is none when the totals are equal."""
    scores = g.scores(s)
    win = g.winning_team(s)
    assert len(scores) == 6 and all(isinstance(x, int) for x in scores), gid
    assert win in ("even", "odd", None), gid
    assert isinstance(g.result(s), dict), gid
    totals = collections.Counter()
    for seat, x in enumerate(scores):
        totals[g.team_of(seat)] += x
    if win is None:
        assert totals["even"] == totals["odd"], gid
    else:
        lose = "odd" if win == "even" else "even"
        assert totals[win] > totals[lose], gid


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("policy_name", ["random", "greedy"])
def test_conformance(game, policy_name, tmp_path):
    g = find_game(game)
    adapter = _adapter(game)
    pol = policy(game, policy_name)
    games, finals = [], []
    kinds = collections.Counter()
    n = GAMES_PER_SET[game] if policy_name == "random" else GAMES_PER_SET[game] // 2
    for k, opts in enumerate(OPTION_SETS[game]):
        for i in range(n):
            gid = f"{game}-{policy_name}-{k}-{i}"
            events, final = _playout(g, adapter, gid, 1000 * k + i, opts, pol)
            adapter.assert_end(final, gid)
            _assert_result(g, final, gid)
            games.append(events)
            finals.append(final)
            kinds.update(e.kind for e in events)
    path = tmp_path / "conformance.arrows"
    write_log(path, games)
    log = read_log(path)
    assert log.ok
    assert [x.events for x in log.games] == games
    for events, final in zip(games, finals, strict=True):
        v = validate_events(events)
        assert v.status == "ok", v.to_json()
        assert v.state == final
        assert g.result(v.state) == g.result(final)
        rep = Replay(events)
        assert rep.final == final
    if policy_name == "random":
        for kind in adapter.required_kinds:
            assert kinds[kind] > 0, f"self-play never produced {kind}: coverage is too thin"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_sessions_follow_session_start(game):
    """simulate() starts each later game of a session from the game's session_start, and the
    game's check_session accepts what it made."""
    from engine.sim import simulate
    g = find_game(game)
    games = list(simulate(game, 6, seed=5, session_games=3))
    for i, sim in enumerate(games):
        if i % 3:
            assert g.check_session(sim.events[0], games[i - 1].final) is None
            assert isinstance(g.session_start(games[i - 1].final), dict)


def test_same_seed_same_bytes(tmp_path):
    from engine.sim import simulate
    a = [g.events for g in simulate("keng", 12, seed=99)]
    b = [g.events for g in simulate("keng", 12, seed=99)]
    c = [g.events for g in simulate("keng", 12, seed=100)]
    write_log(tmp_path / "a.arrows", a)
    write_log(tmp_path / "b.arrows", b)
    write_log(tmp_path / "c.arrows", c)
    assert (tmp_path / "a.arrows").read_bytes() == (tmp_path / "b.arrows").read_bytes()
    assert (tmp_path / "a.arrows").read_bytes() != (tmp_path / "c.arrows").read_bytes()
