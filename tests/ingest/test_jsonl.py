"""The liujia.jsonl/1 interchange format: the line codec, the streaming reader and its errors
(file, line, field), limits, gzip, the shipped JSON Schema and the worked examples."""

from __future__ import annotations

import gzip
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from engine import jsonl as jl
from engine import jsonl_reader as jr
from engine.events import Event, chain_digest, seal_events
from engine.games import BUILT_IN, GAMES, package_of
from engine.log import NotALog, read_log, write_log
from engine.replay import validate_events
from engine.sim import simulate
from tests.options import options_for

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"


def _options(game: str):
    return options_for(game, seats=4)


@pytest.fixture(scope="module")
def every_game() -> dict[str, list[list[Event]]]:
    """Two seeded games of every registered game."""
    return {g: [s.events for s in simulate(g, 2, seed=14, options=_options(g))] for g in GAMES}


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_round_trip_gives_identical_events_and_digests(tmp_path, every_game, game, suffix):
    games = every_game[game]
    p = tmp_path / f"g{suffix}"
    assert jl.write_jsonl(p, games) == sum(map(len, games))
    r = jr.read_jsonl(p)
    assert r.ok and not r.warnings and r.problems == []
    assert [g.events for g in r.games] == games            # every field, digests included
    assert [g.final_digest for g in r.games] == [g[-1].digest for g in games]
    assert all(g.complete for g in r.games)
    for g in r.games:                                       # and the engine accepts them
        assert validate_events(g.events).status == "ok"
    if suffix == ".jsonl.gz":
        with gzip.open(p, "rt", encoding="utf-8") as f:
            assert json.loads(f.readline()) == {"format": "liujia.jsonl/1", "event_schema": 1}


def test_lines_are_readable_json(tmp_path, small_games):
    p = jl.write_jsonl(tmp_path / "a.jsonl", small_games) and tmp_path / "a.jsonl"
    lines = _lines(p)
    assert json.loads(lines[0]) == {"format": "liujia.jsonl/1", "event_schema": 1}
    start = json.loads(lines[1])
    assert start["kind"] == "GAME_START" and start["seq"] == 0
    assert start["ts"] == "2026-01-01T00:00:00.000000Z"
    assert isinstance(start["payload"], dict) and start["payload"]["game"] == "keng"
    assert all(isinstance(c, str) and len(c) == 2 for c in start["cards"])
    play = next(json.loads(x) for x in lines if '"PLAY"' in x)
    assert set(play) >= {"game_id", "seq", "ts", "kind", "seat", "cards", "digest"}
    assert len(play["digest"]) == 32 and int(play["digest"], 16) >= 0
    assert "target" not in play or play["target"] >= 0       # defaults are left out


def test_writing_is_deterministic_also_gzipped(tmp_path, small_games):
    for name in ("a.jsonl.gz", "b.jsonl.gz"):
        jl.write_jsonl(tmp_path / name, small_games)
    assert (tmp_path / "a.jsonl.gz").read_bytes() == (tmp_path / "b.jsonl.gz").read_bytes()


def test_a_non_canonical_payload_travels_as_its_exact_text(tmp_path):
    e0 = next(iter(simulate("keng", 1, seed=3))).events
    odd = '{"b": 1,  "a": [1, 2]}'                         # not canonical: kept as a string
    nonascii = '{"name":"\\u5f20"}'                        # ASCII-escaped: string form too
    events = seal_events([e0[0], e0[1]._replace(payload=odd), e0[2]._replace(payload=nonascii),
                          e0[3]._replace(payload='"just a string"'), e0[4]._replace(payload="")])
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, [events])
    objs = [json.loads(x) for x in _lines(p)[1:]]
    assert objs[1]["payload"] == odd and objs[2]["payload"] == nonascii
    assert objs[3]["payload"] == '"just a string"' and objs[4]["payload"] == ""
    assert isinstance(objs[0]["payload"], dict)
    assert jr.read_jsonl(p).games[0].events == events


def test_other_spellings_of_ts_and_integers_read_as_the_same_event(tmp_path, small_games):
    g = small_games[0][:3]
    p = jl.write_jsonl(tmp_path / "a.jsonl", [g]) and tmp_path / "a.jsonl"
    lines = _lines(p)
    o = json.loads(lines[2])
    o["ts"] = g[1].ts                                      # µs as an integer
    o["seq"] = 1.0                                         # JSON Schema's integer
    lines[2] = json.dumps(o)
    o = json.loads(lines[3])
    o["ts"] = o["ts"].replace("T00:00:03.000000Z", "T08:00:03+08:00")
    lines[3] = json.dumps(dict(reversed(list(o.items()))))   # keys in another order
    r = jr.read_jsonl(_write_lines(p, lines))
    assert r.games[0].error is None and r.games[0].events == g


def test_a_tampered_line_is_caught_with_its_line_number(tmp_path, small_games):
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, small_games)
    lines = _lines(p)
    n = 1 + len(small_games[0]) + 7                        # game 2, seq 6
    o = json.loads(lines[n - 1])
    assert o["seq"] == 6
    assert o["ts"].endswith("0Z")
    o["ts"] = o["ts"][:-2] + "1Z"                          # one microsecond later
    lines[n - 1] = json.dumps(o)
    r = jr.read_jsonl(_write_lines(p, lines))
    bad = [g for g in r.games if g.error is not None]
    assert [g.game_id for g in bad] == [small_games[1][0].game_id]
    err = bad[0].error
    assert isinstance(err, jl.JsonlError)
    assert (err.code, err.line, err.field, err.seq) == ("digest", n, "digest", 6)
    assert f"{p}:{n}" in str(err) and "field digest" in str(err)
    assert bad[0].events == small_games[1][:6]              # the intact prefix
    assert [g.events for g in r.games if g.error is None] == [small_games[0], small_games[2]]


def test_a_malformed_line_ends_only_its_game(tmp_path, small_games):
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, small_games)
    lines = _lines(p)
    n = 1 + len(small_games[0]) + 4                        # game 2, seq 3: not JSON
    lines[n - 1] = lines[n - 1][:40]
    r = jr.read_jsonl(_write_lines(p, lines))
    assert [g.error is None for g in r.games] == [True, False, True]
    err = r.games[1].error
    assert (err.code, err.line, err.game_id, err.seq) == ("bad_json", n,
                                                          small_games[1][0].game_id, 3)
    assert r.games[1].events == small_games[1][:3]
    assert r.games[2].events == small_games[2]


@pytest.mark.parametrize(("change", "code", "field"), [
    (lambda o: o.update(cards=["Th", "1x"]), "bad_field", "cards"),
    (lambda o: o.update(seat=200), "bad_field", "seat"),
    (lambda o: o.update(seat=True), "bad_field", "seat"),
    (lambda o: o.update(value=1 << 15), "bad_field", "value"),
    (lambda o: o.update(ts="yesterday"), "bad_field", "ts"),
    (lambda o: o.update(ts="2026-02-30T00:00:00Z"), "bad_field", "ts"),
    (lambda o: o.update(kind="play"), "bad_field", "kind"),
    (lambda o: o.update(tag=7), "bad_field", "tag"),
    (lambda o: o.update(tag="\ud800"), "bad_field", "tag"),
    (lambda o: o.update(digest="ABC"), "bad_field", "digest"),
    (lambda o: o.update(payload=3), "bad_field", "payload"),
    (lambda o: o.pop("digest"), "missing_field", "digest"),
    (lambda o: o.update(seq=9), "gap", "seq"),
    (lambda o: o.update(seq=1), "duplicate", "seq"),
])
def test_each_bad_field_is_named(tmp_path, small_games, change, code, field):
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, small_games[:1])
    lines = _lines(p)
    o = json.loads(lines[3])                               # seq 2, line 4
    change(o)
    lines[3] = json.dumps(o)
    err = jr.read_jsonl(_write_lines(p, lines)).games[0].error
    assert (err.code, err.line, err.field) == (code, 4, field)


def test_parse_line_reports_typed_errors():
    with pytest.raises(jl.JsonlError) as e:
        jl.parse_line('{"a": 1, "a": 2}')
    assert e.value.code == "bad_json" and "twice" in e.value.message
    for text in ("[1, 2]", "NaN", '{"x": 1e999}', "{" * 5000, "1" * 5000, '"\\ud800"'):
        with pytest.raises(jl.JsonlError):
            jl.parse_line(text)


def test_unknown_fields_warn_by_default_and_are_errors_when_strict(tmp_path, small_games):
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, small_games[:2])
    lines = _lines(p)
    for i in (5, 9):
        o = json.loads(lines[i - 1])
        o["comment\x1b[2J"] = "hello"
        lines[i - 1] = json.dumps(o)
    lines[0] = json.dumps({"format": "liujia.jsonl/1", "made_by": "x"})
    _write_lines(p, lines)
    r = jr.read_jsonl(p)
    assert r.ok and [g.events for g in r.games] == small_games[:2]
    assert [(w.code, w.line) for w in r.warnings] == [("unknown_field", 1),
                                                      ("unknown_field", 5)]
    assert "1 more line" in str(r.warnings[1]) and "\x1b" not in str(r.warnings[1])
    s = jr.read_jsonl(p, strict=True)
    assert not s.ok and not s.warnings
    assert [(x.code, x.line) for x in s.problems] == [("unknown_field", 1)]
    assert s.games[0].error.code == "unknown_field" and s.games[0].error.line == 5
    assert s.games[1].error is None


@pytest.mark.parametrize(("first", "code"), [
    ('{"game_id": "g1", "seq": 0}', "not_a_log"),
    ("hello", "not_a_log"),
    ('{"format": "liujia.jsonl/2"}', "unsupported_format"),
    ('{"format": "liujia.jsonl/1", "event_schema": 2}', "unsupported_format"),
])
def test_a_file_without_the_header_is_not_a_log(tmp_path, first, code):
    p = _write_lines(tmp_path / "a.jsonl", [first])
    with pytest.raises(NotALog) as e:
        jr.read_jsonl(p)
    assert e.value.code == code


def test_empty_bom_and_blank_lines(tmp_path, small_games):
    p = tmp_path / "e.jsonl"
    p.write_bytes(b"")
    r = jr.read_jsonl(p)
    assert [x.code for x in r.problems] == ["empty"] and not r.games
    jl.write_jsonl(p, small_games[:1])
    lines = _lines(p)
    p.write_bytes(b"\xef\xbb\xbf" + "\n\n".join(lines).encode() + b"\r\n\n   \n")
    r = jr.read_jsonl(p)
    assert r.ok and r.games[0].events == small_games[0]
    assert r.games[0].lines[:2] == [3, 5]                   # the real line numbers


def test_split_game_torn_tail_and_no_start(tmp_path, small_games):
    a, b = small_games[0], small_games[1]
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, [a[:5], b, a[5:]])
    r = jr.read_jsonl(p)
    assert [g.game_id for g in r.games] == [a[0].game_id, b[0].game_id, a[0].game_id]
    assert r.games[2].error.code == "split" and r.games[2].error.line == 5 + len(b) + 2
    jl.write_jsonl(p, [a])
    text = p.read_text()
    p.write_text(text[:-30])                                # cut within the last line
    g = jr.read_jsonl(p).games[0]
    assert g.error.code == "torn" and g.events == a[:-1] and not g.complete
    jl.write_jsonl(p, [a[1:]])
    assert jr.read_jsonl(p).games[0].error.code in ("gap", "no_start")


def test_a_line_of_no_known_game_is_placed_by_the_next_line(tmp_path, small_games):
    a, b = small_games[0], small_games[1]
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, [a, b])
    lines = _lines(p)
    junk = [*lines[:1], "not json", *lines[1:]]            # before the first game's seq 0
    r = jr.read_jsonl(_write_lines(p, junk))
    assert [(x.code, x.line) for x in r.problems] == [("bad_json", 2)]
    assert [g.error for g in r.games] == [None, None]
    end = 1 + len(a)                                       # a's GAME_END line
    tail = [*lines[:end - 1], "not json", *lines[end:]]    # a's last line, b begins at seq 0
    r = jr.read_jsonl(_write_lines(p, tail))
    assert (r.games[0].error.code, r.games[0].error.line) == ("bad_json", end)
    assert r.games[1].error is None and not r.problems
    head = [*lines[:end], "not json", *lines[end + 1:]]    # b's GAME_START: b goes on at seq 1
    r = jr.read_jsonl(_write_lines(p, head))
    assert r.games[0].error is None and r.games[0].events == a
    assert (r.games[1].error.code, r.games[1].error.line, r.games[1].game_id) == \
        ("bad_json", end + 1, b[0].game_id) and not r.problems
    last = [*lines[:-1], "not json"]                       # at the very end: the last game
    r = jr.read_jsonl(_write_lines(p, last))
    assert r.games[1].error.line == len(lines) and r.games[1].events == b[:-1]


def test_limits_are_enforced_without_holding_the_input(tmp_path, small_games, monkeypatch):
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, small_games)
    monkeypatch.setattr(jr, "MAX_LINE_BYTES", 300)
    r = jr.read_jsonl(p)              # GAME_START lines are longer: each game's first line
    assert [g.game_id for g in r.games] == [g[0].game_id for g in small_games]
    starts = [1 + sum(map(len, small_games[:i])) + 1 for i in range(3)]
    assert [(g.error.code, g.error.line, g.first_line, g.events) for g in r.games] == \
        [("line_too_long", n, n, []) for n in starts] and not r.problems
    monkeypatch.undo()
    monkeypatch.setattr(jr, "MAX_LINES", len(small_games[0]) + 10)
    r = jr.read_jsonl(p)
    assert [x.code for x in r.problems] == ["too_big"]
    assert r.games[0].error is None and r.games[1].events == small_games[1][:9]
    monkeypatch.undo()
    monkeypatch.setattr(jr, "MAX_GAME_EVENTS", 20)
    assert {g.error.code for g in jr.read_jsonl(p).games} == {"too_long"}


def test_too_many_distinct_tags_is_refused_before_arrow_would(tmp_path, small_games):
    g = small_games[0]
    events = seal_events([g[0], *[g[1]._replace(seq=i, tag=f"t{i}") for i in range(1, 140)]])
    p = tmp_path / "a.jsonl"
    jl.write_jsonl(p, [events])
    err = jr.read_jsonl(p).games[0].error
    assert (err.code, err.field, err.seq) == ("bad_field", "tag", 128)


def test_a_damaged_gzip_keeps_the_lines_before(tmp_path, small_games):
    p = tmp_path / "a.jsonl.gz"
    jl.write_jsonl(p, small_games)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    r = jr.read_jsonl(p)
    assert [x.code for x in r.problems] == ["bad_gzip"]
    assert r.games and r.games[0].events == small_games[0]
    p.write_bytes(b"this is not gzip at all\n")
    with pytest.raises(NotALog):
        jr.read_jsonl(p)


def test_a_folder_is_refused_as_io_and_scan_finds_every_format(tmp_path, small_games):
    (tmp_path / "d.jsonl").mkdir()
    with pytest.raises(NotALog) as e:
        jr.read_jsonl(tmp_path / "d.jsonl")
    assert e.value.code == "io"
    write_log(tmp_path / "a.arrows", small_games[:1])
    jl.write_jsonl(tmp_path / "b.jsonl", small_games[:1])
    jl.write_jsonl(tmp_path / "c.jsonl.gz", small_games[:1])
    (tmp_path / "notes.txt").write_text("x")
    files, errors = jr.scan_files([tmp_path])
    assert [f.name for f in files] == ["a.arrows", "b.jsonl", "c.jsonl.gz"] and not errors


def test_digest_chain_is_the_arrow_one(tmp_path, small_games):
    """What a foreign writer computes: blake2b over the previous digest and canonical bytes."""
    g = small_games[0]
    prev = bytes(16)
    for e in g:
        prev = chain_digest(prev, e)
        assert prev == e.digest
    write_log(tmp_path / "a.arrows", [g])
    jl.write_jsonl(tmp_path / "a.jsonl", [g])
    assert read_log(tmp_path / "a.arrows").games[0].final_digest == \
        jr.read_jsonl(tmp_path / "a.jsonl").games[0].final_digest


# --- the schema and the worked examples ----------------------------------------------------


def _validator() -> jsonschema.Draft202012Validator:
    s = jl.schema()
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


def test_the_schema_ships_as_package_data():
    assert jl.SCHEMA_PATH.parent == ROOT / "engine" and jl.SCHEMA_PATH.is_file()
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = cfg["tool"]["setuptools"]["package-data"]["engine"]
    assert any(jl.SCHEMA_PATH.match(g) for g in globs)


def example_path(game: str) -> Path:
    """A game's worked example: docs/examples/<game>.jsonl for a game liujia ships; a plug-in
    game's (the tests' 小墩) is its test data, tests/games/<package>/<game>.jsonl."""
    if game in BUILT_IN:
        return EXAMPLES / f"{game}.jsonl"
    return ROOT / "tests" / "games" / package_of(game) / f"{game}.jsonl"


def test_every_registered_game_has_a_worked_example():
    assert sorted(p.name for p in EXAMPLES.glob("*.jsonl")) == sorted(
        f"{g}.jsonl" for g in BUILT_IN)
    assert all(example_path(g).is_file() for g in GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_worked_example_validates_against_schema_reader_and_engine(game, tmp_path):
    """docs/examples/<game>.jsonl (a plug-in's: ``example_path``); tools/jsonl_examples.py
    writes them again."""
    path = example_path(game)
    v = _validator()
    for i, line in enumerate(_lines(path), start=1):
        errors = [e.message for e in v.iter_errors(json.loads(line))]
        assert not errors, (i, errors)
    r = jr.read_jsonl(path, strict=True)
    assert r.ok and len(r.games) == 1 and not r.warnings
    verdict = validate_events(r.games[0].events)
    assert verdict.status == "ok" and verdict.game.GAME_ID == game
    write_log(tmp_path / "x.arrows", [r.games[0].events])           # and as an Arrow log
    assert read_log(tmp_path / "x.arrows").games[0].events == r.games[0].events


@pytest.mark.parametrize("line", [
    {"format": "liujia.jsonl/1", "extra": 1},
    {"format": "liujia.jsonl/2"},
    {"game_id": "g", "seq": 0, "ts": "x", "kind": "PLAY", "digest": "0" * 32},
    {"game_id": "g", "seq": -1, "ts": 0, "kind": "PLAY", "digest": "0" * 32},
    {"game_id": "g", "seq": 0, "ts": 0, "kind": "play", "digest": "0" * 32},
    {"game_id": "g", "seq": 0, "ts": 0, "kind": "PLAY", "digest": "0" * 31},
    {"game_id": "g", "seq": 0, "ts": 0, "kind": "PLAY", "digest": "0" * 32, "cards": ["1x"]},
    {"game_id": "g", "seq": 0, "ts": 0, "kind": "PLAY", "digest": "0" * 32, "seat": 128},
    {"game_id": "g", "seq": 0, "ts": 0, "kind": "PLAY", "digest": "0" * 32, "payload": 1},
    {"game_id": "a b", "seq": 0, "ts": 0, "kind": "PLAY", "digest": "0" * 32},
    {"seq": 0, "ts": 0, "kind": "PLAY", "digest": "0" * 32},
])
def test_schema_and_reader_reject_the_same_bad_lines(line):
    assert list(_validator().iter_errors(line))
    if "format" not in line:
        with pytest.raises(jl.JsonlError):
            jl.event_from_obj(line)


def test_parse_ts_of_a_cached_day_is_the_full_parse():
    import engine.jsonl as jl

    texts = ["2026-03-01T00:00:00Z", "2026-03-01T23:59:59.999999Z", "2026-03-01T12:34:56.5Z",
             "2026-03-01T01:02:03+08:00", "1969-12-31T23:59:59.000001Z"]
    jl._DAY_US.clear()
    cold = []
    for t in texts:
        jl._DAY_US.clear()
        cold.append(jl.parse_ts(t))
    warm = [jl.parse_ts(t) for t in texts + texts]       # the days now cached
    assert warm == cold + cold
    assert cold[0] == 1772323200 * 1_000_000 and cold[2] - cold[0] == 45_296_500_000
    for bad in ("2026-03-01T24:00:00Z", "2026-03-01T23:60:00Z", "2026-03-01T23:00:60Z"):
        with pytest.raises(ValueError, match="not a valid date"):
            jl.parse_ts(bad)


def _outcome(read, text: str):
    """What a line reader makes of a text: its event and unknown fields, or its refusal."""
    try:
        return "ok", read(text)
    except jl.JsonlError as exc:
        return "refused", (exc.code, exc.message, exc.field)


_HOSTILE = [None, True, False, 0, -1, 5.0, 1e400, 2 ** 32, 2 ** 63, -129, 128, 40000, "",
            "5", "x" * 300, "\ud800", "play", "PLAY", "P-LAY", "2026-01-01T00:00:00Z",
            "2026-01-01T00:00:00+08:00", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z",
            1767225600000000, "ABCDEF" * 6, "0" * 32, "0" * 31, "0" * 33, "G" * 32, [], {},
            ["Th"], ["Th", "BJ"], ["th"], ["1h"], [10], [["Th"]], [None], ["Th"] * 70000,
            {"a": 1}, [1, 2], "g-1", "../x", "a b", "é"]


_HUGE = next(v for v in _HOSTILE if isinstance(v, list) and len(v) > jl.MAX_CARDS)


def _hostile_texts(lines: list[str]):
    """Damaged and hostile spellings of real event lines: every field dropped, set to each
    hostile value, unknown and duplicate keys, JSON constants, torn and flipped bytes.

    The one huge value (more faces than MAX_CARDS, ~420 KB of text) goes into a field once
    per game, event kind, set of fields and field: the same refusal or unknown field each
    further time, which cost 98% of the text read (3,602 such lines of 1.5 GB; now 514)."""
    import random

    rng = random.Random(24)
    huge_done: set[tuple] = set()
    for text in lines:
        yield text
        obj = json.loads(text)
        for k in list(obj) + ["payload", "cards", "tag", "extra"]:
            if k in obj:
                yield json.dumps({x: v for x, v in obj.items() if x != k})
            for v in rng.sample(_HOSTILE, 8):
                ascii_only = rng.random() < 0.5          # drawn always: the same cases follow
                if v is _HUGE:
                    sig = (obj.get("game_id", "").rsplit("-", 2)[0], obj.get("kind"),
                           tuple(obj), k)
                    if sig in huge_done:
                        continue
                    huge_done.add(sig)
                yield json.dumps({**obj, k: v}, ensure_ascii=ascii_only)
        yield text[:-1] + ', "seq": 0}'                     # a duplicate key, last wins
        yield text[:-1] + ', "seat": NaN}'
        yield text[:-1] + ', "value": 1e999}'
        yield text.replace('"seq": ', '"seq": 1.0e0 + ', 1)
        yield "\ufeff" + text
        yield text[: rng.randrange(len(text))]
        for _ in range(3):
            i = rng.randrange(len(text))
            yield text[:i] + chr(rng.randrange(32, 0x3000)) + text[i + 1:]
        yield text.replace(": ", ":").replace(", ", ",")        # another spelling, same event


def test_the_fast_read_of_plain_lines_equals_the_strict_read(every_game):
    """parse_own_line (the record server's recovery: plain_event, else the strict reader)
    gives exactly parse_line's event, unknown fields or refusal, for real lines of every game
    and for damaged and hostile ones; and the fast path does serve the plain lines."""
    lines = [jl.event_line(e) for games in every_game.values() for e in games[0]]
    served = seen = 0
    for text in _hostile_texts(lines):
        seen += 1
        want = _outcome(jl.parse_line, text)
        assert _outcome(jl.parse_own_line, text) == want, text
        try:
            obj = jl.strict_loads(text)
        except jl.LineProblem:
            continue
        fast = jl.plain_event(obj)
        if fast is not None:
            served += 1
            assert want == ("ok", (fast, [])), text
    plain = sum(1 for t in lines if jl.plain_event(json.loads(t)) is not None)
    assert plain >= 0.9 * len(lines) and served > plain and seen > 40 * len(lines)
