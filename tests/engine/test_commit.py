"""Committed chance (issue 13): the simulator commits to each game's chance outcomes in
GAME_START and reveals the salt in GAME_END; a deal changed after the commitment is caught."""

from __future__ import annotations

import json

import pytest

from engine import commit
from engine.events import seal_events
from engine.games import GAMES, find_game
from engine.replay import Replay, validate_events
from engine.sim import simulate
from tests.options import options_for


def _options(game):
    return options_for(game, seats=4)


@pytest.fixture(scope="module", params=sorted(GAMES))
def pair(request):
    game = request.param
    plain = [g.events for g in simulate(game, 2, seed=5, options=_options(game))]
    committed = [g.events for g in simulate(game, 2, seed=5, options=_options(game),
                                            commit=True)]
    return game, plain, committed


def test_committed_games_verify_and_play_as_without(pair):
    game, plain, committed = pair
    for p, c in zip(plain, committed, strict=True):
        st = commit.status(c)
        assert st.state == "verified" and st.ok, (game, st)
        assert commit.status(p).state == "none"
        assert json.loads(c[0].payload)["commitment"].startswith("sha256:")
        assert len(json.loads(c[-1].payload)["reveal"]) == 32
        assert [e[:6] for e in p[1:-1]] == [e[:6] for e in c[1:-1]]     # the same play
        v = validate_events(c)
        assert v.status == "ok", v.error
        assert Replay(c).final.seq == Replay(p).final.seq
        assert find_game(game).seen_event(c[0], 0).payload == c[0].payload   # public


def _redealt(events):
    """The forger's log: two cards of the deal swapped after the commitment, the chain and
    the digests recomputed, the commitment and the reveal kept."""
    evs = [e._replace(digest=b"") for e in events]
    i = next(i for i, e in enumerate(evs) if e.kind in commit.CHANCE_KINDS and len(set(e.cards)) > 1)
    cards = list(evs[i].cards)
    j = next(k for k in range(1, len(cards)) if cards[k] != cards[0])
    cards[0], cards[j] = cards[j], cards[0]
    evs[i] = evs[i]._replace(cards=tuple(cards))
    return seal_events(evs)


def test_a_deal_changed_after_the_commitment_is_caught(pair):
    game, _, committed = pair
    forged = _redealt(committed[0])
    st = commit.status(forged)
    assert st.state == "mismatch" and not st.ok
    assert "the deal was changed after the commitment" in st.message


def test_a_missing_or_malformed_reveal_is_reported():
    events = [g.events for g in simulate("keng", 1, seed=2, commit=True)][0]
    end = events[-1]
    p = json.loads(end.payload)
    del p["reveal"]
    gone = [*events[:-1], end._replace(payload=json.dumps(p, sort_keys=True,
                                                          separators=(",", ":")))]
    assert commit.status(gone).state == "mismatch"
    p["reveal"] = "zz"
    bad = [*events[:-1], end._replace(payload=json.dumps(p, sort_keys=True,
                                                         separators=(",", ":")))]
    assert commit.status(bad).state == "malformed"
    assert commit.status(events[:-1]).state == "open"              # not ended: not revealed


def test_the_salt_changes_the_commitment_and_the_keys_never_reach_a_game():
    chance = b"deck"
    assert commit.commitment(b"a" * 16, chance) != commit.commitment(b"b" * 16, chance)
    events = [g.events for g in simulate("liuhu", 1, seed=3, commit=True)][0]
    start, end = commit.for_engine(events[0]), commit.for_engine(events[-1])
    assert "commitment" not in json.loads(start.payload)
    assert "reveal" not in json.loads(end.payload)
    assert commit.engine_events(events)[1:-1] == events[1:-1]
