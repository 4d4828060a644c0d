"""The live room's audience: the questions a presenter puts to the room (predict-then-reveal, polls, word answers),
the followers' answers, and the room's own questions with their upvotes. Process-wide beside the room registry
(ui/rooms.py), locked, bounded; the checks, tallies, filter and rate limits are helm_core.participation's.

Who may do what (the registry says which room a secret or a code names):
- the presenter and the speaker view (the room's secret): open a question (one is current at a time), close it
  (no more answers), reveal it (the distribution beside the true value, on every screen), put it away; mark a
  room question answered or hidden; export every question with its answers and true value.
- a follower (the room's public code and a follower id that session holds, never shown): one answer per
  question (a second is refused with a message), ask a question, upvote another's once. Answers are anonymous:
  the store keeps a follower id only to refuse a second answer or vote.

Bounds: MAX_QUESTIONS per room (opening one more forgets the oldest closed one), MAX_ASKS room questions,
MAX_FOLLOWERS answers per question; rate limits per follower (ANSWERS, ASKS, VOTES). The state lives as long as
the room: a presenter's or speaker view's reload reads it again; a room that ends takes it along.
"""
from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from helm_core import participation as pt

from . import room_protocol, rooms

MAX_QUESTIONS = 50
MAX_ASKS = 300
MAX_FOLLOWERS = 5000
ANSWERS = (6, 10.0)  # answers per follower per 10 s (one per question; this bounds a script's bursts)
ASKS = (3, 60.0)  # questions from one follower per minute
VOTES = (30, 60.0)  # upvotes from one follower per minute
BLOCKLIST = Path(__file__).resolve().parents[1] / "data" / "blocklist.txt"
STATUSES = ("open", "closed", "revealed")


@dataclass(frozen=True)
class Current:
    """The room's current question as a screen shows it: its status, how many answered, the result (always for
    the secret holder; for a follower only once revealed), and this follower's own answer."""
    question: pt.Question
    status: str
    n: int
    result: pt.Result | None
    mine: Any = None


@dataclass(frozen=True)
class LiveView:
    version: int
    current: Current | None
    asks: tuple[pt.Ask, ...]  # ranked (helm_core.participation.ranked_asks); hidden ones only for the secret


class _Q:
    __slots__ = ("question", "status", "answers", "opened")

    def __init__(self, question: pt.Question, now: float) -> None:
        self.question, self.status, self.answers, self.opened = question, "open", {}, now


class _Live:
    __slots__ = ("questions", "current", "asks", "next_aid", "version", "answers_rl", "asks_rl", "votes_rl")

    def __init__(self) -> None:
        self.questions: OrderedDict[str, _Q] = OrderedDict()
        self.current: str | None = None
        self.asks: dict[int, pt.Ask] = {}
        self.next_aid = 1
        self.version = 0
        self.answers_rl, self.asks_rl, self.votes_rl = pt.RateLimit(*ANSWERS), pt.RateLimit(*ASKS), pt.RateLimit(*VOTES)


class LiveStore:
    """Every live room's audience state (see the module docstring). Plain Python: `store()` holds the process's
    one instance. `registry`: the rooms (it checks secrets and codes); `blocklist`: the abuse filter's words."""

    def __init__(self, registry: rooms.RoomRegistry, blocklist: frozenset[str] = frozenset(), *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._reg, self.blocklist, self._clock = registry, blocklist, clock
        self._lock = threading.Lock()
        self._rooms: dict[str, _Live] = {}

    def _room(self, code: str) -> _Live:
        live = self._rooms.get(code)
        if live is None:
            if len(self._rooms) >= 4 * self._reg.max_rooms:  # forget the audiences of rooms that ended
                for c in list(self._rooms):
                    try:
                        self._reg.check(c)
                    except room_protocol.RoomError:
                        del self._rooms[c]
            live = self._rooms[code] = _Live()
        return live

    # -- the presenter and the speaker view (the room's secret) --

    def open(self, secret: str, question: pt.Question) -> None:
        """Make `question` the room's current one and take answers (again, if it was asked before: its answers
        are kept)."""
        if not isinstance(question, pt.Question):
            raise pt.Refused("Not a question.")
        code = self._reg.code_for(secret)
        with self._lock:
            live = self._room(code)
            q = live.questions.get(question.qid)
            if q is None:
                if len(live.questions) >= MAX_QUESTIONS:
                    old = next((k for k, v in live.questions.items() if v.status != "open" and k != live.current), None)
                    if old is None:
                        raise pt.Refused(f"This room has {MAX_QUESTIONS} questions already.")
                    del live.questions[old]
                q = live.questions[question.qid] = _Q(question, self._clock())
            else:
                q.question, q.status = question, "open"
            live.current = question.qid
            live.version += 1

    def set_status(self, secret: str, status: str | None) -> None:
        """The current question: "closed" (no more answers), "revealed" (the result on every screen), "open"
        (answers again), or None (put away: no question on the screens; its answers are kept for the export)."""
        if status is not None and status not in STATUSES:
            raise pt.Refused("A question is open, closed or revealed.")
        code = self._reg.code_for(secret)
        with self._lock:
            live = self._room(code)
            if live.current is None:
                raise pt.Refused("No question is open.")
            if status is None:
                live.current = None
            else:
                live.questions[live.current].status = status
            live.version += 1

    def mark(self, secret: str, aid: int, *, answered: bool | None = None, hidden: bool | None = None) -> None:
        code = self._reg.code_for(secret)
        with self._lock:
            ask = self._room(code).asks.get(aid)
            if ask is None:
                raise pt.Refused("That question from the room is not there any more.")
            if answered is not None:
                ask.answered = bool(answered)
            if hidden is not None:
                ask.hidden = bool(hidden)
            self._rooms[code].version += 1

    def export(self, secret: str) -> pd.DataFrame:
        """Every question asked in the room, oldest first, with its answers' distribution and its true value
        (helm_core.participation.results_frame)."""
        code = self._reg.code_for(secret)
        with self._lock:
            items = [(q.question, list(q.answers.values()), q.status) for q in self._room(code).questions.values()]
        return pt.results_frame(items)

    # -- followers (the room's code and a follower id) --

    def answer(self, code: str, follower: str, qid: str, raw: Any) -> None:
        """A follower's answer to the current question; Refused with the reason (answered already, closed, a
        value the question does not take, too fast)."""
        code = self._reg.check(code)
        with self._lock:
            live = self._room(code)
            q = live.questions.get(qid)
            if q is None or live.current != qid:
                raise pt.Refused("That question is not open any more.")
            if q.status != "open":
                raise pt.Refused("The presenter has closed this question: answers are not taken any more.")
            if follower in q.answers:
                raise pt.Refused("You have answered this question already: one answer per person.")
            if len(q.answers) >= MAX_FOLLOWERS:
                raise pt.Refused("This question has all the answers it can take.")
            value = pt.check_answer(q.question, raw, self.blocklist)
            wait = live.answers_rl.take(follower, self._clock())
            if wait:
                raise pt.Refused(f"Too many answers at once: try again in {wait:.0f} s.")
            q.answers[follower] = value
            live.version += 1

    def ask(self, code: str, follower: str, text: Any) -> int:
        code = self._reg.check(code)
        clean = pt.check_ask(text, self.blocklist)
        with self._lock:
            live = self._room(code)
            if len(live.asks) >= MAX_ASKS:
                raise pt.Refused("This room has all the questions it can take.")
            wait = live.asks_rl.take(follower, self._clock())
            if wait:
                raise pt.Refused(f"You have asked {ASKS[0]} questions in the last minute: try again in "
                                 f"{wait:.0f} s.")
            aid = live.next_aid
            live.next_aid += 1
            live.asks[aid] = pt.Ask(aid, clean, self._clock(), {follower})  # the asker's own vote counts
            live.version += 1
            return aid

    def upvote(self, code: str, follower: str, aid: int) -> None:
        code = self._reg.check(code)
        with self._lock:
            live = self._room(code)
            ask = live.asks.get(aid)
            if ask is None or ask.hidden:
                raise pt.Refused("That question is not there any more.")
            if follower in ask.voters:
                raise pt.Refused("You have upvoted this question already.")
            wait = live.votes_rl.take(follower, self._clock())
            if wait:
                raise pt.Refused(f"Too many upvotes at once: try again in {wait:.0f} s.")
            ask.voters.add(follower)
            live.version += 1

    # -- reading --

    def version(self, code: str) -> int:
        code = self._reg.check(code)
        with self._lock:
            live = self._rooms.get(code)
            return live.version if live else 0

    def view(self, *, code: str | None = None, secret: str | None = None, follower: str | None = None) -> LiveView:
        """What a screen shows: a follower's (by code: results once revealed, hidden questions left out) or the
        secret holder's (results always, hidden questions in)."""
        holder = secret is not None
        code = self._reg.code_for(secret) if holder else self._reg.check(code)
        with self._lock:
            live = self._room(code)
            cur = live.questions.get(live.current) if live.current else None
            answers = list(cur.answers.values()) if cur else []
            mine = cur.answers.get(follower) if cur and follower else None
            asks = tuple(pt.Ask(a.aid, a.text, a.t, set(a.voters), a.answered, a.hidden)
                         for a in pt.ranked_asks(live.asks.values(), hidden=holder))
            version = live.version
            status = cur.status if cur else None
        current = None
        if cur is not None:
            show = holder or status == "revealed"
            current = Current(cur.question, status, len(answers), pt.summarize(cur.question, answers) if show else None,
                              mine)
        return LiveView(version, current, asks)


def _new_store() -> LiveStore:
    words = pt.parse_blocklist(BLOCKLIST.read_text(encoding="utf-8")) if BLOCKLIST.exists() else frozenset()
    return LiveStore(rooms.registry(), words)


@functools.cache
def _cached_factory():
    import streamlit as st

    return st.cache_resource(show_spinner=False)(_new_store)


def store() -> LiveStore:
    """The process's one live store (st.cache_resource, beside the room registry)."""
    return _cached_factory()()
