"""``liujia audit`` (issue 13): one report per game — integrity, the ruleset, every event's
verdict, the disputed moment in full, the result recomputed, out-of-turn and timed actions —
as text, JSON and one self-contained HTML file; exit 0 / 1 / 2."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.audit.report import build_report
from engine.commit import for_engine
from engine.decisions import categories
from engine.events import seal_events
from engine.games import GAMES, find_game
from engine.log import read_log, write_log
from engine.replay import Replay, validate_events
from engine.sim import simulate
from liujia.cli import main
from tests.options import options_for

CORPUS = 20                 # games per game type: a demo-sized corpus, cheap
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
HOUR = 3_600_000_000


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """No key of the machine's is trusted in these tests."""
    monkeypatch.setenv("LIUJIA_HOME", str(tmp_path / "home"))


def _options(game: str):
    return options_for(game, seats=4)


@pytest.fixture(scope="module", params=sorted(GAMES))
def corpus(request, tmp_path_factory):
    """(game, log file, games) for every registered game: a sealed log of CORPUS seeded
    games, their deals committed."""
    game = request.param
    games = [g.events for g in simulate(game, CORPUS, seed=31, options=_options(game),
                                        commit=True, session_games=5)]
    path = tmp_path_factory.mktemp(f"audit-{game}") / f"{game}.arrows"
    write_log(path, games)
    return game, path, games


@pytest.fixture(scope="module")
def keng_games():
    return [g.events for g in simulate("keng", 3, seed=4, session_games=3, commit=True)]


def _json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["audit", *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def _resealed(games):
    return [seal_events([e._replace(digest=b"") for e in g]) for g in games]


# ---------------------------------------------------------------- every game

def test_every_game_recomputes_the_logged_result(corpus, capsys, monkeypatch, tmp_path):
    game, path, games = corpus
    events = max(games, key=len)
    monkeypatch.setenv("LIUJIA_DB", str(tmp_path / "none.duckdb"))   # no warehouse: no anchor
    code, r = _json(capsys, str(path), "--game", events[0].game_id)
    assert code == 0, r["summary"]
    assert r["game"]["id"] == game and r["verdict"]["status"] == "ok"
    logged = json.loads(for_engine(events[-1]).payload)
    assert "reveal" not in logged and r["result"]["logged"] == logged
    final = Replay(events).final
    g = find_game(game)
    assert r["result"]["recomputed"] == json.loads(json.dumps(g.result(final)))
    assert r["result"]["state"] == "same" and all(f["same"] for f in r["result"]["fields"])
    assert [o["score"] for o in r["result"]["outcomes"]] == [o.score for o in g.outcomes(final)]
    assert [e["seq"] for e in r["events"]] == list(range(len(events)))
    assert {e["verdict"] for e in r["events"]} == {"ok"}
    start = json.loads(events[0].payload)
    assert r["options"] == start["options"] and r["rules_version"] == start["rules_version"]
    states = {c["name"]: c["state"] for c in r["integrity"]}
    assert states.pop("session") in ("first", "ok")       # a later game follows its previous
    assert states == {"seal": "ok", "chain": "ok", "signature": "unsigned",
                      "file_chain": "unsigned", "commitment": "verified",
                      "anchor": "none", "clock": "ok"}


def test_the_corpus_results_equal_the_logged_ones(corpus):
    """Over CORPUS games of each type: recomputed result == logged, field by field."""
    _, _, games = corpus
    for events in games:
        r = build_report(events)
        assert r["summary"]["ok"], (events[0].game_id, r["summary"])
        assert r["result"]["recomputed"] == json.loads(for_engine(events[-1]).payload)


def test_out_of_turn_actions_name_who_could_act_and_when(corpus):
    game, _, games = corpus
    seen = 0
    for events in games:
        rp = Replay(events)
        g = rp.game
        r = build_report(events)
        listed = {a["seq"]: a for a in r["timing"]["actions"]}
        for e in events[1:]:
            before = rp.state_at(e.seq - 1)
            if e.seat < 0 or g.next_auto(before) == e.kind or e.seat == g.to_move(before):
                continue
            a = listed[e.seq]                          # every out-of-turn action is listed
            assert "out of turn" in a["flags"] and a["seat"] == e.seat
            legal = g.legal_actions(before)
            assert a["could_act"] == sorted({x.seat for x in legal if x.seat >= 0})
            assert a["could_same"] == sorted({x.seat for x in legal if x.kind == e.kind})
            assert e.seat in a["could_same"] or e.tag == "void"     # a void 抢 is not listed
            assert a["answers"]["seq"] == e.seq - 1
            assert a["delay_us"] == e.ts - events[e.seq - 1].ts >= 0
            seen += 1
    if game in ("keng", "modaoshuang"):                # 抢, 报牌 and counts happen there
        assert seen > 0


# ---------------------------------------------------------------- forgeries

def test_a_tampered_resealed_log_names_the_seq_and_rule(keng_games, tmp_path, capsys):
    g = list(keng_games[1])
    i = next(i for i, e in enumerate(g) if e.kind == "PASS")
    g[i] = g[i]._replace(kind="PLAY", cards=(53,), value=0)
    bad = tmp_path / "tampered.arrows"
    write_log(bad, _resealed([keng_games[0], g, keng_games[2]]))
    assert read_log(bad).ok                                  # the forger re-chained it
    rule = validate_events(_resealed([g])[0]).error.rule_id
    gid = g[0].game_id
    assert main(["audit", str(bad), "--game", gid]) == 1
    out = capsys.readouterr().out
    assert f"illegal at seq {i}: {rule}:" in out
    assert out.splitlines()[1].startswith(f"PROBLEMS FOUND (1): illegal at seq {i}: {rule}:")
    assert f"seq {i}: ILLEGAL {rule}" in out and f"rule {rule}:" in out
    assert f"{rule} " in out and "**" not in out              # the rule's full text, plain
    code, r = _json(capsys, str(bad), "--game", gid)
    assert code == 1 and r["verdict"]["first_illegal"]["rule_id"] == rule
    assert r["events"][i]["verdict"] == "illegal" and r["events"][i + 1]["verdict"] == \
        "not replayed"
    assert r["focus"][0]["seq"] == i and not r["focus"][0]["legal"]["chosen_listed"]
    assert main(["audit", str(bad), "--game", keng_games[0][0].game_id]) == 0
    capsys.readouterr()


def test_a_forged_signed_file_is_named_in_integrity(keng_games, tmp_path, capsys):
    signed = tmp_path / "signed.arrows"
    write_log(signed, keng_games, signer=KEY)
    gid = keng_games[2][0].game_id
    code, r = _json(capsys, str(signed), "--game", gid)
    assert code == 0
    states = {c["name"]: c for c in r["integrity"]}
    assert states["signature"]["state"] == "untrusted" and states["file_chain"]["ok"]
    assert "game 3 of 3 in the file, signed as game 3 of 3" in states["file_chain"]["text"]
    data = signed.read_bytes()
    sig = data[data.rfind(b"LJSIG001"):]                  # the signature block, kept
    forged = tmp_path / "forged.arrows"
    write_log(forged, _resealed([keng_games[0], keng_games[2]]))     # game 2 dropped
    forged.write_bytes(forged.read_bytes() + sig)
    code, r = _json(capsys, str(forged), "--game", gid)
    assert code == 1
    states = {c["name"]: c for c in r["integrity"]}
    assert states["signature"]["state"] == "bad" and states["file_chain"]["state"] == "broken"
    missing = keng_games[1][0].game_id
    assert any(f"game {missing} (signed as game 2 of 3) is missing" in d
               for d in states["file_chain"]["details"])


def test_impossible_timestamps_are_flagged(keng_games, tmp_path, capsys):
    g = list(keng_games[0])
    g[10] = g[10]._replace(ts=g[10].ts - HOUR)
    path = tmp_path / "clock.arrows"
    write_log(path, _resealed([g]))
    code, r = _json(capsys, str(path), "--game", g[0].game_id)
    assert code == 1
    (b,) = r["timing"]["backwards"]
    assert b["seq"] == 10 and b["behind_us"] == g[9].ts - g[10].ts > 0
    assert "before the event it answers (seq 9" in b["text"]
    clock = next(c for c in r["integrity"] if c["name"] == "clock")
    assert clock["ok"] is False and "seq 10" in clock["text"]
    assert r["verdict"]["status"] == "illegal" and r["verdict"]["first_illegal"]["field"] == "ts"


# ---------------------------------------------------------------- the disputed moment

def _a_play(events):
    rp = Replay(events)
    for e in events[1:]:
        if e.kind == "PLAY" and rp.game.to_move(rp.state_at(e.seq - 1)) == e.seat:
            return e
    raise AssertionError("no play")


def test_seq_shows_every_view_the_legal_options_and_the_rules(keng_games, tmp_path, capsys):
    path = tmp_path / "k.arrows"
    write_log(path, keng_games)
    events = keng_games[0]
    e = _a_play(events)
    players = json.loads(events[0].payload)["players"]
    assert main(["audit", str(path), "--game", e.game_id, "--seq", str(e.seq)]) == 0
    out = capsys.readouterr().out
    moment = out[out.index(f"moment seq {e.seq} "):]
    assert "    auditor (every card):" in moment
    for k, p in enumerate(players):
        assert f"    seat {k} ({p}):" in moment
    action = e.describe().split(" ", 2)[2]
    assert f"    * {action}   <- chosen" in moment
    assert moment.count("<- chosen") == 1
    chosen_kind = re.search(r"decision: options .*; chosen (\w+)", moment).group(1)
    cited = re.findall(r"KENG-\d+", dict(categories("keng"))[chosen_kind])
    assert cited
    for rid in cited:                        # the full text of each rule the decision names
        assert re.search(rf"rule {rid}:\n\s+{rid}\b", moment), rid
    code, r = _json(capsys, str(path), "--game", e.game_id, "--seq", str(e.seq))
    (f,) = r["focus"]
    assert [v["seat"] for v in f["views"]] == [None, *range(len(players))]
    g = find_game("keng")
    before = Replay(events).state_at(e.seq - 1)
    assert f["views"][1]["view"] == json.loads(json.dumps(g.view(before, 0)))
    assert f["views"][1]["view"] != f["views"][0]["view"]           # seat 0 sees less
    chosen = [o for o in f["legal"]["options"] if o["chosen"]]
    assert len(chosen) == 1 and chosen[0]["action"] == action
    assert f["legal"]["count"] == len(g.legal_actions(before))
    assert all(x["text"].startswith(x["id"]) and "**" not in x["text"] for x in f["rules"]) \
        and f["rules"]


def test_seat_shows_every_action_of_that_seat(keng_games, tmp_path, capsys):
    path = tmp_path / "k.arrows"
    write_log(path, keng_games)
    events = keng_games[0]
    rp = Replay(events)
    g = rp.game
    want = [e.seq for e in events[1:] if e.seat == 3
            and g.next_auto(rp.state_at(e.seq - 1)) != e.kind]
    code, r = _json(capsys, str(path), "--game", events[0].game_id, "--seat", "3")
    assert code == 0 and [f["seq"] for f in r["focus"]] == want and want


def test_html_is_one_self_contained_file_with_hostile_ids_escaped(keng_games, tmp_path,
                                                                 capsys):
    events = list(keng_games[0])
    p = json.loads(events[0].payload)
    p["players"][0] = "<script>alert(1)</script>"
    p["players"][1] = '"><img src=https://evil.example/x.png>'
    p["players"][2] = "\u202egnp.exe\x1b[2J"
    events[0] = events[0]._replace(payload=json.dumps(p, ensure_ascii=False))
    path = tmp_path / "hostile.arrows"
    write_log(path, _resealed([events]))
    out = tmp_path / "report.html"
    gid = events[0].game_id
    assert main(["audit", str(path), "--game", gid, "--html", str(out)]) == 1   # ids refused
    assert f"wrote {out}" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "@media print" in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&quot;&gt;&lt;img src=https://evil.example/x.png&gt;" in text

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[tuple[str, list]] = []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, attrs))

    parser = Tags()
    parser.feed(text)
    names = {t for t, _ in parser.tags}
    assert not names & {"script", "img", "link", "iframe", "object", "embed"}, names
    for _, attrs in parser.tags:
        for k, v in attrs:
            assert k not in ("src", "href") and not k.startswith("on"), (k, v)
    # no external resource: the one url() is the report's own font, inline (engine/audit/fonts)
    assert not re.search(r"url\((?!data:font/woff2;base64,)|@import", text)
    assert text.count("url(") == 1
    code, r = _json(capsys, str(path), "--game", gid)       # the JSON escapes them as well
    assert code == 1 and r["players"][0] == "<script>alert(1)</script>"
    main(["audit", str(path), "--game", gid, "--json"])
    raw = capsys.readouterr().out
    assert "\u202e" not in raw and "\x1b" not in raw and "\\u202e" in raw


def test_html_of_an_ordinary_game(corpus, tmp_path, capsys):
    game, path, games = corpus
    e = games[0]
    out = tmp_path / "r.html"
    seq = len(e) // 2
    assert main(["audit", str(path), "--game", e[0].game_id, "--seq", str(seq), "--html",
                 str(out)]) == 0
    capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    assert text.count("<html") == 1 and "http://" not in text and "https://" not in text
    assert 'class="chosen"' in text and f"seq {seq} at " in text
    # a shared report names the log by its file name, not the folders it lay in
    assert f"file {path.name}" in text and str(path.parent) not in text


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("args, message", [
    (["--seq", "0"], "--seq 0 is outside 1-"),
    (["--seq", "99999"], "--seq 99999 is outside 1-"),
    (["--seat", "6"], "--seat 6: the game has seats 0-5"),
])
def test_usage_errors_are_one_line(keng_games, tmp_path, capsys, args, message):
    path = tmp_path / "k.arrows"
    write_log(path, keng_games)
    assert main(["audit", str(path), "--game", keng_games[0][0].game_id, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_inputs_are_usage_errors(keng_games, tmp_path, capsys):
    path = tmp_path / "k.arrows"
    write_log(path, keng_games)
    assert main(["audit", str(tmp_path / "nope"), "--game", "x"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["audit", str(path), "--game", "keng-nope"]) == 2
    assert "'keng-nope' is not in" in capsys.readouterr().err
    gid = keng_games[0][0].game_id
    with pytest.raises(SystemExit) as exc:
        main(["audit", str(path), "--game", gid, "--seq", "3", "--seat", "1"])
    assert exc.value.code == 2
    assert main(["audit", str(path), "--game", gid, "--html", str(tmp_path / "no" / "r.html")
                 ]) == 2
    assert "No such file or directory" in capsys.readouterr().err


def test_seq_after_the_first_illegal_event_is_refused(keng_games, tmp_path, capsys):
    g = list(keng_games[0])
    i = next(i for i, e in enumerate(g) if e.kind == "PASS")
    g[i] = g[i]._replace(kind="PLAY", cards=(53,), value=0)
    path = tmp_path / "t.arrows"
    write_log(path, _resealed([g]))
    assert main(["audit", str(path), "--game", g[0].game_id, "--seq", str(i + 1)]) == 2
    assert f"comes after the first illegal event (seq {i})" in capsys.readouterr().err
    code, r = _json(capsys, str(path), "--game", g[0].game_id, "--seq", str(i))
    assert code == 1 and r["focus"][0]["verdict"] == "illegal"
    assert r["focus"][0]["rules"][0]["id"] == r["verdict"]["first_illegal"]["rule_id"]


def test_a_changed_result_is_shown_field_by_field(keng_games, tmp_path, capsys):
    g = list(keng_games[0])
    logged = json.loads(g[-1].payload)
    logged["reason"] = "forged"
    g[-1] = g[-1]._replace(payload=json.dumps(logged, sort_keys=True, separators=(",", ":")))
    path = tmp_path / "result.arrows"
    write_log(path, _resealed([g]))
    code, r = _json(capsys, str(path), "--game", g[0].game_id)
    assert code == 1 and r["verdict"]["first_illegal"]["seq"] == len(g) - 1
    res = r["result"]
    assert res["state"] == "differs" and res["logged"]["reason"] == "forged"
    true = json.loads(for_engine(keng_games[0][-1]).payload)
    assert res["recomputed"] == true                  # the GAME_END the engine owed
    assert [f["field"] for f in res["fields"] if not f["same"]] == ["reason"]
    assert 'reason is "out", event says "forged"' in res["text"] or \
        "reason is" in res["text"], res["text"]
    assert len(res["outcomes"]) == 6
    assert any(p.startswith("the logged result differs") for p in r["summary"]["problems"])


def test_a_damaged_file_names_the_broken_seal_and_chain(keng_games, tmp_path, capsys):
    path = tmp_path / "k.arrows"
    write_log(path, keng_games)
    data = bytearray(path.read_bytes())
    g = keng_games[1]
    e = next(e for e in g if e.kind == "PLAY")
    i = data.find(e.digest)                          # a byte of one event's stored digest
    data[i] ^= 0x04
    path.write_bytes(bytes(data))
    log = read_log(path)
    assert {x.game_id: x.error is not None for x in log.games} == {
        keng_games[0][0].game_id: False, g[0].game_id: True, keng_games[2][0].game_id: False}
    code, r = _json(capsys, str(path), "--game", g[0].game_id)
    states = {c["name"]: c for c in r["integrity"]}
    assert code == 1 and states["seal"]["state"] == "broken"
    assert states["chain"]["state"] == "broken"
    assert f"after {e.seq} intact event(s)" in states["chain"]["text"]
    assert f"seq {e.seq}" in states["chain"]["text"]
    assert len(r["events"]) == e.seq                  # the intact prefix is audited
    code, r = _json(capsys, str(path), "--game", keng_games[0][0].game_id)
    assert code == 1 and {c["name"]: c["state"] for c in r["integrity"]}["chain"] == "ok"


def test_an_engine_failure_is_one_line_not_a_traceback(keng_games, tmp_path, capsys,
                                                       monkeypatch):
    path = tmp_path / "k.arrows"
    write_log(path, keng_games)

    def broken(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr("engine.audit.report.build_report", broken)
    assert main(["audit", str(path), "--game", keng_games[0][0].game_id]) == 1
    err = capsys.readouterr().err
    assert "the engine failed while auditing" in err and "boom" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_anchor_of_the_warehouse_is_checked(keng_games, tmp_path, capsys):
    """A game as first ingested matches its anchor; a rewritten copy contradicts it (exit 1)."""
    from ingest import ingest_paths
    logs, db = tmp_path / "logs", tmp_path / "w.duckdb"
    logs.mkdir()
    write_log(logs / "a.arrows", keng_games[:1])
    ingest_paths([logs], db=db, progress=False)
    gid = keng_games[0][0].game_id
    code, r = _json(capsys, str(logs / "a.arrows"), "--game", gid, "--db", str(db))
    states = {c["name"]: c for c in r["integrity"]}
    assert code == 0 and states["anchor"]["state"] == "ok"
    # files by name only (a report is shared): the warehouse's and the first log's folders not
    assert "from a.arrows" in states["anchor"]["text"]
    assert str(tmp_path) not in str(r["integrity"])
    other = next(iter(simulate("keng", 1, seed=55))).events
    forged = seal_events([e._replace(game_id=gid, digest=b"") for e in other])
    write_log(tmp_path / "forged.arrows", [forged])
    code, r = _json(capsys, str(tmp_path / "forged.arrows"), "--game", gid, "--db", str(db))
    anchor = {c["name"]: c for c in r["integrity"]}["anchor"]
    assert code == 1 and anchor["state"] == "contradicts" and "CONTRADICTS" in anchor["text"]


def test_a_hand_swapped_into_a_session_breaks_the_session_check(tmp_path, capsys):
    """A 扑克六湖 hand 4 from a session played otherwise (legal on its own, the same ids):
    the audit names the rule its start breaks against hand 3 (exit 1)."""
    hands = [g.events for g in simulate("liuhu", 6, seed=4)]
    other = [g.events for g in simulate("liuhu", 6, seed=4, policy_name="greedy")]
    write_log(tmp_path / "f.arrows", [*hands[:3], other[3], *hands[4:]])
    code, r = _json(capsys, str(tmp_path / "f.arrows"), "--game", hands[3][0].game_id)
    session = {c["name"]: c for c in r["integrity"]}["session"]
    assert code == 1 and session["state"] == "broken" and session["text"].startswith("LH-6")
    code, r = _json(capsys, str(tmp_path / "f.arrows"), "--game", hands[2][0].game_id)
    assert code == 0 and {c["name"]: c for c in r["integrity"]}["session"]["state"] == "ok"


def test_a_missing_db_is_a_usage_error(keng_games, tmp_path, capsys):
    write_log(tmp_path / "a.arrows", keng_games[:1])
    assert main(["audit", str(tmp_path / "a.arrows"), "--game", keng_games[0][0].game_id,
                 "--db", str(tmp_path / "none.duckdb")]) == 2
    assert "--db" in capsys.readouterr().err


def test_a_claim_windows_answers_name_every_eligible_seat_and_the_window_lh34():
    """扑克六湖's eligible seats answer a window together (LH-34), logged one after another:
    at each RESPOND the audit names them all as able to act, and the WINDOW as the event
    answered (not the answer logged before it)."""
    import json as js
    for seed in range(1, 60):
        events = next(iter(simulate("liuhu", 1, seed=seed, policy_name="greedy"))).events
        w = next((e for e in events if e.kind == "WINDOW" and e.payload
                  and len(js.loads(e.payload)["eligible"]) >= 2), None)
        if w is not None:
            break
    else:
        pytest.fail("no window with two eligible seats in 60 hands")
    eligible = sorted(int(x) for x in js.loads(w.payload)["eligible"])
    r = build_report(events)
    answers = [a for a in r["timing"]["actions"] if a["kind"] == "RESPOND"
               and a["answers"]["seq"] == w.seq]
    assert [a["seat"] for a in answers] == [
        e.seat for e in events[w.seq + 1:w.seq + 1 + len(eligible)]]
    assert all(a["could_act"] == eligible and a["answers"]["kind"] == "WINDOW"
               for a in answers) and len(answers) == len(eligible)
