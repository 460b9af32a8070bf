"""The conformance suite's loops (tests/engine/test_conformance.py) run on the three ddz6
variant objects before they are registered: at every step legal actions exist and check,
apply never mutates, cards are conserved, positions round-trip, no view shows an unseen face;
at the end outcomes agree, the engine's replay and validation give the live state, an Arrow
write/read keeps events and digests; fuzzed events and positions raise only typed errors."""

from __future__ import annotations

import collections
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.games.ddz6 import VARIANTS
from engine.log import read_log, write_log
from tests.engine.test_conformance import _assert_outcomes, _playout

from .test_game_support import playout, replay


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_ddz_conformance_loop(variant, policy, tmp_path):
    g = VARIANTS[variant]
    pol = g.POLICIES[policy]()
    games = []
    kinds: collections.Counter[str] = collections.Counter()
    data = g.CONFORMANCE
    for k, opts in enumerate(data["option_sets"]):
        for i in range(data["games"] if policy == "random" else 2):
            gid = f"{variant}-{policy}-{k}-{i}"
            events, final = _playout(g, gid, 1000 * k + i, opts, pol, check_all=False)
            _assert_outcomes(g, final, gid)
            assert replay(variant, list(events)) == final
            games.append(events)
            kinds.update(e.kind for e in events)
    if policy == "random":
        assert all(kinds[x] for x in data["required_kinds"]), kinds
    path = tmp_path / "ddz6.arrows"
    write_log(path, games)
    log = read_log(path)
    assert log.ok and [x.events for x in log.games] == games


SAMPLES = {v: [] for v in VARIANTS}
for _v in VARIANTS:
    _events, _ = playout(_v, 3, "random")
    _g = VARIANTS[_v]
    _s = _g.initial_state(_events[0])
    for _i, _e in enumerate(_events[1:]):
        if _i % max(1, len(_events) // 12) == 0:
            SAMPLES[_v].append(_s.copy())
        _g.step(_s, _e)

_fields = st.sampled_from(["kind", "seat", "cards", "target", "value", "tag", "payload"])
_values = st.one_of(st.integers(-3, 60), st.text(max_size=6),
                    st.lists(st.integers(0, 53), max_size=5), st.none())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), pick=st.integers(0, 10_000),
       field=_fields, value=_values)
def test_ddz_fuzzed_events_raise_typed_errors(variant, pick, field, value):
    g = VARIANTS[variant]
    s = SAMPLES[variant][pick % len(SAMPLES[variant])]
    actions = g.legal_actions(s)
    a = actions[pick % len(actions)]
    if field == "cards":
        a = a._replace(cards=tuple(value) if isinstance(value, list) else ())
    elif field in ("seat", "target", "value"):
        a = a._replace(**{field: value if isinstance(value, int) else -1})
    elif field == "payload":
        a = a._replace(payload=None if value is None else json.dumps(value))
    else:
        a = a._replace(**{field: value if isinstance(value, str) else ""})
    before = s.copy()
    try:
        g.check(s, a)
    except EngineError:
        pass
    assert s == before


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), pick=st.integers(0, 10_000),
       value=_values, key_pick=st.integers(0, 10_000))
def test_ddz_fuzzed_positions_load_or_raise_typed(variant, pick, value, key_pick):
    g = VARIANTS[variant]
    pos = json.loads(json.dumps(g.to_position(SAMPLES[variant][pick % len(SAMPLES[variant])])))
    keys = sorted(pos)
    pos[keys[key_pick % len(keys)]] = value
    try:
        g.from_position(pos)
    except EngineError:
        pass


def test_ddz_same_seed_same_events():
    for variant in VARIANTS:
        g = VARIANTS[variant]
        a = g.start_event("x", [f"p{i}" for i in range(6)], random.Random(5))
        b = g.start_event("x", [f"p{i}" for i in range(6)], random.Random(5))
        assert a == b
        assert playout(variant, 9, "greedy")[0] == playout(variant, 9, "greedy")[0]
