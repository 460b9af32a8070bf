"""Golden playthroughs: a text rendering of every event and state of seeded 小墩 games.

Regenerate after an intended change, then review the diff:
``LIUJIA_GAMES=toy_tricks=tests.toygame .venv/bin/python -m tests.games.toygame.golden``
"""

from __future__ import annotations

from pathlib import Path

from engine.games import find_game
from engine.replay import Replay
from engine.sim import simulate
from tests.golden_files import write_golden

HERE = Path(__file__).parent / "golden"
CASES = {  # file name -> (seed, policy, options)
    "random-4p-seed7.txt": (7, "random", {}),
    "greedy-3p-seed11-last-bonus.txt": (11, "greedy", {"trick_players": 3,
                                                       "trick_hand_size": 4,
                                                       "trick_last_bonus": True}),
}


def playthrough(seed: int, policy: str, options: dict) -> str:
    """The text of one seeded game: each event, then the auditor's table after it."""
    g = find_game("toy_tricks")
    sim = next(simulate("toy_tricks", 1, seed, policy_name=policy,
                        options=g.Options(**options)))
    rep = Replay(sim.events)
    out = []
    for e, s in zip(rep.events, rep.states(), strict=True):
        out.append(f"=== {e.describe()}" if e.kind != "GAME_START" else
                   f"=== seq 0 GAME_START leader {e.value} ({e.tag})")
        if e.kind not in ("GAME_START", "DEAL"):
            out.append(g.render(s))
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every golden file."""
    write_golden(HERE, CASES, playthrough)


if __name__ == "__main__":
    main()
