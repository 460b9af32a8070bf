"""Registry of the games the engine knows: ``find_game("keng")``.

Every layer outside ``engine/games`` (self-play, replay, ingest, warehouse, dashboards, the
``liujia`` command, the conformance suite) reaches a game only through the object
``find_game`` returns, so adding a game is adding its package, its shipped rules file and one
entry to ``GAMES``. An entry is ``"package"`` (the package is the game) or
``"package:NAME"`` (a variant: the package's ``VARIANTS[NAME]``, an object with the same
names, so that one package may register several variants sharing its code). What a game
provides is the ``GameModule`` protocol (docs/engine.md describes each name);
``missing_names`` lists what an object lacks.

Optional hooks, outside the protocol and ``INTERFACE`` (a game without them is complete; callers
use ``getattr(game, name, None)``):

- ``event_hidden(e: Event, seat: int | None) -> bool``: True if the seat does not see that
  the event happened at all (扑克六湖: another seat's RESPOND, LH-70); the auditor (None) sees
  everything. Without it nothing is hidden. Event lists for a seat (``dashboards.events``,
  ``liujia replay --seat``) drop such events and number the rest in the seat's own count
  (``seen_numbers``): the log's seqs would show by their gaps how many events were hidden.
- ``window_seats(state) -> tuple[int, ...]``: the seats that answer an open window together
  (扑克六湖's claim window, LH-34), their answers logged one after another; the audit names
  them all as able to act at each answer, and the event that opened the window as the one
  they answer. Without it, a game's answers are sequential.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from engine.errors import EngineError, IllegalMove
from engine.events import Event
from engine.games.frame import Outcome

GAMES = {
    "keng": "engine.games.keng",
    "gouji": "engine.games.gouji",
    "modaoshuang": "engine.games.modaoshuang",
    "ddz6_3v3": "engine.games.ddz6:3v3",
    "ddz6_2v4": "engine.games.ddz6:2v4",
    "ddz6_zhengfan": "engine.games.ddz6:zhengfan",
    "liuhu": "engine.games.liuhu",
}


@runtime_checkable
class GameModule(Protocol):
    """What a registered game provides (a module or, for a variant, an object)."""

    GAME_ID: str            # the registry id, e.g. "keng"
    TITLE: str              # the name shown to people, e.g. "六人坑"
    RULE_PREFIX: str        # the rule-id prefix of its rules file, e.g. "KENG"
    SIDES: str              # "none", "fixed" or "formed" (engine.games.frame)
    Options: Any            # the frozen house-rule options: Options(**kw), .to_dict()
    DEMO: dict[str, Any]    # the demo corpus: {"games": N, "options": {...}, "session_games": k}
    CONFORMANCE: dict[str, Any]   # data for the conformance suite (docs/engine.md)
    POLICIES: dict[str, Any]      # self-play bots by name ("random", "greedy"): .choose(s, rng)

    def seat_count(self, options: Any) -> int:
        """How many seats a game with these options has."""

    def start_event(self, game_id: str, players: Sequence[str], rng: random.Random,
                    options: Any = None, **kw: Any) -> Event:
        """GAME_START with every option, the players and the shuffled deck."""

    def initial_state(self, e0: Event) -> Any:
        """The state right after GAME_START."""

    def step(self, state: Any, e: Event) -> None:
        """Check the event and apply it in place (raises before any change)."""

    def apply(self, state: Any, e: Event) -> Any:
        """The state after the event; the input is left as it was."""

    def check(self, state: Any, e: Event) -> None:
        """Raise if the event is not legal now; changes nothing."""

    def legal_actions(self, state: Any) -> list[Event]:
        """Every legal action now (the owed automatic event, else the seats' actions)."""

    def auto_event(self, state: Any, rng: random.Random | None = None) -> Event | None:
        """The automatic event owed now (a chance outcome drawn from rng), or None."""

    def next_auto(self, state: Any) -> str | None:
        """The kind of the automatic event owed now, or None."""

    def to_move(self, state: Any) -> int:
        """The seat whose action the game waits for (-1: none, an automatic event is owed)."""

    def is_over(self, state: Any) -> bool:
        """True once the game has ended."""

    def session_start(self, prev_final: Any) -> dict[str, Any]:
        """Keyword arguments of start_event for the next game of a session."""

    def check_session(self, start: Event, prev_final: Any) -> IllegalMove | None:
        """The rule a game breaks against the previous game of its session, or None."""

    def result(self, state: Any) -> dict[str, Any] | None:
        """The JSON-ready result of a finished game."""

    def outcomes(self, state: Any) -> tuple[Outcome, ...] | None:
        """Each seat's place, score and win/loss/draw once the game is over, else None."""

    def sides(self, state: Any, viewer: int | None = None) -> tuple[str | None, ...]:
        """Each seat's side as the viewer knows it (None: no side, or not known to him)."""

    def face_counts(self, state: Any) -> Any:
        """A Counter of every card face where it lies now (None while the deal is under way):
        the conformance suite checks it never changes."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What a seat knew (None: the auditor), as a JSON-ready dict."""

    def cards_visible(self, e: Event, seat: int | None) -> bool:
        """True if the seat may see all of this event's cards."""

    def seen_event(self, e: Event, seat: int | None) -> Event:
        """The event as the seat saw it: the cards it could see (all, none, or a part: a suit
        drawer sees the card it drew, not the stock order the same event records), private
        fields cleared (whether a 摸到爽 drawer held the suit); the auditor sees it whole."""

    def to_position(self, state: Any) -> dict[str, Any]:
        """The state as a position dict."""

    def from_position(self, pos: dict[str, Any]) -> Any:
        """A state from a position dict (raises InvalidEvent naming the field)."""

    def render(self, state: Any, seat: int | None = None) -> str:
        """The table as terminal text."""

    # Optional, not part of the protocol (see the module docstring): event_hidden(e, seat).


INTERFACE = tuple(
    name for name in (*GameModule.__annotations__,
                      *(n for n in vars(GameModule) if not n.startswith("_")))
    if not name.startswith("_") and name not in ("__annotations__",)
)

_CACHE: dict[str, Any] = {}


def seen_numbers(game: Any, events: Sequence[Event], seat: int | None) -> list[int]:
    """Each event's number as the seat counts them (-1: it did not see it happen, the game's
    ``event_hidden``): the events it saw numbered 0, 1, 2, …; the auditor's (None) are the
    seqs."""
    hidden = getattr(game, "event_hidden", None) if seat is not None else None
    if hidden is None:
        return [e.seq for e in events]
    out: list[int] = []
    n = 0
    for e in events:
        if hidden(e, seat):
            out.append(-1)
        else:
            out.append(n)
            n += 1
    return out


def find_game(game: str) -> Any:
    """The game (module or variant object) for a game id, e.g. ``find_game("keng")``."""
    found = _CACHE.get(game)
    if found is not None:
        return found
    try:
        path = GAMES[game]
    except (KeyError, TypeError):
        raise EngineError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}") from None
    module_name, _, variant = path.partition(":")
    found = importlib.import_module(module_name)
    if variant:
        found = found.VARIANTS[variant]
    _CACHE[game] = found
    return found


def package_of(game: str) -> str:
    """The last part of a game's package name ('keng', 'ddz6'): dashboards and bots are found
    by it."""
    return GAMES[game].partition(":")[0].rsplit(".", 1)[-1]


def missing_names(module: Any) -> list[str]:
    """The names of ``INTERFACE`` a game does not define (empty when it is complete)."""
    return [name for name in INTERFACE if not hasattr(module, name)]
