"""The self-play styles (engine.styles): every style of every registered game chooses only
legal actions, a seed gives the same games, the styles are recorded nowhere, and each game's
style table names only its own decision categories."""

from __future__ import annotations

import json
import random

import pytest

from engine.events import Event
from engine.games import GAMES, find_game
from engine.sim import PLAYER_POOL, simulate
from engine.styles import ROLES, STYLES, Style, StyledPolicy, Table, policy_of, seat_policies

POOL = [f"player-{i:02d}" for i in range(PLAYER_POOL)]


def _options(game: str):
    g = find_game(game)
    sets = g.DEMO.get("option_sets") or [{}]
    return g.Options(**sets[0]) if sets[0] else None


def _styled_pool(seed: int) -> dict[str, str]:
    """Every player of the pool a style (a seeded shuffle of them all)."""
    rng = random.Random(seed)
    names = sorted(STYLES)
    return {p: rng.choice(names) for p in POOL}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_style_table_names_the_games_own_categories(game):
    g = find_game(game)
    categories = {c for c, _ in g.decisions.DECISIONS}
    for role, cats in g.style_categories.items():
        assert role in ROLES, (game, role)
        assert cats and set(cats) <= categories, (game, role, set(cats) - categories)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_style_chooses_only_legal_actions(game, style):
    """A whole table of one style plays a game: each action it chooses passes the game's
    ``check`` in the state it was chosen in (the claimer's table takes standing options out of
    turn too)."""
    g = find_game(game)
    opts = _options(game)
    rng = random.Random(f"styles/{game}/{style}")
    players = POOL[:g.seat_count(opts if opts is not None else g.Options())]
    pols = seat_policies(g, [style] * len(players))
    if STYLES[style].standing and g.decisions.STANDING and g.style_categories:
        assert isinstance(pols[0], Table)
    e0 = g.start_event(f"{game}-style-{style}", players, rng, opts)
    s = g.initial_state(e0)
    steps = 0
    while not g.is_over(s):
        a = g.auto_event(s, rng)
        if a is None:
            a = pols[g.to_move(s)].choose(s, rng)
        g.check(s, a)                       # raises if the style chose an illegal action
        s = g.apply(s, a)
        steps += 1
        assert steps < 20_000
    assert steps > 0


def _digests(game: str, seed: int, styles: dict[str, str] | None, n: int = 3) -> list[bytes]:
    return [sim.events[-1].digest
            for sim in simulate(game, n, seed, options=_options(game), policy_name="mixed",
                                player_policies=styles, session_games=2)]


@pytest.mark.parametrize("game", ["keng", "modaoshuang"])
def test_a_seed_gives_the_same_styled_games(game):
    styles = _styled_pool(1)
    assert _digests(game, 5, styles) == _digests(game, 5, styles)
    assert _digests(game, 5, styles) != _digests(game, 6, styles)
    assert _digests(game, 5, styles) != _digests(game, 5, None)


def test_no_player_styled_is_the_plain_simulation():
    """A map that names no player of the pool, or maps players to the policy everyone plays,
    gives the games of a plain run, byte for byte."""
    plain = [s.events[-1].digest for s in simulate("keng", 3, 9)]
    assert [s.events[-1].digest for s in simulate("keng", 3, 9, player_policies={})] == plain
    same = {p: "random" for p in POOL}
    assert [s.events[-1].digest for s in simulate("keng", 3, 9, player_policies=same)] == plain


def _text(e: Event) -> str:
    return json.dumps([e.kind, e.tag, e.payload], ensure_ascii=False, default=str)


@pytest.mark.parametrize("game", ["keng", "ddz6_3v3"])
def test_styles_are_recorded_nowhere(game):
    """The logs of styled players are ordinary events: no style's name in any event."""
    for sim in simulate(game, 2, 3, options=_options(game), policy_name="mixed",
                        player_policies=_styled_pool(2)):
        text = "".join(_text(e) for e in sim.events)
        assert not [name for name in STYLES if name in text]


def test_style_names_and_policies():
    g = find_game("keng")
    assert isinstance(policy_of(g, "claimer"), StyledPolicy)
    assert type(policy_of(g, "greedy")).__name__ == "GreedyPolicy"
    with pytest.raises(ValueError, match="unknown policy or style"):
        policy_of(g, "reckless")
    with pytest.raises(ValueError, match="unknown role"):
        Style("x", "", prefer="bold")
    with pytest.raises(ValueError, match="chances"):
        Style("x", "", rate=1.5)
