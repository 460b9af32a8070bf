"""Positions must be possible (issue 9): mutants of real positions of every registered game are
refused naming a field, or are consistent positions; mutated actions get verdicts, never
tracebacks.

Positions come from seeded self-play (``engine.sim``) of each game's conformance option sets,
at random steps. A mutant changes a face, moves a card between places, duplicates or drops a
card, changes a seat, count, flag, turn or choice, deletes or retypes a field, adds a foreign
one, or nests a value deeply. It must either be refused by ``from_position`` with an
``InvalidEvent`` (a ``PositionError``) whose one line names the field, or be consistent: it
round-trips, every legal action is legal on the ``liujia check`` path and leads to a position
that loads again, a sample of other actions gets from the check path the verdict (rule id)
the engine gives on the state loaded from the same position, and a mutant equal to a position
reached by play gets exactly the verdicts of that played state.

The suite stays fast: ``LIUJIA_FUZZ_N`` (default 150) mutated positions and ten times as many
mutated actions per game. For the large run::

    LIUJIA_FUZZ_N=10000 .venv/bin/python -m tests.engine.test_position_mutants
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.cards import format_face
from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import event_to_json
from engine.games import GAMES, find_game
from engine.sim import simulate
from liujia.commands.check import InputError, action_event, check_texts, verdict

N = int(os.environ.get("LIUJIA_FUZZ_N", "150"))
GAME_IDS = sorted(GAMES)
FACES = [format_face(c) for c in range(54)]
ODD_STRINGS = ["", "ZZ", "10h", "ah", "RJ ", "null", "\u202eevil", "x" * 300, "1", "play"]
ODD_VALUES = [None, True, False, 0, -1, 1, 7, 2 ** 40, 10 ** 30, -10 ** 30, 1.5, "", "7",
              [], {}, [0], {"a": 1}]


# ---------------------------------------------------------------- positions from self-play

@dataclass
class Corpus:
    """Positions of one game: (state, canonical JSON text) at sampled steps, and an index of
    every played position by its canonical text."""

    game: str
    samples: list[tuple[Any, str]] = field(default_factory=list)
    played: dict[str, Any] = field(default_factory=dict)
    strings: list[str] = field(default_factory=list)


def canonical(pos: dict[str, Any]) -> str:
    """One text per position: sorted keys, no spaces."""
    return json.dumps(pos, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def corpus(game: str, seed: int = 11, games_per_set: int = 4, per_game: int = 8) -> Corpus:
    """Positions of seeded self-play games of the game's conformance option sets (sessions,
    random and greedy bots): every step is indexed; the samples are one state of each
    signature (which top-level fields are set: a duel, an owed event, a yield …) so that rare
    situations are mutated too, plus random steps."""
    g = find_game(game)
    rng = random.Random(seed)
    out = Corpus(game)
    strings: set[str] = set()
    by_signature: dict[tuple, list[tuple[Any, str]]] = {}
    for k, opts in enumerate(g.CONFORMANCE["option_sets"][:4]):
        options = g.Options(**opts)
        for sim in simulate(game, games_per_set, seed=seed + k, options=options,
                            session_games=games_per_set,
                            policy_name="random" if k % 2 == 0 else "greedy"):
            s = g.initial_state(sim.events[0])
            picks = set(rng.sample(range(len(sim.events)), min(per_game, len(sim.events))))
            for i, e in enumerate([None, *sim.events[1:]]):
                if e is not None:
                    s = g.apply(s, e)
                pos = g.to_position(s)
                text = canonical(pos)
                out.played.setdefault(text, s)
                by_signature.setdefault(_signature(pos), []).append((s, text))
                if i in picks:
                    out.samples.append((s, text))
    for states in by_signature.values():
        out.samples.append(rng.choice(states))
    for _s, text in out.samples:
        _strings(json.loads(text), strings)
    out.strings = sorted(strings)
    return out


def _signature(pos: dict[str, Any]) -> tuple:
    """The phase and which fields of a position are set (not null, empty, false or zero),
    one level into its objects: a duel, an owed event, a yield, a penalty …"""
    def on(v: Any) -> bool:
        return v not in (None, [], {}, False, 0, "")

    sig = [str(pos.get("phase", pos.get("stage")))]
    for k, v in sorted(pos.items()):
        if isinstance(v, dict):
            sig.extend(f"{k}.{j}" for j, x in sorted(v.items()) if on(x))
        elif isinstance(v, bool) and v or isinstance(v, list) and k not in (
                "hands", "players", "deck") and any(on(x) for x in v):
            sig.append(k)
    return tuple(sig)


def _strings(v: Any, out: set[str]) -> None:
    if isinstance(v, str):
        out.add(v)
    elif isinstance(v, dict):
        for x in v.values():
            _strings(x, out)
    elif isinstance(v, list):
        for x in v:
            _strings(x, out)


_CORPORA: dict[str, Corpus] = {}


def corpus_of(game: str) -> Corpus:
    """The cached corpus of a game."""
    if game not in _CORPORA:
        _CORPORA[game] = corpus(game)
    return _CORPORA[game]


# ---------------------------------------------------------------- mutations

def _paths(v: Any, path: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) to a value inside a JSON value, the root excluded."""
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            out.append((*path, k))
            out.extend(_paths(x, (*path, k)))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out.append((*path, i))
            out.extend(_paths(x, (*path, i)))
    return out


def _get(v: Any, path: tuple) -> Any:
    for k in path:
        v = v[k]
    return v


def _set(v: Any, path: tuple, value: Any) -> None:
    _get(v, path[:-1])[path[-1]] = value


def _face_lists(pos: Any) -> list[tuple]:
    """Paths of the lists of card faces (hands, stock, plays …), empty ones included."""
    out = []
    for p in [(), *_paths(pos)]:
        v = _get(pos, p)
        if isinstance(v, list) and all(isinstance(x, str) and x in FACES for x in v) and (
                v or (p and p[-1] in ("cards", "stock", "table", "played", "dead", "covered",
                                      "deck") or (len(p) > 1 and p[-2] == "hands"))):
            out.append(p)
    return out


def _nested(depth: int, rng: random.Random) -> Any:
    v: Any = rng.choice([1, "As", None, []])
    for _ in range(depth):
        v = [v] if rng.random() < 0.5 else {"a": v}
    return v


def mutate(pos: dict[str, Any], rng: random.Random, strings: list[str]) -> tuple[str, Any]:
    """One random mutant of a position: (what was done, the mutant)."""
    m = copy.deepcopy(pos)
    paths = _paths(m)
    op = rng.choice(["face", "move", "duplicate", "drop", "int", "int", "bool", "string",
                     "delete", "retype", "nest", "foreign", "swap", "null"])
    lists = _face_lists(m)
    cards = [p for p in lists if _get(m, p)]
    if op in ("face", "move", "drop", "duplicate") and cards:
        src = rng.choice(cards)
        xs = _get(m, src)
        i = rng.randrange(len(xs))
        if op == "face":
            xs[i] = rng.choice(FACES if rng.random() < 0.9 else ODD_STRINGS)
        elif op == "move":
            card = xs.pop(i)
            dst = _get(m, rng.choice(lists))
            dst.insert(rng.randrange(len(dst) + 1), card)
        elif op == "drop":
            xs.pop(i)
        else:
            xs.insert(rng.randrange(len(xs) + 1), xs[i] if rng.random() < 0.7 else
                      rng.choice(FACES))
        return f"{op} {src}", m
    leaves = [p for p in paths if not isinstance(_get(m, p), (dict, list))]
    if op == "int":
        ints = [p for p in leaves if isinstance(_get(m, p), int) and not
                isinstance(_get(m, p), bool)] or leaves
        p = rng.choice(ints)
        v = _get(m, p)
        base = v if isinstance(v, int) and not isinstance(v, bool) else 0
        _set(m, p, rng.choice([base + 1, base - 1, 0, -1, 1, 2, 3, 5, 6, 7, base + 6,
                               2 ** 31, 10 ** 30, -10 ** 30]))
        return f"int {p}", m
    if op == "bool":
        bools = [p for p in leaves if isinstance(_get(m, p), bool)] or leaves
        p = rng.choice(bools)
        v = _get(m, p)
        _set(m, p, (not v) if isinstance(v, bool) and rng.random() < 0.8 else
             rng.choice([0, 1, "true", None]))
        return f"bool {p}", m
    if op == "string":
        strs = [p for p in leaves if isinstance(_get(m, p), str)] or leaves
        p = rng.choice(strs)
        _set(m, p, rng.choice(strings if rng.random() < 0.8 else ODD_STRINGS))
        return f"string {p}", m
    p = rng.choice(paths)
    if op == "delete":
        parent = _get(m, p[:-1])
        del parent[p[-1]]
    elif op == "retype":
        _set(m, p, copy.deepcopy(rng.choice(ODD_VALUES)))
    elif op == "nest":
        _set(m, p, _nested(rng.choice([3, 9, 60, 3000]), rng))
    elif op == "foreign":
        target = _get(m, p) if isinstance(_get(m, p), dict) else m
        target[rng.choice(["hnads", "extra", "seat", "x"])] = rng.choice(ODD_VALUES)
    elif op == "swap":
        q = rng.choice(paths)
        a, b = copy.deepcopy(_get(m, p)), copy.deepcopy(_get(m, q))
        try:
            _set(m, p, b)
            _set(m, q, a)
        except (IndexError, KeyError, TypeError):
            return "swap (nested)", m
    else:
        _set(m, p, None)
    return f"{op} {p}", m


def mutate_action(act: dict[str, Any], rng: random.Random, strings: list[str]) -> Any:
    """One random mutant of an action's JSON."""
    a = copy.deepcopy(act)
    op = rng.choice(["kind", "seat", "cards", "cards", "value", "target", "tag", "payload",
                     "delete", "foreign", "retype", "nest", "seq", "whole"])
    keys = ["kind", "seat", "cards", "value", "target", "tag", "payload", "seq", "game_id",
            "suit"]
    if op == "kind":
        a["kind"] = rng.choice([*strings, "PLAY", "PASS", "DRAW", "GAME_END", "play", "BOGUS",
                                "", 3])
    elif op in ("seat", "target", "value", "seq"):
        a[op] = rng.choice([-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 17, 53, 2 ** 31, 10 ** 30, "1",
                            None, True])
    elif op == "cards":
        xs = list(a.get("cards", [])) if isinstance(a.get("cards"), list) else []
        roll = rng.random()
        if roll < 0.4 and xs:
            xs[rng.randrange(len(xs))] = rng.choice(FACES)
        elif roll < 0.6:
            xs.append(rng.choice(FACES))
        elif roll < 0.7 and xs:
            xs.pop()
        elif roll < 0.8:
            xs = " ".join(rng.choice(FACES) for _ in range(rng.randrange(4)))
        else:
            xs = rng.choice([["ZZ"], "As ZZ", [1, 2], {"a": 1}, None, [["As"]], 5])
        a["cards"] = xs
    elif op == "tag":
        a["tag"] = rng.choice([*strings[:50], "valid", "void", "false", "continued", "turn",
                               "penalty", "lead", "answer+shaped", "\u202e", 7, None])
    elif op == "payload":
        a["payload"] = rng.choice([{"order": [0, 1, 2]}, {"0": ["5s"]}, "x", 3, [1, 2],
                                   {"positions": [1, 2, 3, 4, 5, 6]}, None])
    elif op == "delete" and a:
        del a[rng.choice(sorted(a))]
    elif op == "foreign":
        a[rng.choice(["hnads", "extra", "suits"])] = 1
    elif op == "retype":
        a[rng.choice(keys)] = copy.deepcopy(rng.choice(ODD_VALUES))
    elif op == "nest":
        a[rng.choice(keys)] = _nested(rng.choice([5, 60, 3000]), rng)
    else:
        return copy.deepcopy(rng.choice(ODD_VALUES + [[a], "PLAY"]))
    return a


# ---------------------------------------------------------------- judging a mutant

@dataclass
class Stats:
    """What happened to the mutants of one game."""

    game: str
    kind: str = "positions"
    refused: int = 0
    accepted: int = 0
    played_equal: int = 0
    legal_checked: int = 0
    others_checked: int = 0
    tracebacks: list[str] = field(default_factory=list)
    refusals: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    def line(self) -> str:
        """A one-line summary."""
        if self.kind == "actions":
            return (f"{self.game}: {self.refused + self.accepted} mutated actions, "
                    f"{self.accepted} judged (legal/illegal/invalid as the engine says), "
                    f"{self.refused} refused as input errors, {len(self.tracebacks)} "
                    f"tracebacks, {self.seconds:.1f} s")
        return (f"{self.game}: {self.refused + self.accepted} mutated positions, "
                f"{self.refused} refused, {self.accepted} accepted and consistent "
                f"({self.played_equal} equal to a played position), {self.legal_checked} "
                f"legal actions and {self.others_checked} other actions checked, "
                f"{len(self.tracebacks)} tracebacks, {self.seconds:.1f} s")


def refusal_ok(exc: EngineError) -> str:
    """The refusal's field, after checking it is one line naming a field."""
    text = str(exc)
    assert isinstance(exc, InvalidEvent), f"{type(exc).__name__}: {text}"
    assert exc.field, f"names no field: {text}"
    assert text.startswith("position field '"), text
    assert "\n" not in text and "seq -1" not in text and len(text) < 600, text
    return exc.field


def _too_deep(v: Any) -> bool:
    try:
        json.dumps(v)
    except (RecursionError, ValueError):
        return True
    return False


def _text(v: Any) -> str:
    """JSON text of a value; a value deeper than json writes becomes such a text."""
    try:
        return json.dumps(v)
    except (RecursionError, ValueError):
        return "[" * 3000 + "]" * 3000


def _rule(g: Any, state: Any, event: Any) -> str:
    """The engine's verdict on an event: 'legal', a rule id, or 'invalid'."""
    try:
        g.check(state, event)
    except IllegalMove as exc:
        return exc.rule_id
    except InvalidEvent:
        return "invalid"
    return "legal"


def _path_rule(code: int, line: str) -> str:
    if line.startswith("illegal "):
        return line.split(" ", 2)[1].rstrip(":")
    return "invalid" if line.startswith("invalid") else "legal"


def judge(g: Any, m: Any, text: str, c: Corpus, rng: random.Random, st: Stats) -> None:
    """Refused naming a field, or a consistent position (module docstring)."""
    try:
        s = g.from_position(json.loads(text))
    except EngineError as exc:
        st.refusals[refusal_ok(exc).split("[")[0].split(".")[0]] += 1
        st.refused += 1
        return
    st.accepted += 1
    p = g.to_position(s)
    again = g.from_position(json.loads(json.dumps(p)))
    assert again == s and g.to_position(again) == p, "the mutant does not round-trip"
    played = c.played.get(canonical(p))
    st.played_equal += played is not None
    actions = g.legal_actions(s)
    assert actions or g.is_over(s), "an unfinished accepted position has no legal action"
    for a in actions:
        code, line, new = verdict(g, s, a)
        assert line == "legal", f"listed action {a.describe()} is {line}"
        g.from_position(json.loads(json.dumps(g.to_position(new))))
        st.legal_checked += 1
        if played is not None:
            assert _rule(g, played, a) == "legal"
    for a in rng.sample(actions, min(3, len(actions))):
        act_text = _text(mutate_action(event_to_json(a), rng, c.strings))
        try:
            code, out = check_texts(text, act_text, "position")
        except InputError:
            continue
        event = action_event(g, s, json.loads(act_text))
        assert _path_rule(code, out.split("\n", 1)[0]) == _rule(g, s, event)
        if played is not None:
            assert _rule(g, played, event) == _rule(g, s, event)
        st.others_checked += 1


def fuzz_positions(game: str, n: int, seed: int = 1) -> Stats:
    """n mutants of the game's corpus positions, each judged; tracebacks are collected."""
    g = find_game(game)
    c = corpus_of(game)
    rng = random.Random(seed)
    st = Stats(game)
    t0 = time.process_time()
    for _ in range(n):
        _state, text = rng.choice(c.samples)
        what, m = mutate(json.loads(text), rng, c.strings)
        for _ in range(rng.choice((0, 0, 0, 1, 2))):      # some mutants change several things
            if isinstance(m, dict) and not _too_deep(m):
                more, m = mutate(m, rng, c.strings)
                what += f"; {more}"
        try:
            mtext = json.dumps(m)
        except (RecursionError, ValueError):
            mtext = None
        if mtext is None:           # deeper than json can write: from_position on the object
            try:
                g.from_position(m)
            except EngineError as exc:
                refusal_ok(exc)
                st.refused += 1
                continue
        try:
            judge(g, m, mtext, c, rng, st)
        except AssertionError as exc:
            st.tracebacks.append(f"{what}: {exc}")
        except Exception as exc:  # noqa: BLE001 - collected and reported as a failure
            st.tracebacks.append(f"{what}: {type(exc).__name__}: {exc}"[:500])
    st.seconds = time.process_time() - t0
    return st


def fuzz_actions(game: str, n: int, seed: int = 2) -> Stats:
    """n mutated actions against the game's corpus positions through the check path: a
    verdict or an input error, the engine's verdict, never a traceback."""
    g = find_game(game)
    c = corpus_of(game)
    rng = random.Random(seed)
    st = Stats(game, "actions")
    t0 = time.process_time()
    for _ in range(n):
        s, text = rng.choice(c.samples)
        actions = g.legal_actions(s)
        base = event_to_json(rng.choice(actions)) if actions else {"kind": "PASS", "seat": 0}
        act_text = _text(mutate_action(base, rng, c.strings))
        try:
            code, out = check_texts(text, act_text, "position")
            event = action_event(g, s, json.loads(act_text))
            assert _path_rule(code, out.split("\n", 1)[0]) == _rule(g, s, event)
            assert "\n" not in out.split("\n", 1)[0]
            st.accepted += 1
        except InputError as exc:
            assert "\n" not in str(exc) and str(exc).startswith(("--action", "position"))
            st.refused += 1
        except Exception as exc:  # noqa: BLE001 - collected and reported as a failure
            st.tracebacks.append(f"{act_text[:200]}: {type(exc).__name__}: {exc}"[:500])
    st.seconds = time.process_time() - t0
    return st


# ---------------------------------------------------------------- the tests

@pytest.mark.parametrize("game", GAME_IDS)
def test_mutated_positions_are_refused_naming_a_field_or_are_consistent(game):
    st = fuzz_positions(game, N)
    assert not st.tracebacks, "\n".join(st.tracebacks[:5])
    assert st.refused and st.accepted, st.line()     # both kinds of mutant occur


@pytest.mark.parametrize("game", GAME_IDS)
def test_mutated_actions_get_verdicts_never_tracebacks(game):
    st = fuzz_actions(game, 10 * N)
    assert not st.tracebacks, "\n".join(st.tracebacks[:5])
    assert st.refused and st.accepted, st.line()


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_played_position_of_the_corpus_loads_and_round_trips(game):
    """The corpus itself: reachable states load (the checks accept every one)."""
    g = find_game(game)
    for text, s in corpus_of(game).played.items():
        assert g.from_position(json.loads(text)) == s


def main(argv: list[str]) -> int:
    """The large run: LIUJIA_FUZZ_N mutants (positions, and as many actions) per game."""
    n = int(argv[0]) if argv else N
    failed = 0
    for game in GAME_IDS:
        t0 = time.perf_counter()
        corpus_of(game)
        built = time.perf_counter() - t0
        for st in (fuzz_positions(game, n), fuzz_actions(game, n)):
            print(f"[{st.kind}] {st.line()} (corpus built in {built:.1f} s)")
            if st.kind == "positions":
                print("  refused by field:", dict(st.refusals.most_common(12)))
            for t in st.tracebacks[:10]:
                print("  TRACEBACK", t)
            failed += len(st.tracebacks)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
