"""validate notes a fixed-length session (扑克六湖: a game of `hands` hands, LH-68) of which
some games are missing from the logs."""

from __future__ import annotations

from engine.log import write_log
from engine.sim import simulate
from liujia.cli import main


def test_an_unfinished_liuhu_session_is_noted(tmp_path, capsys):
    hands = [g.events for g in simulate("liuhu", 6, seed=4)]
    write_log(tmp_path / "whole.arrows", hands)
    assert main(["validate", str(tmp_path / "whole.arrows")]) == 0
    assert "note:" not in capsys.readouterr().err                 # all 6 hands: no note
    write_log(tmp_path / "part.arrows", hands[:4])
    assert main(["validate", str(tmp_path / "part.arrows")]) == 0  # a note, not a failure
    err = capsys.readouterr().err
    assert "note: session liuhu-s4-00000 (扑克六湖): 4 of its 6 games are in these logs" in err


def test_a_hand_dropped_from_a_session_is_named(tmp_path, capsys):
    """Hand 4 left out: hand 5 names it as its previous game, which the logs lack."""
    hands = [g.events for g in simulate("liuhu", 6, seed=4)]
    write_log(tmp_path / "drop.arrows", hands[:3] + hands[4:])
    main(["validate", str(tmp_path / "drop.arrows")])
    err = capsys.readouterr().err
    assert (f"note: game {hands[4][0].game_id} names previous game {hands[3][0].game_id}, "
            "which is not in these logs") in err


def test_ingest_and_validate_agree_on_a_game_after_a_refused_one(tmp_path, capsys):
    """Hand 4 replaced by the hand 4 of a session played otherwise (the same ids, legal on its
    own): validate and ingest both refuse it (LH-66 / LH-68 against hand 3), and both check
    hand 5 against it, so neither loads hand 5."""
    import json

    from ingest import ingest_paths
    hands = [g.events for g in simulate("liuhu", 6, seed=4)]
    other = [g.events for g in simulate("liuhu", 6, seed=4, policy_name="greedy")]
    assert other[3][0].game_id == hands[3][0].game_id and other[3] != hands[3]
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "f.arrows", [*hands[:3], other[3], *hands[4:]])
    assert main(["validate", str(logs), "--json"]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    bad = {r["game_id"] for r in rows if r["status"] != "ok"}
    s = ingest_paths([logs], db=tmp_path / "w.duckdb", progress=False)
    refused = {q.game_id for q in s.issues}
    assert {hands[3][0].game_id, hands[4][0].game_id} <= bad and bad == refused
    reason = next(r["reason"] for r in rows if r["game_id"] == hands[3][0].game_id)
    assert "after hand 3" in reason or "from hand 3" in reason, reason
