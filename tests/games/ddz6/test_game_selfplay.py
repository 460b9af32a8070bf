"""Seeded self-play of the three variants with the random and the greedy bots: every hand
reaches a valid end, replays to the live state (validate = live), conserves its cards and
settles zero-sum; at every step the legal actions pass ``check`` and name the seat to act, and
no seat's view shows a face, a hidden landlord, a dark mark or a kitty share too early
(section 12)."""

from __future__ import annotations

import collections
import json

import pytest

from engine.games.ddz6 import VARIANTS
from engine.games.ddz6.info import ended, seen_event, sides, view
from tests.engine.test_conformance import _faces_in

from .test_game_support import playout, replay

CASES = [
    ("3v3", {}), ("3v3", {"wings_3v3": "no_bomb"}),
    ("2v4", {}), ("2v4", {"no_bomb_autowin": "off", "airplane_order": "chain",
                          "base_score": 2}),
    ("zhengfan", {}), ("zhengfan", {"no_bomb_autowin": "farmers", "qixingju_lock": "off"}),
]
SEEDS = range(5)


def _check_secrets(s, seen):
    """No seat sees a face it has not seen in an event; hidden things stay hidden."""
    g = VARIANTS[s.variant]
    for seat in range(6):
        v = view(s, seat)
        own = set(s.hands[seat])
        leaked = _faces_in(v, set()) - seen[seat] - own
        assert not leaked, f"seq {s.seq}: seat {seat} sees unseen faces {leaked}"
        if ended(s):
            continue
        for h in s.hidden:
            if h != seat and h not in s.revealed:
                assert sides(s, seat)[h] is None and h not in v["landlords"]
        if s.variant == "2v4" and not s.landlords:
            assert v["dark_mark_seat"] is None
        for x, share in enumerate(s.shares):
            if x != seat and share:
                assert v["kitty"]["taken"][x] == len(share)
        assert "deck" not in v and "hidden" not in v
    json.dumps(view(s, None))
    assert g.sides(s, None) == sides(s, None)


@pytest.mark.parametrize("variant,options", CASES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_ddz_selfplay_reaches_a_valid_end_and_replays(variant, options, policy):
    g = VARIANTS[variant]
    for seed in SEEDS:
        events, final = playout(variant, seed, policy, options)
        again = replay(variant, events)
        assert again == final                              # validate = live
        r = g.result(final)
        assert sum(r["scores"]) == 0                        # DDZ-81
        assert events[-1].kind == "GAME_END" and events[-2].kind == "HAND_END"
        out = g.outcomes(final)
        if r["winning_side"] is None:
            assert all(o.result == "draw" for o in out)
        else:
            for o, side, score in zip(out, r["sides"], r["scores"], strict=True):
                assert (o.result == "win") == (side == r["winning_side"]) == (score > 0)
        assert g.legal_actions(final) == [] and g.to_move(final) == -1
        events2, _ = playout(variant, seed, policy, options)
        assert events2 == events                            # the same seed, the same hand


@pytest.mark.parametrize("variant,options", CASES[::2])
# cites DDZ-91
def test_ddz91_views_step_by_step(variant, options):
    """Every step: legal actions check, name the seat to act; cards are conserved; the
    views show only what each seat has seen (section 12)."""
    g = VARIANTS[variant]
    for seed in range(3):
        events, _ = playout(variant, seed, "random", options)
        s = g.initial_state(events[0])
        seen: list[set[int]] = [set() for _ in range(6)]
        pack = collections.Counter(events[0].cards)
        for k, e in enumerate(events[1:]):
            acts = g.legal_actions(s)
            assert acts
            mover = g.to_move(s)
            if not s.owed:
                assert all(a.seat == mover for a in acts)
            for a in acts[:12]:
                g.check(s, a)
            s = g.apply(s, e)
            for seat in range(6):
                part = seen_event(e, seat, variant)
                assert set(part.cards) <= set(e.cards)
                assert (part.cards == e.cards) == g.cards_visible(e, seat)
                seen[seat].update(part.cards)
            counts = g.face_counts(s)
            assert counts == pack
            if k % 5 == 0 or g.is_over(s):
                _check_secrets(s, seen)
                pos = json.loads(json.dumps(g.to_position(s)))
                assert g.from_position(pos) == s             # positions round-trip
                assert g.render(s) and g.render(s, k % 6)


def test_ddz_selfplay_covers_the_events():
    kinds: collections.Counter[str] = collections.Counter()
    for variant, options in CASES:
        for seed in range(8):
            events, _ = playout(variant, seed, "random", options)
            kinds.update(e.kind for e in events)
    for kind in ("DEAL", "CASE", "BID", "BID_END", "LANDLORDS", "KITTY", "SIDE_CHOICE",
                 "SIDES_END", "DOUBLE", "SHOW_HAND", "SHOW_END", "PLAY", "PASS",
                 "ROUND_END", "HAND_END", "GAME_END", "REVEAL"):
        assert kinds[kind] > 0, kind
