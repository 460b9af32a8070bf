"""Worlds for review (engine/review.py): a full 扑克六湖 hand consistent with what one seat knows
(LH-69, LH-70), built from the events as that seat saw them and checked by the engine itself.

The pack has ``decks`` copies of each face (LH-4), so what is hidden is where each copy is.
Every card of the wall W (LH-10) is a **slot**, named by its index in drawing order: the deal
(LH-12) puts the first 6H + 1 slots in the hands, a front draw the next slot at the front, a
replacement draw the next at the tail (LH-11, LH-24), whoever drew it. A pass over the seen
events moves the slots as they say and binds

- the seat's own cards (its deal, each of its draws) to their slots;
- every card another seat lays out of its hand — a discard (LH-16), the two or three concealed
  cards of a 吃, 碰 or 明杠 (LH-20, LH-21, LH-26), a 加杠's card, a 暗杠's four (LH-22, LH-23),
  a winner's concealed cards (LH-69) — to a slot it holds then: one already bound to that face
  if any, else a free one drawn at random;
- the cards of a call another seat made and lost to a higher one (the AWARD shows every call,
  LH-33, LH-69: a 吃's two faces, a 碰's two and a 杠's three copies) to slots it holds then,
  which stay in its hand.

The unbound faces of the pack are then dealt to the free slots at random, and the ring R is
the wall read back from the break (LH-10). The world's whole log — GAME_START with that ring,
the automatic events the engine owes (the deal, every draw, every window and award), the seen
events of the seats, and the answers the seat did not see — is **replayed by the engine**,
and the world is kept only if every event is accepted, each event as the seat sees it is the
event it saw (its seq aside: the hidden answers differ in number) and the seat's view of the
world is its view now; otherwise it is drawn again (``TRIES``).

Hidden answers (LH-34, LH-70): in a window whose AWARD the seat saw, each seat answers with the
call the AWARD shows, else passes; in a window it saw close with nothing (no AWARD reaches it)
every seat passes; in the window still open while the seat itself is to answer, the seats
before it answer as the review's greedy policy would in that world (what they answered is
unknown; the rollouts play them by the same policy).

No negative evidence: every claim, kong and 自摸 is optional (LH-23, LH-28, LH-30), so a pass, a
discard that could have been claimed or a hand that might have won says nothing about the
cards, and no world assumes it does. Exact (every world satisfies it, by the replay): every
card the seat sees where it sees it, hand and wall sizes, every meld, call and win. Approximate:
the distribution — a played card's slot is drawn uniformly from its seat's hand, so worlds are
weighted as if each card were played at random from the hand, not by how players choose.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from engine.cards import parse_face
from engine.errors import EngineError
from engine.events import Event, payload_json
from engine.games.liuhu import rules
from engine.games.liuhu.bots import GreedyPolicy
from engine.games.liuhu.cards import SEATS, pack
from engine.games.liuhu.info import event_hidden, seen_event, view
from engine.games.liuhu.options import LiuhuOptions
from engine.games.liuhu.setup import break_index, deal_of, initial_state
from engine.games.liuhu.state import CHI, GANG, HU, PASS, PENG, RESPOND, ZIMO, Claim, LhState
from engine.games.liuhu.window import respond_event, responder

TRIES = 400
TRAIL = 8           # hidden events after the last seen one: a window's answers, its empty AWARD
# the engine the worlds are replayed by (the package's own functions, not its Game: no cycle)
_ENGINE = SimpleNamespace(initial_state=initial_state, step=rules.step,
                          next_auto=rules.next_auto, auto_event=rules.auto_event, view=view)
COPIES = {PENG: 2, GANG: 3}              # the concealed copies a 碰 or 杠 call shows (LH-20, -21)
OPEN = None                              # a window still open at the end of the seen events


class _Refused(Exception):
    """This draw of the hidden cards cannot be the world (drawn again)."""


def _key(e: Event) -> tuple[Any, ...]:
    """An event without its seq, time and digest (what a world's event shares with the seen)."""
    return tuple(e[:8])


def _faces(texts: Sequence[str]) -> tuple[int, ...]:
    return tuple(parse_face(t) for t in texts)


class _Slots:
    """The pass over the seen events: each wall slot's bound face, the faces of the pack not
    yet bound, which slots each hand holds, the wall's two pointers."""

    def __init__(self, opts: LiuhuOptions, dealer: int, me: int, rng: random.Random) -> None:
        self.opts, self.dealer, self.me, self.rng = opts, dealer, me, rng
        full = pack(opts.decks, opts.hunzi)
        self.n = len(full)
        self.face = [-1] * self.n                     # slot -> bound face, -1 free
        self.avail = Counter(full)                    # faces not bound yet
        self.hand: list[list[int]] = [[] for _ in range(SEATS)]
        self.front, self.tail = 0, self.n - 1

    def bind(self, slot: int, card: int) -> None:
        """The slot holds this face."""
        f = self.face[slot]
        if f >= 0:
            if f != card:
                raise _Refused
            return
        if not self.avail[card]:
            raise _Refused
        self.avail[card] -= 1
        self.face[slot] = card

    def _free(self, seat: int) -> list[int]:
        return [slot for slot in self.hand[seat] if self.face[slot] < 0]

    def take(self, seat: int, card: int) -> None:
        """The seat lays this card out of its hand: a slot bound to it if any, else a free one
        drawn at random (bound now)."""
        hand = self.hand[seat]
        slot = next((x for x in hand if self.face[x] == card), -1)
        if slot < 0:
            free = self._free(seat)
            if not free:
                raise _Refused
            slot = free[self.rng.randrange(len(free))]
            self.bind(slot, card)
        hand.remove(slot)

    def held(self, seat: int, card: int, copies: int) -> None:
        """The seat holds this many copies of the face now (a call it made, LH-69): slots bound
        to it, more free ones bound at random when too few are."""
        have = sum(self.face[x] == card for x in self.hand[seat])
        free = self._free(seat)
        for _ in range(copies - have):
            if not free:
                raise _Refused
            self.bind(free.pop(self.rng.randrange(len(free))), card)

    def deal(self, e: Event) -> None:
        """DEAL: each seat's slots as LH-12 deals the wall; the seat's own cards bound."""
        got = deal_of(range(self.n), self.dealer, self.opts.groups)
        self.hand = [list(x) for x in got]
        self.front = 6 * (3 * self.opts.groups + 1) + 1
        if len(e.cards) != len(got[self.me]):
            raise _Refused
        for slot, c in zip(got[self.me], e.cards, strict=True):
            self.bind(slot, c)

    def draw(self, e: Event) -> None:
        """DRAW: the front or tail slot into the drawer's hand (LH-11), bound if it is the
        seat's own."""
        if e.tag == "tail":
            slot, self.tail = self.tail, self.tail - 1
        else:
            slot, self.front = self.front, self.front + 1
        if e.seat == self.me:
            self.bind(slot, e.cards[0])
        self.hand[e.seat].append(slot)

    def calls(self, e: Event) -> None:
        """AWARD: every call is public (LH-69); its cards are in the caller's hand now."""
        card = e.cards[0]
        for seat, kind, *faces in payload_json(e).get("calls", ()):
            if seat == self.me or kind == HU:
                continue
            if kind == CHI:
                for c in _faces(faces):
                    self.held(seat, c, 1)
            else:
                self.held(seat, card, COPIES[kind])

    def won(self, e: Event) -> None:
        """HU: the winner's concealed cards are shown (LH-69); the winning card of a 放铳 or
        抢杠胡 was not in its hand."""
        cards = list(_faces(payload_json(e)["concealed"]))
        if e.tag != ZIMO and e.cards:
            cards.remove(e.cards[0])
        for c in cards:
            self.take(e.seat, c)
        if self.hand[e.seat]:
            raise _Refused

    def see(self, e: Event) -> None:
        """Follow one seen event after GAME_START."""
        k = e.kind
        if k == "DEAL":
            self.deal(e)
        elif k == "DRAW":
            self.draw(e)
        elif k in ("DISCARD", "JIA_GANG"):
            self.take(e.seat, e.cards[0])
        elif k == "AN_GANG":
            for _ in range(4):
                self.take(e.seat, e.cards[0])
        elif k in ("CHI", "PENG", "MING_GANG"):
            for c in e.cards[1:]:
                self.take(e.seat, c)
        elif k == "AWARD":
            self.calls(e)
        elif k == "HU" and e.seat != self.me:
            self.won(e)

    def fill(self) -> None:
        """Deal the faces not bound to the free slots at random."""
        free = [slot for slot, f in enumerate(self.face) if f < 0]
        faces = sorted(self.avail.elements())
        if len(faces) != len(free):
            raise _Refused
        self.rng.shuffle(faces)
        for slot, c in zip(free, faces, strict=True):
            self.face[slot] = c
        self.avail.clear()

    def ring(self, dice: int) -> tuple[int, ...]:
        """R of the world: W[i] = R[(b + i) mod N] read back (LH-10)."""
        b = break_index(self.n, dice)
        r = [0] * self.n
        for i, c in enumerate(self.face):
            r[(b + i) % self.n] = c
        return tuple(r)


def _answers(seen: Sequence[Event], i: int) -> dict[int, Claim] | None:
    """The answers of the window whose WINDOW is seen[i - 1]: each call of the AWARD the seat
    saw (the others passed), {} when it closed unseen (everyone passed), OPEN when the seen
    events end inside it."""
    j = i
    while j < len(seen) and seen[j].kind == "RESPOND":
        j += 1
    if j == len(seen):
        return OPEN
    if seen[j].kind != "AWARD":
        return {}
    out: dict[int, Claim] = {}
    card = seen[j].cards[0]
    for seat, kind, *faces in payload_json(seen[j]).get("calls", ()):
        if kind == CHI:
            out[seat] = (CHI, tuple(sorted(_faces(faces))))
        elif kind in COPIES:
            out[seat] = (kind, (card,) * COPIES[kind])
        else:
            out[seat] = (HU, ())
    return out


class _Replay:
    """The world's log as the engine replays it: the seen events, the owed automatic events
    built by the engine, the hidden answers of the other seats."""

    def __init__(self, game: Any, start: Event, me: int, rng: random.Random,
                 guess: bool) -> None:
        self.game, self.me, self.rng = game, me, rng
        self.guess = guess                  # the open window's answers by the greedy policy
        self.w: LhState = game.initial_state(start)
        self.log = [start]
        self.answers: dict[int, Claim] | None = {}

    def step(self, e: Event) -> None:
        """Apply one event of the world's log."""
        self.game.step(self.w, e)
        self.log.append(e)

    def hidden(self) -> Event | None:
        """The world's next event if the seat would not see it: another seat's answer, an
        AWARD that executes nothing; else None."""
        w = self.w
        if w.phase == RESPOND:
            seat = responder(w)
            if seat == self.me:
                return None
            if self.answers is OPEN and self.guess:
                return GreedyPolicy().choose(w, self.rng)
            got = (self.answers or {}).get(seat, (PASS, ()))
            return respond_event(w, seat, got)
        if self.game.next_auto(w) == "AWARD":
            a = self.game.auto_event(w)
            if event_hidden(a, self.me):
                return a
        return None

    def follow(self, seen: Sequence[Event]) -> None:
        """Replay the seen events after GAME_START, the hidden ones between them."""
        i = 1
        while i < len(seen):
            we = self.hidden()
            if we is None:
                e = seen[i]
                i += 1
                due = self.game.next_auto(self.w)
                we = self.game.auto_event(self.w)._replace(ts=e.ts) if due else \
                    e._replace(seq=self.w.seq)
                if _key(seen_event(we, self.me)) != _key(e):
                    raise _Refused
                if e.kind == "WINDOW":
                    self.answers = _answers(seen, i)
            self.step(we)

    def finish(self, target: dict[str, Any]) -> None:
        """The hidden events after the last seen one, until the seat's view is ``target``."""
        for _ in range(TRAIL):
            if self.game.view(self.w, self.me) == target:
                return
            we = self.hidden()
            if we is None:
                raise _Refused
            self.step(we)
        raise _Refused


def _world(game: Any, s: LhState, me: int, rng: random.Random, seen: Sequence[Event],
           target: dict[str, Any]) -> tuple[LhState, list[Event]]:
    """One draw of a world and its log, refused (``_Refused``) when the engine or the view
    says no."""
    p = payload_json(seen[0])
    sl = _Slots(s.options, p["dealer"], me, rng)
    for e in seen[1:]:
        sl.see(e)
    sl.fill()
    start = seen[0]._replace(cards=sl.ring(sum(p["dice"])))
    guess = s.phase == RESPOND and rules.to_move(s) == me
    try:
        rp = _Replay(game, start, me, rng, guess)
        rp.follow(seen)
        rp.finish(target)
    except EngineError as exc:
        raise _Refused from exc
    return rp.w, rp.log


def sample_log(s: LhState, seat: int, rng: random.Random, seen: Sequence[Event]
               ) -> tuple[LhState, list[Event]]:
    """A world the seat cannot tell from this state (module docstring) and the log the engine
    replayed to reach it: its GAME_START with the world's ring, the hidden answers included."""
    if not seen or seen[0].kind != "GAME_START":
        raise EngineError("a 扑克六湖 world is sampled from the seen events from GAME_START on")
    target = view(s, seat)
    for _ in range(TRIES):
        try:
            return _world(_ENGINE, s, seat, rng, seen, target)
        except _Refused:
            continue
    raise EngineError(f"no 扑克六湖 world consistent with seat {seat}'s view found in {TRIES} "
                      "draws")


def sample_world(s: LhState, seat: int, rng: random.Random, seen: Sequence[Event]) -> LhState:
    """A full state the seat cannot tell from this one (module docstring)."""
    return sample_log(s, seat, rng, seen)[0]
