"""The declared game: one typed ``Game`` value per registered game (``GAME`` of its package,
or one per variant), which every layer outside ``engine/games/<package>`` takes all it knows of
the game from (docs/engine.md, *A game is one declared object*).

Fields are grouped as the design groups them: identity and table, rules, information, words,
analytics, and the data the demo and the conformance suite use. Every optional hook has a
documented default here, so callers never probe with ``getattr``:

- ``session_length``: None, the session length is the ``--session-games`` the caller asks for
  (扑克六湖: the hands of one game of the rules, LH-68);
- ``annotate``: the event as it came (够级 fills a play's derived annotation, GJ-48);
- ``event_hidden``: ``never_hidden`` (扑克六湖: another seat's RESPOND, LH-70); event lists
  for a seat drop the hidden ones and number the rest in the seat's own count
  (``seen_numbers``);
- ``window_seats``: None, a game whose answers are sequential (扑克六湖's claim window,
  LH-34, names the seats that answer together);
- ``CHANCE_KINDS``: the event kinds that carry chance outcomes, committed to in GAME_START
  (``engine.commit``);
- ``CHANCE_AUTO``: none, the automatic event kinds whose content is drawn by chance during
  the game (a reshuffle, a cut, a deal not fixed by GAME_START's deck): ``auto_event`` needs a
  generator for them, and the recording service never derives them (a game server sends
  them; docs/record-server.md);
- ``decisions``: the game's decision hooks (``DecisionHooks``: docs/decisions.md);
- ``tendencies`` and ``key_tendencies``: the game's tendency catalog as data
  (``engine.tendency``), compiled to SQL by the warehouse.
- ``style_categories``: none, the game's decision categories for each role of the self-play
  styles (``engine.styles.ROLES``: aggressive, cautious, special, claim), from its ``bots``;
  a role the game leaves out is played by the style's base policy alone (docs/demo.md).
- ``standing_actions``: None, the standing options (``DecisionHooks.STANDING``: a 抢, a
  report) open now by any seat, for the self-play styles that take them out of turn; None:
  they are found among ``legal_actions`` (slower where those list many plays).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.commit import CHANCE_KINDS as COMMITTED_KINDS
from engine.events import Event
from engine.games.frame import GAME_RECORD, WIN_SCALE, RecordWords, ReviewScale
from engine.table import TableModel, text_table

if TYPE_CHECKING:
    from engine.errors import IllegalMove
    from engine.games.frame import OptionsBase, Outcome
    from engine.tendency import Tendency



def never_hidden(e: Event, seat: int | None) -> bool:
    """The default ``event_hidden``: every seat sees that every event happened."""
    return False


def as_logged(state: Any, e: Event) -> Event:
    """The default ``annotate``: the event as it came, nothing derived to fill in."""
    return e


@dataclass(frozen=True, slots=True)
class DecisionHooks:
    """A game's decision points (docs/decisions.md): its option categories, tags and phase
    words, the standing out-of-turn options, and the functions the collector calls per event.

    ``BY_KIND`` (event kind -> the function ``decision`` calls for it) and ``LAPSING`` (the
    kinds ``lapsed`` may return rows for) are optional speed-ups; absent or empty, the
    collector calls ``decision`` and ``lapsed`` for every kind."""

    DECISIONS: tuple[tuple[str, str], ...]        # (category, description), rule ids named
    TAGS: tuple[tuple[str, str], ...]             # (tag, description): game facts of a row
    PHASES: tuple[str, ...]                       # the game's phase words
    STANDING: Mapping[str, str]                   # {take: lapse}
    decision: Callable[[Any, Event], Any]         # (state before, event) -> Decision | None
    lapsed: Callable[[Any, Event], tuple[Any, ...]]   # the standing options this event ends
    action_category: Callable[[Any, Event], str | None]
    opposite_seat: Callable[[int, int], int]      # (seat, n seats) -> seat opposite, or -1
    BY_KIND: Mapping[str, Callable[[Any, Event], Any]] | None = None
    LAPSING: frozenset[str] | None = None

    @classmethod
    def of(cls, module: Any) -> DecisionHooks:
        """The hooks a game's decisions module defines (its ``DECISIONS``, ``TAGS``,
        ``PHASES``, ``STANDING``, ``decision``, ``lapsed``, ``action_category``,
        ``opposite_seat`` and, when it has them, ``BY_KIND`` and ``LAPSING``)."""
        ns = vars(module)
        lapsing = ns.get("LAPSING")
        return cls(DECISIONS=tuple(module.DECISIONS), TAGS=tuple(module.TAGS),
                   PHASES=tuple(module.PHASES), STANDING=dict(module.STANDING),
                   decision=module.decision, lapsed=module.lapsed,
                   action_category=module.action_category,
                   opposite_seat=module.opposite_seat, BY_KIND=ns.get("BY_KIND"),
                   LAPSING=None if lapsing is None else frozenset(lapsing))


class Fact(NamedTuple):
    """One fact of a game's catalog: ``name`` (snake_case id, stored in the warehouse),
    ``label`` (what people read, with the game's own term: "held a bomb (炸弹)") and
    ``description`` (when it is counted, rule ids named)."""

    name: str
    label: str
    description: str


@dataclass(frozen=True, slots=True)
class FactHooks:
    """A game's fact catalog and the function that finds facts in its replay."""

    FACTS: tuple[Fact, ...]
    after: Callable[[Any, Event], Iterable[tuple[int, str]]]   # (state after, event)
    KINDS: frozenset[str] | None = None      # the kinds ``after`` may return pairs for

    @classmethod
    def of(cls, module: Any) -> FactHooks:
        """The hooks a game's facts module defines (``FACTS``, ``after`` and, when it has
        it, ``KINDS``)."""
        kinds = vars(module).get("KINDS")
        return cls(FACTS=tuple(Fact(*f) for f in module.FACTS), after=module.after,
                   KINDS=None if kinds is None else frozenset(kinds))

    def names(self) -> tuple[str, ...]:
        """The fact names, in catalog order."""
        return tuple(f.name for f in self.FACTS)

    def label(self, name: str) -> str:
        """The readable label of a fact name (the name itself if it is not in the catalog)."""
        for f in self.FACTS:
            if f.name == name:
                return f.label
        return name


def no_facts(state: Any, event: Event) -> tuple[tuple[int, str], ...]:
    """The ``after`` of a game without a fact catalog: nothing happens."""
    return ()


NO_FACTS = FactHooks(FACTS=(), after=no_facts)


@dataclass(frozen=True, slots=True, eq=False)
class Game:
    """One registered game (or variant): identity and table, rules, information, words,
    analytics and test data, each a typed field (the module docstring lists the defaults)."""

    # ---- identity and table
    GAME_ID: str                       # the registry id, e.g. "keng"
    TITLE: str                         # the name shown to people, e.g. "六人坑"
    RULE_PREFIX: str                   # the rule-id prefix of its rules file, e.g. "KENG"
    RULES_FILE: tuple[str, str]        # (package, path) of its rules text: ("engine", "rules/keng.md")
    RULES_VERSION: str                 # written into GAME_START, e.g. "keng-1"
    SIDES: str                         # "none", "fixed" or "formed" (engine.games.frame)
    Options: type[OptionsBase]         # the frozen house-rule options: Options(**kw)
    seat_count: Callable[[Any], int]   # how many seats a game with these options has
    sides: Callable[..., tuple[str | None, ...]]   # (state, viewer=None): each seat's side
    outcomes: Callable[[Any], tuple[Outcome, ...] | None]  # place, score, win/loss/draw

    # ---- rules
    start_event: Callable[..., Event]  # (game_id, players, rng, options=None, **kw)
    initial_state: Callable[[Event], Any]
    step: Callable[[Any, Event], None]             # check, then apply in place
    apply: Callable[[Any, Event], Any]             # the state after; the input unchanged
    check: Callable[[Any, Event], None]            # raise if not legal now
    legal_actions: Callable[[Any], list[Event]]
    auto_event: Callable[..., Event | None]        # (state, rng=None): the owed automatic event
    next_auto: Callable[[Any], str | None]         # the kind of the owed automatic event
    to_move: Callable[[Any], int]                  # -1: none, an automatic event is owed
    is_over: Callable[[Any], bool]
    session_start: Callable[[Any], dict[str, Any]]  # start_event keywords of the next game
    check_session: Callable[[Event, Any], IllegalMove | None]
    result: Callable[[Any], dict[str, Any] | None]
    face_counts: Callable[[Any], Any]              # a Counter of every face (None mid-deal)

    # ---- information
    view: Callable[[Any, int | None], dict[str, Any]]
    cards_visible: Callable[[Event, int | None], bool]
    seen_event: Callable[[Event, int | None], Event]
    to_position: Callable[[Any], dict[str, Any]]
    from_position: Callable[[dict[str, Any]], Any]

    # ---- words: the table as a neutral model (engine.table) that one HTML and one text
    # renderer draw, and an event in a few words (no hidden information)
    table: Callable[..., TableModel]               # (view, players=None) -> TableModel
    describe: Callable[[Event], str]

    # ---- analytics
    decisions: DecisionHooks

    # ---- bots, demo corpus, conformance data
    POLICIES: Mapping[str, Any]                    # self-play bots by name: .choose(s, rng)
    DEMO: Mapping[str, Any]                        # weight, option_sets, session_games, policy
    CONFORMANCE: Mapping[str, Any]                 # option_sets, games, required_kinds, ...

    # ---- optional hooks, with their defaults
    session_length: Callable[[Any], int] | None = None
    annotate: Callable[[Any, Event], Event] = as_logged
    event_hidden: Callable[[Event, int | None], bool] = never_hidden
    window_seats: Callable[[Any], tuple[int, ...]] | None = None
    CHANCE_KINDS: tuple[str, ...] = COMMITTED_KINDS
    CHANCE_AUTO: frozenset[str] = frozenset()      # automatic kinds drawn by chance (below)
    tendencies: tuple[Tendency, ...] = ()          # its tendency catalog (engine.tendency)
    key_tendencies: tuple[str, ...] = ()           # the few the replay page shows per seat
    extras: Mapping[str, Any] = field(default_factory=dict)   # a game's own declared extras
    # review (engine.review): a full state consistent with what the seat knows, from the
    # state, the seat, a seeded generator and the events as the seat saw them (seen_event,
    # those event_hidden hides left out); None: the game cannot be reviewed yet
    sample_world: Callable[[Any, int, random.Random, Sequence[Event]], Any] | None = None
    review_scale: ReviewScale = WIN_SCALE          # how its decisions are valued and graded
    review_policy: str = "greedy"                  # the POLICIES entry rollouts play by
    facts: FactHooks = NO_FACTS                    # its fact catalog (engine.facts)
    record_words: RecordWords = GAME_RECORD        # how a player's record of it is told
    # the self-play styles' roles (engine.styles.ROLES) -> the game's decision categories
    style_categories: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    standing_actions: Callable[[Any], list[Event]] | None = None   # open standing options

    def __repr__(self) -> str:
        return f"<game {self.GAME_ID} ({self.TITLE})>"

    def render(self, state: Any, seat: int | None = None) -> str:
        """The table at this state as text, as seat sees it (None: the auditor): the game's
        table model (``table``) drawn by the one text renderer (``engine.table.text_table``)."""
        return text_table(self.table(self.view(state, seat), None))

    @property
    def hides_events(self) -> bool:
        """True if some seat may not see that some event happened (``event_hidden``)."""
        return self.event_hidden is not never_hidden
