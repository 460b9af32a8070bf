"""The liujia.jsonl reader is fuzzed: any file (bytes, lines, mutated real lines, gzip) is read
to games and typed errors (JsonlError, NotALog) and nothing else escapes; a game the reader
accepts has a verified chain; the line parser and the JSON Schema agree on well-shaped lines."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import jsonl as jl
from engine import jsonl_reader as jr
from engine.events import GENESIS, chain_digest
from engine.log import NotALog

HEADER = jl.header_line()
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 40), 1 << 40) | st.floats(allow_nan=True)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=10,
)


def _read(path: Path, strict: bool = False) -> jr.JsonlRead | None:
    """Read a file; the only exceptions allowed are the typed ones."""
    try:
        r = jr.read_jsonl(path, strict=strict)
    except NotALog as exc:
        assert exc.code in ("not_a_log", "unsupported_format")
        return None
    for g in r.games:                               # every event kept is chain-verified
        prev = GENESIS
        for i, e in enumerate(g.events):
            assert e.seq == i and chain_digest(prev, e) == e.digest and e.game_id == g.game_id
            prev = e.digest
        assert g.error is None or isinstance(g.error, jl.JsonlError)
        assert len(g.lines) == len(g.events)
    assert all(isinstance(p, jl.JsonlError) for p in [*r.problems, *r.warnings])
    for p in [*r.problems, *(g.error for g in r.games if g.error)]:
        str(p)                                      # and every message can be made
    return r


@pytest.fixture(scope="module")
def real_lines(small_games) -> list[str]:
    return [HEADER, *(jl.event_line(e) for g in small_games[:2] for e in g)]


@pytest.fixture(scope="module")
def real_games(small_games) -> dict[str, list]:
    return {g[0].game_id: g for g in small_games[:2]}


@FUZZ
@given(st.binary(max_size=400))
def test_any_bytes_read_as_typed_errors(tmp_path_factory, data):
    p = tmp_path_factory.mktemp("f") / "a.jsonl"
    p.write_bytes(data)
    _read(p)
    p2 = p.with_name("a.jsonl.gz")
    p2.write_bytes(data)
    _read(p2)


@FUZZ
@given(st.lists(st.one_of(st.text(max_size=40), json_values.map(json.dumps)), max_size=8))
def test_any_lines_after_a_header(tmp_path_factory, lines):
    p = tmp_path_factory.mktemp("f") / "a.jsonl"
    p.write_text("\n".join([HEADER, *lines]), encoding="utf-8", errors="surrogatepass")
    assert _read(p) is not None
    _read(p, strict=True)


@FUZZ
@given(data=st.data())
def test_mutated_real_files(tmp_path_factory, real_lines, real_games, data):
    lines = [x.encode() for x in real_lines]
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["field", "bytes", "drop", "dup", "swap", "cut"]))
        if how == "field" and i > 0:
            try:
                o = json.loads(lines[i])
            except ValueError:
                continue
            if isinstance(o, dict):
                key = data.draw(st.sampled_from([*jl.EVENT_FIELDS, "extra"]))
                o[key] = data.draw(json_values)
                lines[i] = json.dumps(o).encode("utf-8", errors="surrogatepass")
        elif how == "bytes" and lines[i]:
            b = bytearray(lines[i])
            b[data.draw(st.integers(0, len(b) - 1))] = data.draw(st.integers(0, 255))
            lines[i] = bytes(b)
        elif how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, lines[i])
        elif how == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif how == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
    p = tmp_path_factory.mktemp("f") / "a.jsonl"
    p.write_bytes(b"\n".join(lines))
    r = _read(p)
    for g in r.games if r is not None else []:     # what the chain lets through is true
        assert g.events == real_games.get(g.game_id, [])[: len(g.events)]
    z = p.with_name("a.jsonl.gz")
    z.write_bytes(gzip.compress(p.read_bytes())[: data.draw(st.integers(0, 400))])
    _read(z)


@FUZZ
@given(st.text(max_size=200))
def test_parse_line_raises_only_jsonl_errors(text):
    try:
        jl.parse_line(text)
    except jl.JsonlError as exc:
        assert exc.code in ("bad_json", "bad_field", "missing_field")


shaped = st.fixed_dictionaries(
    {"game_id": st.sampled_from(["g1", "keng-1-000001", "", "a b", 7]),
     "seq": st.one_of(st.integers(-2, 1 << 33), st.booleans(), st.just(1.0)),
     "ts": st.one_of(st.integers(-(1 << 64), 1 << 64),
                     st.sampled_from(["2026-01-01T00:00:00Z", "2026-01-01T00:00:00.5+08:00",
                                      "2026-01-01 00:00", "x"])),
     "kind": st.sampled_from(["PLAY", "GAME_START", "play", "", "A" * 65, 3]),
     "digest": st.sampled_from(["0" * 32, "f" * 32, "F" * 32, "0" * 31, None])},
    optional={"seat": st.integers(-200, 200), "target": st.integers(-200, 200),
              "value": st.integers(-(1 << 16), 1 << 16),
              "cards": st.lists(st.sampled_from(["Th", "RJ", "BJ", "As", "1x", "th", 5]),
                                max_size=3),
              "tag": st.one_of(st.text(max_size=3), st.integers()),
              "payload": st.one_of(st.none(), st.text(max_size=3), st.integers(),
                                   st.dictionaries(st.text(max_size=3), st.integers(),
                                                   max_size=2),
                                   st.lists(st.integers(), max_size=2)),
              "extra": st.integers()})


@settings(max_examples=300, deadline=None)
@given(shaped)
def test_parser_and_schema_agree_on_shaped_lines(obj):
    v = jsonschema.Draft202012Validator(jl.schema())
    assume(not any("\ud800" <= c <= "\udfff" for c in json.dumps(obj, ensure_ascii=False)))
    by_schema = v.is_valid(obj)
    try:
        _, unknown = jl.event_from_obj(obj)
        by_parser = not unknown                     # the schema is the strict form
    except jl.JsonlError:
        by_parser = False
    assert by_schema == by_parser, obj


@settings(max_examples=300, deadline=None)
@given(st.integers(-(1 << 63), (1 << 63) - 1))
def test_every_timestamp_round_trips(ts):
    text = jl.format_ts(ts)
    assert jl.parse_ts(text) == ts
    assert isinstance(text, str) or not -(62135596800 * 10**6) <= ts <= 253402300799 * 10**6
