"""Move review by determinisation (perfect-information Monte Carlo, as GIB in bridge): from the
seat's own information, sample complete worlds consistent with everything it saw (the game's
``sample_world``), play each candidate action forward in every world with the game's rollout
policy, and compare the candidates on the same worlds (and the same rollout dice).

A decision's review: each candidate's value (the seat's win probability or expected score,
``ReviewScale``) ± its standard error, the loss of the chosen action against the best (from
the paired differences, with its own error), the chance that the chosen action is best (a
seeded bootstrap over the worlds), a grade on the game's scale — withheld when the loss's
standard error exceeds half a step — and the line the best candidate led to in the first
world. Everything is drawn from generators seeded by (seed, seq, world): the same seed gives
the same review, whatever else was reviewed before it.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from engine.cards import format_faces
from engine.errors import EngineError
from engine.events import Event
from engine.games import find_game
from engine.games.base import Game
from engine.games.frame import DRAW, WIN, Outcome
from engine.replay import Replay, engine_events, game_module

GRADES = ("inaccuracy", "mistake", "blunder")
FLAG_P = 0.05            # NAGA-style flag: the chosen action's chance of being best below
                         # this, with a loss of at least the first step
Z95 = 1.96               # a loss whose 95 % interval lies past the last step is graded anyway
FUTILE_FROM = 128        # worlds after which a decision that cannot settle stops (_hopeless)
FUTILE_MARGIN = 1.0      # how much larger than 1/√n projects the errors are taken there
BOOTSTRAP = 200          # resamples of the worlds for the chance of being best
LINE = 12                # events of the better line kept
CYCLE_BREAK = 2_000      # events of a rollout after which it plays on by the random policy
MAX_ROLLOUT = 50_000     # events of one rollout before it is given up


@dataclass(frozen=True)
class Settings:
    """How hard a review looks: worlds per decision (from ``min_worlds``, in batches of
    ``batch`` until the grade is settled, at most ``max_worlds``) and candidates per decision
    (the chosen action always among them)."""

    seed: int = 0
    min_worlds: int = 16
    max_worlds: int = 64
    batch: int = 16
    candidates: int = 6


@dataclass
class Candidate:
    """One candidate action: its value ± standard error over the worlds, its chance of being
    best, and (for the best and the chosen) the line it led to in the first world."""

    action: Event
    value: float
    se: float
    p_best: float
    line: tuple[Event, ...] = ()


@dataclass
class DecisionReview:
    """The review of one decision: the candidates best first, the chosen one's index, the loss
    against the best ± its error, the grade (None when good or withheld) and why it was
    withheld, and the NAGA-style flag."""

    seq: int
    seat: int
    options: int
    candidates: list[Candidate]
    chosen: int
    loss: float
    loss_se: float
    grade: str | None
    withheld: str | None
    flag: bool
    worlds: int = field(default=0)

    @property
    def best(self) -> Candidate:
        """The candidate with the highest value."""
        return self.candidates[0]

    @property
    def marks(self) -> list[str]:
        """Per candidate: 'chosen', 'better' (above the chosen) or ''."""
        return marks(self.chosen, len(self.candidates))

    @property
    def grade_word(self) -> str:
        """The grade, else 'best' (the chosen is the best) or 'good'."""
        return self.grade or ("best" if self.chosen == 0 else "good")


def marks(chosen: int, n: int) -> list[str]:
    """Per candidate of n, best first, the chosen one at ``chosen``: 'chosen', 'better' (above
    the chosen) or ''."""
    return ["chosen" if j == chosen else "better" if j < chosen else "" for j in range(n)]


def action_key(e: Event) -> tuple[Any, ...]:
    """What makes two events the same action (not its seq, time or order of cards)."""
    return (e.kind, e.seat, tuple(sorted(e.cards)), e.target, e.value, e.tag, e.payload)


def action_text(game: Game, e: Event) -> str:
    """An action in words: its kind, its cards and what the game's describe adds."""
    return " ".join(x for x in (e.kind, format_faces(e.cards) if e.cards else "",
                                game.describe(e)) if x)


def world_sampler(game: Game) -> Callable[..., Any]:
    """The game's sample_world, or EngineError when it declares none."""
    if game.sample_world is None:
        raise EngineError(f"{game.TITLE} declares no sample_world: it cannot be reviewed yet")
    return game.sample_world


def first_world(game: Game, state: Any, seat: int, seen: Sequence[Event], settings: Settings,
                seq: int) -> Any:
    """The first world a review of this decision samples (the one its lines are played in)."""
    return world_sampler(game)(state, seat, _rng(settings.seed, seq, "world", 0), seen)


def seen_by(game: Game, events: Sequence[Event], seat: int) -> tuple[Event, ...]:
    """The engine events as the seat saw them (those ``event_hidden`` hides left out)."""
    return tuple(game.seen_event(e, seat) for e in engine_events(list(events))
                 if not game.event_hidden(e, seat))


def seat_value(game: Game, outcomes: Sequence[Outcome], seat: int) -> float:
    """The seat's value of a finished game on the game's scale: 1 / 0.5 / 0 for a win, draw
    or loss, else its score."""
    o = outcomes[seat]
    if game.review_scale.kind == "win":
        return 1.0 if o.result == WIN else 0.5 if o.result == DRAW else 0.0
    return float(o.score)


def seat_options(game: Game, state: Any, seat: int) -> list[Event]:
    """The choices the seat has now: its legal actions that are a decision category of the
    game (``decisions.action_category``; not, e.g., counting the cards, which changes nothing)."""
    category = game.decisions.action_category
    return [a for a in game.legal_actions(state)
            if a.seat == seat and category(state, a) is not None]


def in_world(game: Game, world: Any, action: Event) -> Event:
    """The action as it is taken in a world: the same action; where the action holds a
    chance outcome the seat did not choose (the card a draw takes) the world's one action of
    that kind, seat, target and tag; else the world's one action with the same cards and
    everything but the tag (a tag the engine derives from cards the seat cannot see, such as
    whether a play stifles the seat it beats)."""
    acts = game.legal_actions(world)
    key = action_key(action)
    for a in acts:
        if action_key(a) == key:
            return a
    loose = [a for a in acts if (a.kind, a.seat, a.target, a.tag)
             == (action.kind, action.seat, action.target, action.tag)]
    if len(loose) == 1:
        return loose[0]
    untagged = [a for a in acts if action_key(a._replace(tag=action.tag)) == key]
    if len(untagged) == 1:
        return untagged[0]
    raise EngineError(f"{action.kind} by seat {action.seat} is not an action in the world")


def rollout(game: Game, state: Any, first: Event, policy: Any, rng: random.Random,
            keep: int = 0) -> tuple[tuple[Outcome, ...], tuple[Event, ...]]:
    """Play ``first`` (an action of this state: ``in_world``) on a copy of the state, then the
    game to its end by the policy (the owed automatic events drawn from rng); the outcomes
    and the first ``keep`` events played."""
    s = state.copy()
    game.step(s, first._replace(seq=s.seq))
    line: list[Event] = []
    auto, step, is_over = game.auto_event, game.step, game.is_over
    n = 0
    while not is_over(s):
        a = auto(s, rng)
        if a is None:
            if n == CYCLE_BREAK and "random" in game.POLICIES:
                policy = game.POLICIES["random"]()     # a rollout that cycles plays on at random
            a = policy.choose(s, rng)
        if len(line) < keep:
            line.append(a)
        step(s, a)
        n += 1
        if n > MAX_ROLLOUT:
            raise EngineError(f"a rollout did not end within {MAX_ROLLOUT} events")
    out = game.outcomes(s)
    if out is None:
        raise EngineError("a finished rollout has no outcomes")
    return out, tuple(line)


def _rng(seed: int, *parts: object) -> random.Random:
    """A generator seeded by the review's seed and where it is used (str seeds are hashed with
    SHA-512 by ``random``, the same on every run and machine)."""
    return random.Random(":".join(map(str, (seed, *parts))))


def candidates_for(game: Game, state: Any, seat: int, chosen: Event, options: list[Event],
                   policy: Any, worlds: list[Any], settings: Settings, seq: int) -> list[Event]:
    """The chosen action, the rollout policy's choice in each world, then others drawn at
    random, up to ``settings.candidates`` (a huge list of options is never scored whole)."""
    by_key = {action_key(a): a for a in options}
    picked: dict[tuple[Any, ...], Event] = {}
    ck = action_key(chosen)
    picked[ck] = by_key.get(ck, chosen)
    rng = _rng(settings.seed, seq, "candidates")
    for w in worlds:
        if len(picked) >= settings.candidates:
            break
        a = policy.choose(w, rng)
        k = action_key(a)
        if k in by_key:
            picked.setdefault(k, by_key[k])
    rest = [a for k, a in by_key.items() if k not in picked]
    rng.shuffle(rest)
    for a in rest[: max(0, settings.candidates - len(picked))]:
        picked[action_key(a)] = a
    return list(picked.values())


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def _p_best(values: list[list[float]], rng: random.Random) -> list[float]:
    """Each candidate's share of bootstrap resamples of the worlds in which it has the highest
    mean (ties shared)."""
    n_worlds, k = len(values[0]), len(values)
    wins = [0.0] * k
    for _ in range(BOOTSTRAP):
        pick = [rng.randrange(n_worlds) for _ in range(n_worlds)]
        means = [sum(v[i] for i in pick) for v in values]
        top = max(means)
        best = [j for j, m in enumerate(means) if m >= top - 1e-12]
        for j in best:
            wins[j] += 1 / len(best)
    return [w / BOOTSTRAP for w in wins]


def grade(loss: float, loss_se: float, steps: tuple[float, float, float]
          ) -> tuple[str | None, str | None]:
    """(grade, why withheld): the highest step the loss reaches (None below the first), or
    None with the reason when the loss's standard error exceeds half a step — unless the
    loss's 95 % interval lies wholly past the last step: no error can make that another grade
    (a loss of 0.4 ± 0.05 in win probability is a blunder whatever the worlds left to play)."""
    half = steps[0] / 2
    if loss_se > half:
        if loss - Z95 * loss_se >= steps[-1]:
            return GRADES[-1], None
        return None, f"the loss's standard error {loss_se:.3f} exceeds half a step ({half:g})"
    reached = [g for g, s in zip(GRADES, steps, strict=True) if loss >= s]
    return (reached[-1] if reached else None), None


def review_decision(game: Game, state: Any, seat: int, chosen: Event, seen: Sequence[Event],
                    settings: Settings, seq: int) -> DecisionReview | None:
    """The review of the seat's decision at this state (None: forced, one option or none)."""
    sampler = world_sampler(game)
    options = seat_options(game, state, seat)
    if len(options) < 2:
        return None
    policy = game.POLICIES[game.review_policy]()
    worlds: list[Any] = []
    cands: list[Event] = []
    values: list[list[float]] = []
    chance: list[bool] = []
    lines: dict[int, tuple[Event, ...]] = {}
    target = settings.min_worlds
    while True:
        for w in range(len(worlds), target):
            worlds.append(sampler(state, seat, _rng(settings.seed, seq, "world", w), seen))
        if not cands:
            cands = candidates_for(game, state, seat, chosen, options, policy, worlds,
                                   settings, seq)
            values = [[] for _ in cands]
            chance = [False] * len(cands)
        for w in range(len(values[0]), len(worlds)):
            for j, c in enumerate(cands):
                taken = in_world(game, worlds[w], c)
                chance[j] = chance[j] or action_key(taken) != action_key(c)
                out, line = rollout(game, worlds[w], taken, policy,
                                    _rng(settings.seed, seq, "rollout", w),
                                    keep=LINE if w == 0 else 0)
                values[j].append(seat_value(game, out, seat))
                if w == 0:
                    lines[j] = line
        if _settled(game, values) or len(worlds) >= settings.max_worlds \
                or _hopeless(game, values, settings.max_worlds):
            # a candidate whose cards came by chance (a draw's card) is shown without them
            shown = [c._replace(cards=()) if chance[j] else c for j, c in enumerate(cands)]
            return _summarise(game, seq, seat, len(options), shown, values, lines, settings)
        target = min(settings.max_worlds, len(worlds) + settings.batch)


def _paired_loss(values: list[list[float]]) -> tuple[int, float, float]:
    """The best candidate (the highest mean, the lower index on a tie) and the chosen's
    (candidate 0) loss against it ± its error, from the paired differences world by world
    (0 ± 0 when the chosen is the best: ``_grade`` gives it its challenger's error)."""
    means = [sum(v) / len(v) for v in values]
    best = min(range(len(values)), key=lambda j: (-means[j], j))
    if best == 0:
        return 0, 0.0, 0.0
    loss, se = _mean_se([b - c for b, c in zip(values[best], values[0], strict=True)])
    return best, loss, se


def _challenger(values: list[list[float]]) -> tuple[float, float]:
    """Over the candidates other than the chosen (candidate 0): the paired difference
    (mean, standard error) of the one whose 95 % upper bound over the chosen is highest;
    (0, 0) when there is none."""
    top, out = -math.inf, (0.0, 0.0)
    for v in values[1:]:
        m, se = _mean_se([b - c for b, c in zip(v, values[0], strict=True)])
        if m + Z95 * se > top:
            top, out = m + Z95 * se, (m, se)
    return out


def grade_best(diff: float, diff_se: float, steps: tuple[float, float, float]) -> str | None:
    """Why the "best" of a chosen action with the highest value is withheld (None: it is
    not): when the challenger's difference (``_challenger``) may reach the first step — its
    95 % interval does not lie wholly under it."""
    if diff + Z95 * diff_se < steps[0]:
        return None
    return (f"another candidate may be better by a step: {diff:+.3f} ± {diff_se:.3f} "
            f"against the first step {steps[0]:g}")


def _grade(game: Game, values: list[list[float]], err: float = 1.0
           ) -> tuple[int, float, float, str | None, str | None]:
    """(best, loss, its error, grade, why withheld) of the chosen (candidate 0); ``err``
    scales the errors (a projection to more worlds, ``_hopeless``). When the chosen is the
    best its loss is 0 and its error is that of the candidate that may beat it by most
    (``_challenger``): a best by luck of a few worlds is not a sure 0."""
    steps = game.review_scale.steps
    best, loss, se = _paired_loss(values)
    if best == 0:
        diff, diff_se = _challenger(values)
        return best, loss, diff_se * err, None, grade_best(diff, diff_se * err, steps)
    return (best, loss, se * err, *grade(loss, se * err, steps))


def _settled(game: Game, values: list[list[float]]) -> bool:
    """True when the grade of the chosen would not be withheld (no bootstrap: that is done
    once, in ``_summarise``)."""
    return _grade(game, values)[4] is None


def _hopeless(game: Game, values: list[list[float]], max_worlds: int) -> bool:
    """True when, from ``FUTILE_FROM`` worlds on, the grade would still be withheld at
    ``max_worlds`` with the errors shrunk as 1/√n would shrink them (less a margin,
    ``FUTILE_MARGIN``, for the error of the errors): more worlds would only cost time."""
    n = len(values[0])
    if n < FUTILE_FROM or n >= max_worlds:
        return False
    return _grade(game, values, FUTILE_MARGIN * math.sqrt(n / max_worlds))[4] is not None


def _summarise(game: Game, seq: int, seat: int, n_options: int, cands: list[Event],
               values: list[list[float]], lines: dict[int, tuple[Event, ...]],
               settings: Settings) -> DecisionReview:
    """The review from the candidates' values in each world (candidate 0 is the chosen)."""
    stats = [_mean_se(v) for v in values]
    p_best = _p_best(values, _rng(settings.seed, seq, "bootstrap"))
    order = sorted(range(len(cands)), key=lambda j: (-stats[j][0], j))
    best, loss, loss_se, g, withheld = _grade(game, values)
    out = [Candidate(cands[j], stats[j][0], stats[j][1], p_best[j],
                     lines.get(j, ()) if j in (0, best) else ()) for j in order]
    flag = p_best[0] < FLAG_P and loss >= game.review_scale.steps[0]
    return DecisionReview(seq, seat, n_options, out, order.index(0), loss, loss_se, g,
                          withheld, flag, len(values[0]))


@dataclass
class GameReview:
    """A game's review: the decisions reviewed, the seats asked for, and how it stopped
    ('done', 'budget' when the time ran out, 'interrupted' on Ctrl-C)."""

    game_id: str
    game: Game
    seats: tuple[int, ...]
    settings: Settings
    decisions: list[DecisionReview] = field(default_factory=list)
    failed: list[tuple[int, str]] = field(default_factory=list)   # (seq, why) not reviewed
    pending: int = 0
    stopped: str = "done"


def decision_points(events: Sequence[Event], seats: Sequence[int]
                    ) -> Iterator[tuple[int, Any, Event, tuple[Event, ...]]]:
    """(seq, state before, the event, the events its seat saw before it) of every event taken
    by one of the seats (not automatic), in order."""
    rp = Replay(events)
    game = rp.game
    plain = engine_events(list(events))
    states = rp.states()
    before = next(states)
    seen: dict[int, list[Event]] = {k: [game.seen_event(plain[0], k)] for k in seats}
    for e, after in zip(plain[1:], states, strict=True):
        if e.seat in seen and game.next_auto(before) is None:
            yield e.seq, before, e, tuple(seen[e.seat])
        for k, got in seen.items():
            if not game.event_hidden(e, k):
                got.append(game.seen_event(e, k))
        before = after


def review_game(events: Sequence[Event], seats: Sequence[int], settings: Settings, *,
                budget: float | None = None,
                progress: Callable[[int, int], None] | None = None,
                submit: Callable[..., Future[Any]] | None = None) -> GameReview:
    """Review every decision of the seats in a validated game (``budget`` seconds at most:
    the decisions not reached are counted in ``pending``; Ctrl-C keeps what is done). With
    ``submit`` (``submit(fn, *args)`` -> Future: worker processes or a cluster), the
    decisions are reviewed there, each as its own task — the same reviews, in the same order."""
    start = time.monotonic()                  # the budget counts the replay too
    game = game_module(events[0])
    result = GameReview(events[0].game_id, game, tuple(seats), settings)
    points = list(decision_points(events, seats))
    if submit is not None:
        _review_apart(result, points, submit, start, budget, progress)
        return result
    for i, (seq, state, e, seen) in enumerate(points):
        if budget is not None and time.monotonic() - start > budget:
            result.stopped, result.pending = "budget", len(points) - i
            break
        try:
            r = review_decision(game, state, e.seat, e, seen, settings, seq)
        except KeyboardInterrupt:
            result.stopped, result.pending = "interrupted", len(points) - i
            break
        except EngineError as exc:           # this decision only: the others go on
            result.failed.append((seq, str(exc)))
            r = None
        if r is not None:
            result.decisions.append(r)
        if progress is not None:
            progress(i + 1, len(points))
    return result


def review_task(game_id: str, state: Any, e: Event, seen: tuple[Event, ...],
                settings: Settings, seq: int) -> DecisionReview | str | None:
    """One decision's review where it runs (a worker): the review (None: nothing to
    review), or why it failed."""
    try:
        return review_decision(find_game(game_id), state, e.seat, e, seen, settings, seq)
    except EngineError as exc:
        return str(exc)


def _review_apart(result: GameReview, points: list[tuple[int, Any, Event, tuple[Event, ...]]],
                  submit: Callable[..., Future[Any]], start: float, budget: float | None,
                  progress: Callable[[int, int], None] | None) -> None:
    """review_game's loop with every decision submitted at once and taken back in order; at
    the budget (or Ctrl-C) the decisions not done are cancelled and counted in pending."""
    gid = result.game.GAME_ID
    futures = [submit(review_task, gid, state, e, seen, result.settings, seq)
               for seq, state, e, seen in points]
    try:
        for i, ((seq, *_), fut) in enumerate(zip(points, futures, strict=True)):
            left = None if budget is None else max(0.0, budget - (time.monotonic() - start))
            try:
                r = fut.result(timeout=left)
            except TimeoutError:
                result.stopped, result.pending = "budget", len(points) - i
                break
            if isinstance(r, str):
                result.failed.append((seq, r))
            elif r is not None:
                result.decisions.append(r)
            if progress is not None:
                progress(i + 1, len(points))
    except KeyboardInterrupt:
        result.stopped, result.pending = "interrupted", len(points) - len(result.decisions) \
            - len(result.failed)
    finally:
        for fut in futures:
            fut.cancel()


REVIEW_VERSION = 3        # the reviewer's method, stored with every review (a change of method
                          # that changes values is a new version). 2: a loss surely past the last
                          # step is graded, and its worlds stop there. 3: a chosen best is
                          # settled only when no candidate may be a step better (was: at once,
                          # loss 0 ± 0), and a decision that cannot settle by max_worlds stops
                          # from 128 worlds on (_hopeless)


@functools.cache
def reviews_arrow() -> Any:
    """The Arrow schema of the warehouse's ``reviews`` rows (``review_rows``)."""
    import pyarrow as pa
    cand = pa.struct([("text", pa.string()), ("kind", pa.string()),
                      ("cards", pa.list_(pa.uint8())), ("value", pa.float64()),
                      ("se", pa.float64()), ("p_best", pa.float64())])
    return pa.schema([
        ("game_id", pa.string()), ("game", pa.string()), ("seq", pa.uint32()),
        ("seat", pa.int8()), ("player_id", pa.string()), ("options", pa.int32()),
        ("worlds", pa.int32()), ("chosen", pa.string()), ("best", pa.string()),
        ("rank", pa.int32()),
        ("candidates", pa.list_(cand)), ("loss", pa.float64()), ("loss_se", pa.float64()),
        ("grade", pa.string()), ("withheld", pa.string()), ("flag", pa.bool_()),
        ("scale", pa.string()), ("review_version", pa.int16()), ("seed", pa.int64()),
        ("max_worlds", pa.int32()),
    ])


def review_rows(review: GameReview, events: Sequence[Event]) -> list[dict[str, Any]]:
    """A game's review as the warehouse's rows: one per decision reviewed (the candidates
    best first, the chosen one's text and the best one's), and one per decision that could
    not be reviewed (no candidates, the grade withheld saying why); nothing of a decision the
    review did not reach (a budget, Ctrl-C)."""
    import json
    game = review.game
    players = json.loads(events[0].payload or "{}").get("players") or []
    seat_of = {e.seq: e.seat for e in events}
    base = {"game_id": review.game_id, "game": game.GAME_ID, "scale": game.review_scale.kind,
            "review_version": REVIEW_VERSION, "seed": review.settings.seed,
            "max_worlds": review.settings.max_worlds}

    def player(seat: int) -> str:
        return str(players[seat]) if 0 <= seat < len(players) else ""
    rows = [{**base, "seq": d.seq, "seat": d.seat, "player_id": player(d.seat),
             "options": d.options, "worlds": d.worlds,
             "chosen": action_text(game, d.candidates[d.chosen].action),
             "best": action_text(game, d.best.action), "rank": d.chosen,
             "candidates": [{"text": action_text(game, c.action), "kind": c.action.kind,
                             "cards": list(c.action.cards), "value": c.value, "se": c.se,
                             "p_best": c.p_best} for c in d.candidates],
             "loss": d.loss, "loss_se": d.loss_se, "grade": d.grade, "withheld": d.withheld,
             "flag": d.flag} for d in review.decisions]
    rows += [{**base, "seq": seq, "seat": seat_of.get(seq, -1),
              "player_id": player(seat_of.get(seq, -1)), "options": 0, "worlds": 0,
              "chosen": "", "best": "", "rank": -1, "candidates": [], "loss": None, "loss_se": None,
              "grade": None, "withheld": f"not reviewed: {why}", "flag": False}
             for seq, why in review.failed]
    return sorted(rows, key=lambda r: r["seq"])
