"""Decision points agree with the engine: for every registered game, over seeded self-play of
each of its conformance option sets, the categories a decision lists are exactly the categories
of the seat's legal actions at that point (``action_category`` over ``legal_actions``); standing
options are taken or lapse only where they were legal; the collector keeps the rows of accepted
games only and builds the table of ``DECISIONS_ARROW``."""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict

import pyarrow as pa
import pytest

from engine import decisions as D
from engine.errors import EngineError
from engine.events import seal_events
from engine.games import GAMES, find_game
from engine.games.base import DecisionHooks, Game
from engine.sim import simulate

# Per game, in its CONFORMANCE data: "decision_games", games per (option set, policy), enough
# for every category to be chosen at least once; "rare_decisions", the categories the bots
# rarely choose (checked on positions in tests/games/<package>/test_decisions.py; for a
# 六人斗地主 variant, the categories of the other variants' choices it does not have).


def _corpus(game: str) -> list[list]:
    g = find_game(game)
    out = []
    for i, opts in enumerate(g.CONFORMANCE["option_sets"]):
        for policy in ("random", "greedy"):
            n = g.CONFORMANCE["decision_games"] // (2 if policy == "greedy" else 1)
            out += [x.events for x in simulate(game, n, seed=700 + i, policy_name=policy,
                                                options=g.Options(**opts), session_games=4)]
    return out


@pytest.fixture(scope="module", params=sorted(GAMES))
def corpus(request) -> tuple[str, list[list]]:
    """A seeded self-play corpus of one registered game over its conformance option sets."""
    return request.param, _corpus(request.param)


def _categories(dm, s, legal) -> dict[int, set[str]]:
    by_seat: dict[int, set[str]] = defaultdict(set)
    for a in legal:
        c = dm.action_category(s, a)
        if c is not None:
            by_seat[a.seat].add(c)
    return by_seat


def _check_seat_event(dm, s, e, d, by_seat) -> None:
    """A seat's event: its decision lists exactly the categories of its legal turn actions."""
    chosen = dm.action_category(s, e)
    if chosen in dm.STANDING:
        assert d is not None and d.seat == e.seat, e.describe()
        assert (d.options, d.chosen) == ({chosen, dm.STANDING[chosen]}, chosen)
        return
    if chosen is None:
        assert d is None, e.describe()
        return
    turn = by_seat[e.seat] - set(dm.STANDING)
    assert chosen in turn, (e.describe(), turn)
    if len(turn) < 2:
        assert d is None, e.describe()
        return
    assert d is not None, (e.describe(), turn)
    assert (d.seat, d.options, d.chosen) == (e.seat, turn, chosen), (e.describe(), d, turn)


def check_game(game: str, events: list) -> Counter:
    """Replay one game checking every decision against legal_actions; returns the chosen
    categories counted."""
    g, dm = find_game(game), D.decisions_module(game)
    lapse_of = {v: k for k, v in dm.STANDING.items()}
    tags = {t for t, _ in dm.TAGS}
    s = g.initial_state(events[0])
    last: dict[int, set[str]] = {}
    seen: Counter = Counter()
    for e in events[1:]:
        d, lapsed = dm.decision(s, e), dm.lapsed(s, e)
        if g.next_auto(s) is not None:
            assert not lapsed
            if d is not None:           # a missed report: the engine's penalty records it
                take = lapse_of[d.chosen]
                assert d.options == {take, d.chosen} and take in last[d.seat], e.describe()
        else:
            last = _categories(dm, s, g.legal_actions(s))
            _check_seat_event(dm, s, e, d, last)
            for x in lapsed:
                assert x.options == {lapse_of[x.chosen], x.chosen}
                assert lapse_of[x.chosen] in last[x.seat], (e.describe(), x)
        for x in ((d,) if d is not None else ()) + lapsed:
            assert x.chosen in x.options and x.hand >= 0 and x.phase in dm.PHASES
            assert set(x.tags) <= tags and len(set(x.tags)) == len(x.tags), x
            seen[x.chosen] += 1
        g.step(s, e)
    return seen


def test_every_registered_game_has_a_complete_decisions_module():
    for game in GAMES:
        dm = D.decisions_module(game)
        assert isinstance(dm, DecisionHooks) and dm is find_game(game).decisions, game
        names = [c for c, _ in dm.DECISIONS]
        assert len(names) == len(set(names)) >= 6, game
        assert all(desc and f"{find_game(game).RULE_PREFIX}-" in desc for _, desc in dm.DECISIONS)
        assert set(dm.STANDING) | set(dm.STANDING.values()) <= set(names), game


def test_a_game_cannot_be_declared_without_decisions(monkeypatch):
    """Decision hooks are a required field of a declared game: a game without them is refused
    where it is declared, not found missing while a log is ingested."""
    parts = {f.name: getattr(find_game("keng"), f.name) for f in dataclasses.fields(Game)}
    del parts["decisions"]
    with pytest.raises(TypeError, match="decisions"):
        Game(**parts)
    monkeypatch.setitem(GAMES, "toy_a", "tests.engine.variant_pkg:a")
    assert D.decisions_module("toy_a") is find_game("keng").decisions
    with pytest.raises(EngineError, match="unknown game"):
        D.decisions_module("not-a-game")
    events = next(iter(simulate("keng", 1, seed=2))).events
    start = events[0]._replace(payload=events[0].payload.replace('"keng"', '"nope"', 1))
    with pytest.raises(EngineError, match="unknown game"):
        D.DecisionCollector().begin(start)


def test_decisions_agree_with_legal_actions(corpus):
    game, games = corpus
    seen: Counter = Counter()
    for events in games:
        seen += check_game(game, events)
    names = {c for c, _ in D.decisions_module(game).DECISIONS}
    assert names - set(find_game(game).CONFORMANCE.get("rare_decisions", ())) <= set(seen), names - set(seen)


def test_collector_rows_match_the_hook(corpus):
    game, games = corpus
    t = D.decisions_of_games(games[:3])
    assert t.schema.equals(D.DECISIONS_ARROW)
    dm, g = D.decisions_module(game), find_game(game)
    want = 0
    for events in games[:3]:
        s = g.initial_state(events[0])
        for e in events[1:]:
            want += (dm.decision(s, e) is not None) + len(dm.lapsed(s, e))
            g.step(s, e)
    assert t.num_rows == want > 0
    rows = t.to_pylist()
    assert {r["game"] for r in rows} == {game}
    assert all(r["chosen"] in r["options"] and r["options"] == sorted(r["options"])
               for r in rows)
    assert {r["top_relation"] for r in rows} <= set(D.RELATIONS)
    start = games[0][0]
    players = __import__("json").loads(start.payload)["players"]
    first = [r for r in rows if r["game_id"] == start.game_id]
    assert all(r["player_id"] == players[r["seat"]] for r in first)


def test_relations_follow_sides_and_the_opposite_seat():
    sides = ("even", "odd") * 3
    assert [D.relation(sides, 3, 0, x) for x in (-1, 0, 1, 2, 3, 4, 5)] == [
        "none", "self", "opponent", "teammate", "opposite", "teammate", "opponent"]
    assert [D.relation((None,) * 4, -1, 1, x) for x in (0, 1, 2)] == [
        "opponent", "self", "opponent"]


def test_keng_rows_carry_relations_from_the_engine():
    events = next(iter(simulate("keng", 1, seed=5))).events
    rows = D.decisions_table(events).to_pylist()
    for r in rows:
        if r["top_seat"] < 0:
            assert r["top_relation"] == "none"
            continue
        diff = (r["top_seat"] - r["seat"]) % 6
        want = {0: "self", 2: "teammate", 4: "teammate", 3: "opposite"}.get(diff, "opponent")
        assert r["top_relation"] == want, r
        assert r["side"] == ("even", "odd")[r["seat"] % 2]


def test_collector_discards_a_refused_game():
    games = [x.events for x in simulate("keng", 2, seed=11)]
    good = D.decisions_table(games[0])
    bad = list(games[1])
    i = max(i for i, e in enumerate(bad) if e.kind == "PLAY")
    bad = seal_events([*bad[:i], bad[i]._replace(seat=(bad[i].seat + 1) % 6), *bad[i + 1:]])
    c = D.DecisionCollector()
    assert D.validate_collecting(bad, c).status == "illegal"
    assert D.validate_collecting(games[0], c).status == "ok"
    assert D.validate_collecting(bad[:-3], c).status in ("illegal", "incomplete")
    assert c.table().equals(good)
    with pytest.raises(EngineError):
        D.decisions_table(bad)


def test_a_failing_hook_on_an_accepted_event_is_a_bug(monkeypatch):
    events = next(iter(simulate("modaoshuang", 1, seed=3,
                                options=find_game("modaoshuang").Options(mds_players=3)))).events
    dm = D.decisions_module("modaoshuang")

    def broken(s, e):
        if e.kind == "PLAY":
            raise KeyError("boom")
        return None
    monkeypatch.setitem(dm.BY_KIND, "PLAY", broken)
    with pytest.raises(D.DecisionError, match="KeyError: 'boom'"):
        D.decisions_table(events)


def test_empty_collector_table_has_the_schema():
    t = D.DecisionCollector().table()
    assert t.num_rows == 0 and t.schema.equals(D.DECISIONS_ARROW)
    assert isinstance(t, pa.Table)
