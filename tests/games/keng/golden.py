"""Golden playthroughs: a text rendering of every state and action of seeded games.

Regenerate after an intended change, then review the diff:
``.venv/bin/python -m tests.games.keng.golden``
"""

from __future__ import annotations

from pathlib import Path

from engine.games import keng
from engine.replay import Replay
from engine.sim import simulate
from tests.golden_files import write_golden

HERE = Path(__file__).parent / "golden"
CASES = {  # file name -> (seed, policy, options)
    "random-seed7.txt": (7, "random", {}),
    "greedy-seed11-alt-options.txt": (11, "greedy", {
        "keng_tens": False, "keng_red_jokers": 5, "keng_rj_stack_value": 4,
        "keng_k_on_rj": True, "keng_pair_action": "once"}),
}


def playthrough(seed: int, policy: str, options: dict) -> str:
    """The text of the first game of a seeded simulation: each event, then the table."""
    game = next(iter(simulate("keng", 1, seed, policy_name=policy,
                              options=keng.KengOptions(**options))))
    rep = Replay(game.events)
    out = []
    for i, (e, s) in enumerate(zip(rep.events, rep.states(), strict=True)):
        out.append(f"=== {e.describe()}")
        if i >= 6:
            out.append(keng.GAME.render(s))
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every golden file."""
    write_golden(HERE, CASES, playthrough)


if __name__ == "__main__":
    main()
