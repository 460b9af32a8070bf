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
