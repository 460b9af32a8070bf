"""Worlds for review (engine/review.py): a full 够级 state consistent with what one seat knows
(GJ-47), built from the events as that seat saw them and checked by the engine itself.

Only the deal is hidden in 够级 (GJ-47): every play, pass, yield, declaration, 会五, burn,
going out and judgement is public, and nobody draws after the deal (GJ-8). So a seat knows
each other seat's dealt cards to be the cards it has played (its 会五 contribution included,
GJ-35) plus a hidden rest whose size is public (33 or 32 dealt, GJ-8, less the cards played).
The unseen cards — the pack (GJ-2) less the seat's own dealt cards (its hand and its plays)
and less every card another seat played — are dealt to those hidden rests, as a uniform
shuffle of the unseen cards would, under what the rules say about them:

- GJ-28 (3s last): a seat that made a play with a 3 holds only 3s since;
- GJ-44 (闷): a stifled seat's dead cards are its 3 (or, ``men_scope = threes_only``, its 3s);
  a seat whose play was beaten while it was active and that was *not* stifled did not then
  hold a stifled hand (its later plays and its hidden rest together);
- GJ-35 (会五): after the 会五 its team holds no 5; a swept team that owed a 会五 and did not
  play one held no 5; in the declaration window, ``huiwu_due`` (public) says whether it holds
  one;
- GJ-6 (the cut): the seat that received the face-up cut card was dealt that face.

The 3s-only seats are dealt 3s first (a uniform draw of the unseen 3s), the 5s go to slots of
seats that may hold them (uniform over those slots), the rest are shuffled into what is left;
the few remaining conditions (the cut card, the 会五 team's 5, the stifles that did or did not
happen) are met by drawing again. The world's whole log — GAME_START, the cuts, the world's
DEAL (cut card at its ``cut_index``), every later event as seen — is then **replayed by the
engine**, and the world is kept only if every event is accepted and the seat's view of it is
its view now; otherwise it is drawn again (``TRIES``). The deal's order within a seat's cards
is not observable and not drawn (the state keeps hands sorted).

Exact: every condition above, by construction and by the replay; the hand sizes; the cut card;
the teams (fixed, GJ-4) and everything public. The distribution is the uniform one over deals
consistent with the rules: worlds are **not weighted** by how likely each seat's choices were
— passing is always allowed, with an answer in hand too (GJ-22, GJ-23), so a pass, a yield or
a small play says nothing by rule, and none is read into it. Nothing is left that cannot be
reviewed: the only chance event is the deal (and, before it, the cut, which is public).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import Event
from engine.games.gouji import rules
from engine.games.gouji.cards import FIVE, PACK, STRENGTH, THREE, sort_hand
from engine.games.gouji.game import initial_state
from engine.games.gouji.position import view
from engine.games.gouji.state import MEN, N_SEATS, GoujiState, team_of

TRIES = 400          # engine replays of drawn worlds before giving up
DRAWS = 20_000       # draws of the hidden cards (most are checked without a replay)


class _Refused(Exception):
    """This draw of the hidden cards cannot be the world (drawn again)."""


@dataclass
class _Known:
    """What the seat knows of the deal from the events it saw (module docstring)."""

    me: int
    options_scope: str
    starter: int = -1
    direction: int = 0
    cut_index: int = -1
    dealt: tuple[int, ...] = ()                       # GJ-8: cards dealt to each seat
    plays: list[list[tuple[int, ...]]] = field(
        default_factory=lambda: [[] for _ in range(N_SEATS)])   # each seat's plays, in order
    only3: set[int] = field(default_factory=set)      # seats whose hidden cards are all 3s
    no5: set[int] = field(default_factory=set)        # seats that hold no 5
    five_team: int = -1                               # the 会五 team that holds a 5, -1 none
    cut: tuple[int, int] | None = None                # (holder, face) of the cut card
    # (seat, plays it had made, stifled) each time a play of an active seat was beaten
    beaten_at: list[tuple[int, int, bool]] = field(default_factory=list)
    # the same with the cards it played after instead of the count: with its hidden cards,
    # its hand then
    beaten: list[tuple[int, tuple[int, ...], bool]] = field(default_factory=list)
    hidden: dict[int, int] = field(default_factory=dict)   # seat -> its hidden cards' count
    pool: tuple[int, ...] = ()                        # the unseen cards

    def played_by(self, seat: int) -> list[int]:
        """Every card the seat has played."""
        return [c for p in self.plays[seat] for c in p]


def _follow(k: _Known, s: GoujiState, seen: Sequence[Event]) -> None:
    """Read the deal, the plays and the rule evidence off the seen events."""
    top, out = -1, 0
    for e in seen[1:]:
        kind = e.kind
        if kind == "DEAL":
            k.starter, k.direction, k.cut_index = e.seat, int(e.tag), e.value
            k.dealt = tuple(33 if (i - e.seat) * k.direction % N_SEATS < 4 else 32
                            for i in range(N_SEATS))
        elif kind == "CUT":
            k.cut = (-1, e.cards[0])
        elif kind == "PLAY":
            void = "void" in e.tag.split("+")          # 诈烧: played, never the top (GJ-43)
            if top >= 0 and not void and not out >> top & 1:
                k.beaten_at.append((top, len(k.plays[top]), False))
            k.plays[e.seat].append(e.cards)
            if any(STRENGTH[c] == THREE for c in e.cards):
                k.only3.add(e.seat)                    # GJ-28 (a void play too)
            top = top if void else e.seat
        elif kind == "HUIWU":
            for seat_text, faces in sorted(json.loads(e.payload or "{}").items()):
                seat = int(seat_text)
                k.no5.add(seat)
                if faces:
                    k.plays[seat].append(tuple(parse_face(f) for f in faces))
            top = e.seat
        elif kind == "ROUND_END":
            top = -1
        elif kind == "OUT":
            out |= 1 << e.seat
            if e.tag == MEN:
                k.only3.add(e.seat)                    # GJ-44: its dead cards are 3s
                j = max((i for i, b in enumerate(k.beaten_at) if b[0] == e.seat), default=-1)
                if j >= 0:
                    k.beaten_at[j] = (e.seat, k.beaten_at[j][1], True)
    _huiwu_window(k, s, seen)


def _huiwu_window(k: _Known, s: GoujiState, seen: Sequence[Event]) -> None:
    """GJ-35: a swept team that owed a 会五 holds a 5 while ``huiwu_due`` shows it, none when
    the first play was not the 会五."""
    team = s.huiwu_team
    if team < 0 or k.starter < 0 or any(e.kind == "HUIWU" for e in seen):
        return
    members = [i for i in range(N_SEATS) if team_of(i) == team]
    if s.window and s.huiwu_due:
        k.five_team = team
    else:
        k.no5.update(members)


def _knowledge(s: GoujiState, me: int, seen: Sequence[Event]) -> _Known:
    """What the seat knows, the unseen cards and each other seat's hidden count."""
    k = _Known(me, s.options.men_scope)
    _follow(k, s, seen)
    if k.starter < 0:
        return k
    k.beaten = [(m, tuple(c for p in k.plays[m][n:] for c in p), stifled)
                for m, n, stifled in k.beaten_at]
    if k.cut is not None:
        k.cut = ((k.starter + k.direction * (k.cut_index % N_SEATS)) % N_SEATS, k.cut[1])
    mine = Counter(s.hands[me]) + Counter(k.played_by(me))
    if mine.total() != k.dealt[me]:
        raise EngineError(f"seat {me}'s hand and plays are not the {k.dealt[me]} cards it was "
                          "dealt (GJ-8)")
    unseen = Counter(PACK) - mine
    for z in range(N_SEATS):
        if z != me:
            got = Counter(k.played_by(z))
            if got - unseen:
                raise EngineError(f"seat {z}'s plays are not in the 够级 pack (GJ-2)")
            unseen -= got
            k.hidden[z] = k.dealt[z] - got.total()
    k.pool = tuple(sorted(unseen.elements()))
    if len(k.pool) != sum(k.hidden.values()):
        raise EngineError("the unseen cards do not fill the other seats' hands (GJ-8)")
    return k


def _draw(k: _Known, rng: random.Random) -> dict[int, list[int]] | None:
    """One draw of the other seats' hidden cards (None: a condition is not met)."""
    others = [z for z in range(N_SEATS) if z != k.me]
    hands: dict[int, list[int]] = {z: [] for z in others}
    threes = [c for c in k.pool if STRENGTH[c] == THREE]
    fives = [c for c in k.pool if STRENGTH[c] == FIVE]
    rest = [c for c in k.pool if STRENGTH[c] not in (THREE, FIVE)]
    rng.shuffle(threes)
    for z in others:
        if z in k.only3:
            n = k.hidden[z]
            if n > len(threes):
                return None
            hands[z], threes = threes[:n], threes[n:]
    free = [z for z in others if z not in k.only3]
    slots = [z for z in free for _ in range(k.hidden[z])]
    allowed = [i for i, z in enumerate(slots) if z not in k.no5]
    if len(fives) > len(allowed):
        return None
    at5 = set(rng.sample(allowed, len(fives)))
    rng.shuffle(fives)
    rest += threes
    rng.shuffle(rest)
    it5, it = iter(fives), iter(rest)
    for i, z in enumerate(slots):
        hands[z].append(next(it5) if i in at5 else next(it))
    return hands if _conditions(k, hands) else None


def _stifled(scope: str, hand: Sequence[int]) -> bool:
    """GJ-44: a hand a beaten play stifles."""
    if scope == "single_three":
        return len(hand) == 1 and STRENGTH[hand[0]] == THREE
    return bool(hand) and all(STRENGTH[c] == THREE for c in hand)


def _conditions(k: _Known, hands: dict[int, list[int]]) -> bool:
    """The cut card, the 会五 team's 5 and the stifles that did or did not happen."""
    if k.cut is not None:
        holder, face = k.cut
        if holder != k.me and face not in hands[holder] and face not in k.played_by(holder):
            return False
    if k.five_team >= 0:
        team = [z for z in hands if team_of(z) == k.five_team]
        if not any(STRENGTH[c] == FIVE for z in team for c in hands[z]):
            return False
    for m, later, stifled in k.beaten:
        if m != k.me and _stifled(k.options_scope, [*later, *hands[m]]) != stifled:
            return False
    return True


def _deal(k: _Known, s: GoujiState, hands: dict[int, list[int]]) -> tuple[int, ...]:
    """The world's DEAL cards in drawing order (GJ-8), the cut card at ``cut_index``."""
    dealt = {z: sort_hand([*k.played_by(z), *hands[z]]) for z in hands}
    dealt[k.me] = sort_hand([*k.played_by(k.me), *s.hands[k.me]])
    cards = [-1] * len(PACK)
    rest = {z: list(h) for z, h in dealt.items()}
    if k.cut is not None:
        holder, face = k.cut
        if face not in rest[holder]:
            raise _Refused
        rest[holder].remove(face)
        cards[k.cut_index] = face
    for i in range(len(PACK)):
        if cards[i] < 0:
            cards[i] = rest[(k.starter + k.direction * (i % N_SEATS)) % N_SEATS].pop()
    return tuple(cards)


def _world(k: _Known, s: GoujiState, seen: Sequence[Event], hands: dict[int, list[int]] | None
           ) -> tuple[GoujiState, list[Event]]:
    """The world replayed by the engine from the seen events with the world's deal."""
    log = [seen[0]]
    try:
        w = initial_state(seen[0])
        for e in seen[1:]:
            if e.kind == "DEAL" and hands is not None:
                e = e._replace(cards=_deal(k, s, hands))
            rules.step(w, e)
            log.append(e)
    except EngineError as exc:
        raise _Refused from exc
    if view(w, k.me) != view(s, k.me):
        raise _Refused
    return w, log


def sample_log(s: GoujiState, seat: int, rng: random.Random, seen: Sequence[Event]
               ) -> tuple[GoujiState, list[Event]]:
    """A world the seat cannot tell from this state (module docstring) and the log the engine
    replayed to reach it (its DEAL with the world's cards)."""
    if not seen or seen[0].kind != "GAME_START":
        raise EngineError("a 够级 world is sampled from the seen events from GAME_START on")
    k = _knowledge(s, seat, seen)
    if k.starter < 0:                       # before the deal nothing is hidden
        try:
            return _world(k, s, seen, None)
        except _Refused as exc:
            raise EngineError(f"the seen events do not replay to seat {seat}'s view") from exc
    replays = 0
    for _ in range(DRAWS):
        hands = _draw(k, rng)
        if hands is None:
            continue
        try:
            return _world(k, s, seen, hands)
        except _Refused:
            replays += 1
            if replays >= TRIES:
                break
    raise EngineError(f"no 够级 world consistent with seat {seat}'s view found in {TRIES} "
                      "draws")


def sample_world(s: GoujiState, seat: int, rng: random.Random, seen: Sequence[Event]
                 ) -> GoujiState:
    """A full state the seat cannot tell from this one (module docstring)."""
    return sample_log(s, seat, rng, seen)[0]
