"""``liujia simulate --policy``: every policy name a registered game's POLICIES offers is a
choice, checked against the chosen game (one usage line, exit 2, otherwise)."""

from __future__ import annotations

import pytest

from engine.games import GAMES, find_game
from engine.log import read_log
from liujia.cli import main
from liujia.commands.simulate import PolicyNames, policy_error


def test_the_choices_are_every_policy_of_every_game():
    names = {n for g in GAMES for n in find_game(g).POLICIES}
    assert set(PolicyNames()) == names and len(PolicyNames()) == len(names)
    assert {"random", "greedy", "random_timeouts", "greedy_timeouts"} <= names
    assert "random_timeouts" in PolicyNames() and "bogus" not in PolicyNames()


@pytest.mark.parametrize("policy", ["random_timeouts", "greedy_timeouts"])
def test_ddz6_timeout_policies_simulate(tmp_path, capsys, policy):
    out = tmp_path / policy
    assert main(["simulate", "--game", "ddz6_3v3", "--games", "1", "--seed", "3", "--out",
                 str(out), "--quiet", "--policy", policy]) == 0
    [f] = sorted(out.glob("*.arrows"))
    assert len(read_log(f).games) == 1
    assert main(["validate", str(out)]) == 0


def test_a_policy_the_game_lacks_is_one_usage_line(tmp_path, capsys):
    game = next(g for g in sorted(GAMES) if "random_timeouts" not in find_game(g).POLICIES)
    assert main(["simulate", "--game", game, "--games", "1", "--out", str(tmp_path / "x"),
                 "--quiet", "--policy", "random_timeouts"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{game} has no such policy" in err
    assert "random" in err.split("its policies are ", 1)[1]
    assert not (tmp_path / "x").exists()
    assert policy_error(game, "random") is None


def test_an_unknown_policy_is_refused_by_argparse(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--out", str(tmp_path), "--policy", "bogus"])
    assert exc.value.code == 2
    assert "random_timeouts" in capsys.readouterr().err


def test_a_liuhu_session_is_one_game_of_its_hands(tmp_path, capsys):
    """Without --session-games, 扑克六湖 sessions are its ``hands`` (LH-68): 8 hands of a
    3-hand game make sessions 3 + 3 + 2, each hand numbered in its session."""
    import json

    from engine.log import read_log
    assert main(["simulate", "--game", "liuhu", "--games", "8", "--seed", "5", "--option",
                 "hands=3", "--out", str(tmp_path), "--quiet"]) == 0
    capsys.readouterr()
    starts = [json.loads(g.events[0].payload) for f in sorted(tmp_path.glob("*.arrows"))
              for g in read_log(f).games]
    assert [p["hand"] for p in starts] == [1, 2, 3, 1, 2, 3, 1, 2]
