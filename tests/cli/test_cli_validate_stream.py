"""``liujia validate`` in bounded memory: the final states a run keeps for its sessions' links
packed (``PackedFinals``) and each file's rows packed (``PackedRows``) give the report a plain
dict and list give; a run over many files prints what it printed before."""

from __future__ import annotations

import json

from engine.log import write_log
from engine.replay import fold
from engine.sim import simulate
from engine.verdict import session_link
from liujia.cli import main
from liujia.commands.validate import validate_file
from liujia.commands.validate_stream import PackedFinals, PackedRows, _pack


def test_packed_final_states_are_the_states(tmp_path):
    hands = [g.events for g in simulate("liuhu", 6, seed=4)]
    finals = PackedFinals(keep=1)
    states = {}
    for h in hands:
        states[h[0].game_id] = finals[h[0].game_id] = fold(h).state
    assert len(finals) == 6 and sorted(finals) == sorted(states)
    for h in hands[1:]:
        prev = json.loads(h[0].payload)["previous_game"]
        assert prev in finals and finals[prev] == states[prev]
        assert session_link(h[0], finals[prev]) is None
    del finals[hands[0][0].game_id]
    assert hands[0][0].game_id not in finals and len(finals) == 5


def test_sessions_linked_across_files_with_packed_states(tmp_path):
    """Hand 4 replaced by another session's (the same ids, legal alone): refused against hand
    3's final state read back from its packed form, in another file, as with a plain dict."""
    hands = [g.events for g in simulate("liuhu", 6, seed=4)]
    other = [g.events for g in simulate("liuhu", 6, seed=4, policy_name="greedy")]
    write_log(tmp_path / "a.arrows", hands[:3])
    write_log(tmp_path / "b.arrows", [other[3], *hands[4:]])
    plain: dict = {}
    packed = PackedFinals(keep=1)
    for name in ("a.arrows", "b.arrows"):
        want = list(validate_file(tmp_path / name, plain).rows)
        assert list(validate_file(tmp_path / name, packed).rows) == want
    assert [r["status"] for r in want] == ["illegal", "illegal", "ok"]


def test_packed_rows_are_a_list_of_rows():
    rows = [{"file": "f", "game_id": f"g{i}", "status": "ok", "n": (i, [i])} for i in range(4)]
    packed = PackedRows([_pack(r) for r in rows], {"signature": "unsigned"})
    want = [{**r, "signature": "unsigned"} for r in rows]
    assert list(packed) == want and len(packed) == 4 and packed[1] == want[1]
    assert packed[1:3] == want[1:3]
    packed[0] = {"file": "f", "status": "corrupt", "signature": "bad"}
    assert packed[0] == {"file": "f", "status": "corrupt", "signature": "unsigned"}
    packed.append(want[0])
    del packed[1]
    assert [r.get("game_id") for r in packed] == [None, "g2", "g3", "g0"]


def test_a_run_of_many_files_reports_the_same(tmp_path, capsys):
    """Files read one after the other: the summary and the session notes from the run's
    tally (an unsealed file: a file-level row, its game ok), the exit code 1."""
    hands = [g.events for g in simulate("liuhu", 6, seed=4)]
    for i, h in enumerate(hands):
        if i != 3:
            write_log(tmp_path / f"h{i}.arrows", [h])
    (tmp_path / "h5.arrows").write_bytes((tmp_path / "h5.arrows").read_bytes()[:-30])
    assert main(["validate", str(tmp_path), "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == ("5 file(s): 5 ok; 1 file(s) with problems; "
                                    "5 unsigned: a seal and a chain show damage, not who wrote "
                                    "a log (anyone can rewrite and re-seal an unsigned one: sign "
                                    "with 'liujia sign', check with --require trusted)")
    assert f"note: game {hands[4][0].game_id} names previous game {hands[3][0].game_id}" in err
