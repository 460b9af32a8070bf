"""The ddz6 decision hooks agree with the legal actions over seeded self-play: at every seat
action the options are exactly the categories of the seat's legal actions, the chosen one is
the event's, tags and phases are declared; every category is chosen at least once."""

from __future__ import annotations

from engine.games.ddz6 import VARIANTS
from engine.games.ddz6 import decisions as hooks

from .test_game_support import playout

CATEGORIES = {c for c, _ in hooks.DECISIONS}


def test_ddz_decisions_agree_with_the_legal_actions():
    chosen: set[str] = set()
    for variant in VARIANTS:
        g = VARIANTS[variant]
        for seed in range(4):
            for policy in ("random", "greedy"):
                events, _ = playout(variant, seed, policy)
                s = g.initial_state(events[0])
                for e in events[1:]:
                    d = hooks.decision(s, e)
                    if not s.owed and e.seat == g.to_move(s):
                        cats = {hooks.action_category(s, a) for a in g.legal_actions(s)}
                        cats.discard(None)
                        if len(cats) > 1:
                            assert d is not None, (variant, seed, e)
                            assert d.options == cats, (e, d.options, cats)
                            assert d.chosen == hooks.action_category(s, e)
                        else:
                            assert d is None
                    else:
                        assert d is None
                    if d is not None:
                        chosen.add(d.chosen)
                        assert set(d.tags) <= {t for t, _ in hooks.TAGS}
                        assert d.phase in hooks.PHASES
                    s = g.apply(s, e)
    assert chosen == CATEGORIES
