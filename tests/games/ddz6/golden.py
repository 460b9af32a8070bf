"""Golden playthroughs: a text rendering of every event and state of seeded 六人斗地主 games,
one per variant (two with the house-rule options of their second conformance option set).

Regenerate after an intended change, then review the diff:
``.venv/bin/python -m tests.games.ddz6.golden``
"""

from __future__ import annotations

from pathlib import Path

from engine.games import find_game
from engine.replay import Replay
from engine.sim import simulate
from tests.golden_files import write_golden

HERE = Path(__file__).parent / "golden"
CASES = {  # file name -> (game, seed, policy, options)
    "3v3-random-seed7.txt": ("ddz6_3v3", 7, "random", {}),
    "2v4-greedy-seed11-alt-options.txt": ("ddz6_2v4", 11, "greedy", {
        "no_bomb_autowin": "farmers", "airplane_order": "chain", "base_score": 2}),
    "zhengfan-greedy-seed5-alt-options.txt": ("ddz6_zhengfan", 5, "greedy", {
        "no_bomb_autowin": "off", "qixingju_lock": "off"}),
}


def playthrough(game: str, seed: int, policy: str, options: dict) -> str:
    """The text of the first game of a seeded simulation: each event, then the auditor's table
    after it (from the first event after the deal)."""
    g = find_game(game)
    sim = next(iter(simulate(game, 1, seed, policy_name=policy, options=g.Options(**options))))
    rep = Replay(sim.events)
    out = []
    for e, s in zip(rep.events, rep.states(), strict=True):
        out.append(f"=== {e.describe()}")
        if e.kind not in ("GAME_START", "DEAL"):
            out.append(g.render(s))
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every golden file."""
    write_golden(HERE, CASES, playthrough)


if __name__ == "__main__":
    main()
