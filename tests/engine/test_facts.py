"""Game facts (engine.facts, docs/facts.md): every registered game's catalog is well formed;
over seeded self-play of each game's conformance option sets every fact of its catalog happens
(except its ``rare_facts``, each tested on positions in its own tests), every row names a real
seat, player and event; the collector keeps the rows of accepted games only; the same games
give the same rows. The toy game's facts are checked against an independent count."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import facts as F
from engine.events import seal_events
from engine.games import BUILT_IN, GAMES, find_game
from engine.games.base import NO_FACTS
from engine.replay import fold
from engine.sim import simulate
from tests.toygame.rules import STRENGTH, scores

MIN_FACTS = 12      # issue 26: at least 12 facts per game, chosen as a strong player would


def _corpus(game: str) -> list[list]:
    g = find_game(game)
    out = []
    n = g.CONFORMANCE.get("fact_games", g.CONFORMANCE["decision_games"])
    for i, opts in enumerate(g.CONFORMANCE["option_sets"]):
        for policy in ("random", "greedy"):
            out += [x.events for x in simulate(game, n, seed=900 + i, policy_name=policy,
                                                options=g.Options(**opts), session_games=4)]
    return out


def _with_facts() -> list[str]:
    return sorted(g for g in GAMES if find_game(g).facts is not NO_FACTS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_catalog_is_well_formed(game):
    hooks = find_game(game).facts
    assert F.check_catalog(hooks) == []
    prefix = f"{find_game(game).RULE_PREFIX}-"
    assert all(prefix in f.description for f in hooks.FACTS), game
    if game in BUILT_IN:           # every game liujia ships: at least 12 facts
        assert len(hooks.FACTS) >= MIN_FACTS, (game, len(hooks.FACTS))


def test_check_catalog_finds_problems():
    bad = F.FactHooks(FACTS=(F.Fact("Held", "x", "y"), F.Fact("a", "", "y"),
                             F.Fact("a", "z", "y")), after=lambda s, e: ())
    problems = F.check_catalog(bad)
    assert any("'Held' is not snake_case" in p for p in problems)
    assert any("'a' needs a label" in p for p in problems)
    assert any("'a' is declared twice" in p for p in problems)


@pytest.fixture(scope="module", params=_with_facts())
def corpus(request) -> tuple[str, list[list]]:
    """A seeded self-play corpus of one game that declares facts."""
    return request.param, _corpus(request.param)


def test_every_fact_happens_and_rows_are_sound(corpus):
    game, games = corpus
    g = find_game(game)
    hooks = g.facts
    seen = Counter()
    for events in games:         # one at a time: game ids repeat across seeds
        rows = F.facts_table([events]).to_pylist()
        state = g.initial_state(events[0])
        keys = [(r["seat"], r["fact"]) for r in rows]
        assert len(keys) == len(set(keys))              # one row per (game, seat, fact)
        for r in rows:
            assert r["game_id"] == events[0].game_id and r["game"] == game
            assert r["count"] >= 1 and 0 <= r["seat"] < len(state.players)
            assert r["player_id"] == state.players[r["seat"]]
            assert r["first_seq"] < len(events)
            if hooks.KINDS is not None:
                assert events[r["first_seq"]].kind in hooks.KINDS, r
            seen[r["fact"]] += r["count"]
    rare = set(g.CONFORMANCE.get("rare_facts", ()))
    assert rare <= set(hooks.names()), rare - set(hooks.names())
    missing = set(hooks.names()) - rare - set(seen)
    assert not missing, f"facts that never happened in {len(games)} games: {sorted(missing)}"
    table = F.facts_table(games)
    assert table.num_rows > 0 and F.facts_table(games).equals(table)   # same games, same rows


def test_refused_games_keep_no_rows():
    games = [x.events for x in simulate("toy_tricks", 3, seed=4)]
    collector = F.FactCollector()
    bad = list(games[1])
    bad[5] = bad[5]._replace(seat=(bad[5].seat + 1) % 4)
    bad = seal_events(bad)
    verdicts = [fold(ev, (collector,)).status for ev in (games[0], bad, games[2])]
    assert verdicts == ["ok", "illegal", "ok"]
    ids = set(collector.table().column("game_id").to_pylist())
    assert ids == {games[0][0].game_id, games[2][0].game_id}


def test_toy_facts_agree_with_an_independent_count():
    games = [x.events for x in simulate("toy_tricks", 12, seed=8)]
    rows = F.facts_table(games).to_pylist()
    got = {(r["game_id"], r["seat"], r["fact"]): r for r in rows}
    g = find_game("toy_tricks")
    checked = 0
    for events in games:
        gid = events[0].game_id
        state = g.initial_state(events[0])
        for e in events[1:]:
            g.step(state, e)
        for seat in range(len(state.players)):
            deal = next(e for e in events if e.kind == "DEAL" and e.seat == seat)
            aces = sum(1 for c in deal.cards if STRENGTH[c] == 12)
            row = got.get((gid, seat, "held_ace"))
            assert (row["count"] if row else 0) == aces
            if row:
                assert row["first_seq"] == deal.seq
            won = got.get((gid, seat, "won_trick"))
            assert (won["count"] if won else 0) == state.tricks[seat]
            top = (gid, seat, "top_score") in got
            assert top == (scores(state)[seat] == max(scores(state)))
            checked += 1
    assert checked >= 40


def test_a_failing_hook_is_a_fact_error_not_a_verdict():
    """A hook that returns a fact outside its catalog fails loudly (a bug), never as the
    game's verdict."""
    events = next(iter(simulate("toy_tricks", 1, seed=3))).events
    g = find_game("toy_tricks")

    def broken(state, event):
        return ((0, "no_such_fact"),) if event.kind == "TRICK_END" else ()

    class Declared:
        GAME_ID = "toy_tricks"
        facts = F.FactHooks(FACTS=g.facts.FACTS, after=broken)

    collector = F.FactCollector()
    state = g.initial_state(events[0])
    collector.begin(Declared, state, events[0])
    with pytest.raises(F.FactError, match="TRICK_END.*no_such_fact"):
        for e in events[1:]:
            g.step(state, e)
            collector.after(state, e)


def test_the_docs_list_every_fact_of_every_game():
    """docs/facts.md lists each shipped game's catalog (name and label), as the code has it
    (`python -m tools.facts_doc` writes the tables)."""
    from pathlib import Path

    from tools.facts_doc import catalog_markdown
    doc = (Path(__file__).resolve().parents[2] / "docs" / "facts.md").read_text("utf-8")
    assert catalog_markdown() in doc
