"""Live rooms: the process-wide state behind the speaker view and the audience's follow link.

The codes, links, state rules and errors are ui.room_protocol's; this module is the registry that holds the rooms.

A room holds what the presenter's URL holds: `page` (a url_path from the registry's whitelist), `query` (the page's
query parameters, each a string or, for a repeated parameter such as a multiselect's, a tuple of strings), `slide`
(index on the presenter's route of `of` slides) and a human `title`; a `version` bumped only when one of these
changes; a bounded log of slide changes (for chapter markers, helm_core.chapters); and a bounded queue of drive
commands from the speaker view (`next`, `prev`, `jump:<index>`), taken by the presenter's session.

Rules (the state's own checks and the errors' wording: ui.room_protocol):
- Lifetime: a room expires `ttl` seconds (default 4 h) after its last activity by a secret holder (publish, drive,
  take_commands, snapshot_for_secret, chapters); followers' reads never keep a room alive. At most `max_rooms`
  (default 50): creating one more first forgets the expired rooms, then reclaims the room idle longest if it has
  been idle at least `reclaim_after` (default 30 min), else refuses (`RoomsFull`): a live talk is never evicted to
  make space, whoever asks.
- Drive commands: at most `MAX_COMMANDS` wait (more are refused: the presenter's screen is not taking them); a
  jump replaces the commands before it (it is absolute); a command older than `command_ttl` (30 s) when taken is
  dropped, so a reopened presenter tab does not replay old moves.
- Ended rooms are remembered (`MAX_TOMBSTONES`), so an old link says "expired" or "ended", not "unknown".
- Every method takes the registry's one lock (input is checked before, outside it); snapshots are immutable (the
  query is a read-only view of a dict the registry never changes after storing it).
- Memory: a room at every bound (40 keys, a full log of `MAX_LOG` 200-character titles, a full queue) takes about
  190 kB, so 50 rooms stay under 10 MB. Measured: publish ~10 µs, snapshot ~2.6 µs, version_of ~1.3 µs.

Limit: a room lives in one server process. That holds on Streamlit Community Cloud (one process per app) and on a
single `streamlit run`; a deployment with several replicas behind a load balancer would need a shared store
(e.g. Redis) behind the same API, since a follower may reach another replica than the presenter. A server
restart ends every room (links then say "No room with that code").
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Collection, Mapping

from . import nav, presenter
from .room_protocol import (ALPHABET, CODE_LENGTH, FOLLOW_PARAM, JUMP_RE, MAX_SLIDES, MAX_TITLE_CHARS, MESSAGES,
                            SECRET_RE, SPEAKER_PARAM, STREAMLIT_RESERVED, BadSecret, BadState, NoSuchRoom, RoomClosed,
                            RoomError, RoomExpired, RoomsFull, check_text, duration_words, normalize_code,
                            validate_query)
from helm_core.chapters import SlideChange, chapter_csv, chapter_lines

MAX_LOG = 500  # slide changes kept per room: a 2-hour talk changing slide every 15 s
MAX_COMMANDS = 16
MAX_TOMBSTONES = 500
MAX_SOURCES = 8
PUBLISHER_WINDOW = 60.0  # seconds: two sources publishing within it means two presenter windows


@dataclass(frozen=True)
class RoomSnapshot:
    """What a follower sees. `page` is None until the presenter's first publish (version 0)."""
    room_id: str
    version: int
    page: str | None
    query: Mapping[str, str | tuple[str, ...]]  # read-only
    slide: int
    of: int
    title: str
    updated: float  # the registry's clock when the state last changed
    age: float  # seconds since then, at the time of the snapshot

    @property
    def started(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class SpeakerSnapshot(RoomSnapshot):
    """What the speaker view sees: the follower's snapshot plus the room's clocks and queue."""
    created: float = 0.0
    elapsed: float = 0.0  # seconds since the room was created
    pending: int = 0  # drive commands not taken yet
    presenters: int = 0  # distinct sources that published in the last PUBLISHER_WINDOW seconds (> 1: two windows)


# ---- the registry -----------------------------------------------------------------------------------------------

class _Room:
    __slots__ = ("room_id", "secret", "created", "alive", "updated", "version", "page", "query", "slide", "of",
                 "title", "log", "commands", "sources")

    def __init__(self, room_id: str, secret: str, now: float) -> None:
        self.room_id = room_id
        self.secret = secret
        self.created = self.alive = self.updated = now
        self.version = 0
        self.page: str | None = None
        self.query: Mapping[str, str | tuple[str, ...]] = MappingProxyType({})
        self.slide = 0
        self.of = 0
        self.title = ""
        self.log: deque[SlideChange] = deque(maxlen=MAX_LOG)
        self.commands: deque[tuple[float, str]] = deque()
        self.sources: OrderedDict[str, float] = OrderedDict()


class RoomRegistry:
    """The process's live rooms (see the module's docstring). Plain Python, no Streamlit: `registry()` below holds
    the process's one instance.

    pages: the url_paths a room's `page` may name. reserved: query keys a room may never hold (besides Streamlit's
    embed keys). ttl: seconds of inactivity after which a room expires. max_rooms, reclaim_after: the bound on
    rooms and when an idle room may be reclaimed for a new one. clock: seconds, monotonic (injectable for tests).
    key: the HMAC key that derives room ids from secrets (random per registry unless given)."""

    def __init__(self, pages: Collection[str], *, reserved: Collection[str] = (), ttl: float = 4 * 3600,
                 max_rooms: int = 50, reclaim_after: float = 30 * 60, command_ttl: float = 30.0,
                 max_slides: int = MAX_SLIDES, clock: Callable[[], float] = time.monotonic,
                 key: bytes | None = None) -> None:
        if not pages:
            raise ValueError("a room registry needs the pages a room may show")
        if ttl <= 0 or reclaim_after <= 0 or command_ttl <= 0 or max_rooms < 1 or max_slides < 1:
            raise ValueError("ttl, reclaim_after, command_ttl, max_rooms and max_slides must be positive")
        self._pages = frozenset(pages)
        self._reserved = frozenset(r.lower() for r in (*STREAMLIT_RESERVED, *reserved))
        self.ttl = float(ttl)
        self.max_rooms = int(max_rooms)
        self.reclaim_after = float(reclaim_after)
        self.command_ttl = float(command_ttl)
        self.max_slides = int(max_slides)
        self._clock = clock
        self._key = key if key is not None else secrets.token_bytes(32)
        self._lock = threading.Lock()
        self._rooms: dict[str, _Room] = {}
        self._ended: OrderedDict[str, str] = OrderedDict()  # room_id -> "expired" | "reclaimed" | "closed"
        self._counts = {"created": 0, "expired": 0, "closed": 0, "reclaimed": 0, "refused": 0, "publishes": 0,
                        "changes": 0}

    @property
    def pages(self) -> frozenset[str]:
        return self._pages

    @property
    def reserved(self) -> frozenset[str]:
        """The query keys a room never holds (pass them to `clean_query`)."""
        return self._reserved

    # -- tokens --

    def now(self) -> float:
        return self._clock()

    def _new_secret(self) -> str:
        return secrets.token_urlsafe(32)

    def _derive(self, secret: str) -> str:
        digest = hmac.new(self._key, secret.encode("ascii"), hashlib.sha256).digest()
        n = int.from_bytes(digest[:16], "big")
        out = []
        for _ in range(CODE_LENGTH):
            n, r = divmod(n, len(ALPHABET))
            out.append(ALPHABET[r])
        return "".join(out)

    def _end(self, room: _Room, why: str) -> None:
        del self._rooms[room.room_id]
        self._ended[room.room_id] = why
        self._ended.move_to_end(room.room_id)
        while len(self._ended) > MAX_TOMBSTONES:
            self._ended.popitem(last=False)
        self._counts[why] += 1

    def _expired(self, room: _Room, now: float) -> bool:
        return now - room.alive > self.ttl

    def _purge(self, now: float) -> None:
        for room in [r for r in self._rooms.values() if self._expired(r, now)]:
            self._end(room, "expired")

    def _gone(self, code: str, holder: str) -> RoomError:
        """The error for a room id with no live room: unknown, expired, reclaimed or closed (as a follower or the
        presenter reads it)."""
        why = self._ended.get(code, "unknown")
        cls = {"unknown": NoSuchRoom, "closed": RoomClosed}.get(why, RoomExpired)
        return cls(MESSAGES[f"{why}_{holder}"].format(hours=duration_words(self.ttl),
                                                      idle=duration_words(self.reclaim_after)))

    def _by_code(self, room_id: Any, now: float) -> _Room:
        code = normalize_code(room_id)
        room = self._rooms.get(code)
        if room is not None and self._expired(room, now):
            self._end(room, "expired")
            room = None
        if room is None:
            raise self._gone(code, "code")
        return room

    def _by_secret(self, secret: Any, now: float) -> _Room:
        if not isinstance(secret, str) or not SECRET_RE.fullmatch(secret):
            raise BadSecret(MESSAGES["bad_secret"])
        code = self._derive(secret)
        room = self._rooms.get(code)
        if room is not None and not hmac.compare_digest(room.secret, secret):
            raise BadSecret(MESSAGES["bad_secret"])  # another secret that derives the same id: forged
        if room is not None and self._expired(room, now):
            self._end(room, "expired")
            room = None
        if room is None:
            raise self._gone(code, "secret")
        room.alive = now
        return room

    # -- presenter --

    def create(self) -> tuple[str, str]:
        """A new room: (room_id for the follow link, secret for the presenter and the speaker view)."""
        with self._lock:
            now = self._clock()
            self._purge(now)
            if len(self._rooms) >= self.max_rooms:
                idlest = min(self._rooms.values(), key=lambda r: r.alive)
                if now - idlest.alive < self.reclaim_after:
                    self._counts["refused"] += 1
                    raise RoomsFull(MESSAGES["full"].format(n=self.max_rooms,
                                                            reclaim=duration_words(self.reclaim_after)))
                self._end(idlest, "reclaimed")
            for _ in range(16):
                secret = self._new_secret()
                code = self._derive(secret)
                if code not in self._rooms and code not in self._ended:
                    break
            else:  # 16 clashes in a space of 31^7 ids: the secret source is broken
                raise RuntimeError("could not draw a fresh room id")
            self._rooms[code] = _Room(code, secret, now)
            self._counts["created"] += 1
            return code, secret

    def publish(self, secret: str, *, page: str, query: Mapping[str, Any], slide: int, of: int, title: str,
                keys: Collection[str] | None = None, source: str | None = None) -> int:
        """Set the room's state (the presenter's page, query, slide `slide` of `of` and its title); returns the
        version, bumped only when something changed. `keys`: an optional whitelist of query keys (e.g. those the
        presenter's run declared). `source`: an id of the publishing session (to notice two presenter windows).
        Refuses invalid state whole (BadState)."""
        if not isinstance(page, str) or page not in self._pages:
            raise BadState("The page is not one of this app's pages.")
        clean = validate_query(query, reserved=self._reserved, keys=keys)
        if not (isinstance(of, int) and not isinstance(of, bool) and 1 <= of <= self.max_slides):
            raise BadState(f"The route length must be a whole number from 1 to {self.max_slides}.")
        if not (isinstance(slide, int) and not isinstance(slide, bool) and 0 <= slide < of):
            raise BadState(f"The slide must be a whole number from 0 to {of - 1}.")
        title = check_text(title, "The title", MAX_TITLE_CHARS)
        texts = [title, *(v for value in clean.values() for v in ((value,) if isinstance(value, str) else value))]
        if isinstance(secret, str) and len(secret) >= 43 and any(secret in t for t in texts):
            raise BadState("The room's secret cannot be part of its state: followers would see it.")
        if source is not None:
            source = check_text(source, "The source", 100)
        with self._lock:
            now = self._clock()
            room = self._by_secret(secret, now)
            self._counts["publishes"] += 1
            if source is not None:
                room.sources[source] = now
                room.sources.move_to_end(source)
                while len(room.sources) > MAX_SOURCES:
                    room.sources.popitem(last=False)
            if (room.version and page == room.page and clean == room.query and slide == room.slide
                    and of == room.of and title == room.title):
                return room.version
            if not room.log or room.log[-1].slide != slide or room.log[-1].title != title:
                room.log.append(SlideChange(now - room.created, slide, title))
            room.page, room.query, room.slide, room.of, room.title = page, MappingProxyType(clean), slide, of, title
            room.version += 1
            room.updated = now
            self._counts["changes"] += 1
            return room.version

    def take_commands(self, secret: str) -> list[str]:
        """The speaker view's commands waiting for the presenter, oldest first, and empties the queue. Commands
        older than `command_ttl` are dropped."""
        with self._lock:
            now = self._clock()
            room = self._by_secret(secret, now)
            out = [c for t, c in room.commands if now - t <= self.command_ttl]
            room.commands.clear()
            return out

    def chapters(self, secret: str, *, by: str = "slide", start: float | None = None,
                 min_seconds: float = 10.0) -> tuple[str, str]:
        """(chapter lines, CSV) for the room so far, up to now (helm_core.chapters; `start` in seconds since the
        room was created, e.g. when the recording started; default its first slide)."""
        with self._lock:
            now = self._clock()
            room = self._by_secret(secret, now)
            log, end = list(room.log), now - room.created
        if start is not None and not (isinstance(start, (int, float)) and 0 <= start < end):
            raise BadState("The recording's start must be a time between the room's start and now.")
        first = start if start is not None else (log[0].t if log else None)
        if first is not None and end - first < 1:  # within the first slide's first second: no duration yet
            end = None  # (the lines count whole seconds from `first`: an end under a second after it is 00:00)
        try:
            return (chapter_lines(log, by=by, start=start, end=end, min_seconds=min_seconds),
                    chapter_csv(log, by=by, start=start, end=end))
        except ValueError as e:  # a bad `by` or `min_seconds` from the page
            raise BadState(f"Chapters could not be made: {e}.") from None

    def log(self, secret: str) -> list[SlideChange]:
        """The room's slide changes so far, oldest first (for the speaker view's time per section)."""
        with self._lock:
            return list(self._by_secret(secret, self._clock()).log)

    def close(self, secret: str) -> None:
        """End the room: followers' links then say the session has ended."""
        with self._lock:
            room = self._by_secret(secret, self._clock())
            self._end(room, "closed")

    # -- speaker view --

    def code_for(self, secret: str) -> str:
        """The room id of a live room's secret (a secret holder's act: keeps the room alive)."""
        with self._lock:
            return self._by_secret(secret, self._clock()).room_id


    def drive(self, secret: str, command: str) -> int:
        """Queue `next`, `prev` or `jump:<index>` for the presenter's session; returns the number waiting.
        Only the secret drives: a follower's room id cannot."""
        if not isinstance(command, str):
            raise BadState("A drive command is text: next, prev or jump:<index>.")
        m = JUMP_RE.fullmatch(command)
        if command not in ("next", "prev") and m is None:
            raise BadState("A drive command is next, prev or jump:<index>.")
        with self._lock:
            now = self._clock()
            room = self._by_secret(secret, now)
            if m is not None:
                if not room.of or int(m.group(1)) >= room.of:
                    raise BadState("That slide is not on the presenter's route.")
                room.commands.clear()  # a jump is absolute: the moves before it no longer matter
            while room.commands and now - room.commands[0][0] > self.command_ttl:
                room.commands.popleft()
            if len(room.commands) >= MAX_COMMANDS:
                raise BadState(MESSAGES["queue"].format(n=len(room.commands)))
            room.commands.append((now, command))
            return len(room.commands)

    def snapshot_for_secret(self, secret: str) -> SpeakerSnapshot:
        with self._lock:
            now = self._clock()
            room = self._by_secret(secret, now)
            presenters = sum(1 for t in room.sources.values() if now - t <= PUBLISHER_WINDOW)
            return SpeakerSnapshot(**self._fields(room, now), created=room.created, elapsed=now - room.created,
                                   pending=len(room.commands), presenters=presenters)

    # -- followers --

    def check(self, room_id: str) -> str:
        """The normalized id of a live room (a follower's read: RoomError when there is none)."""
        with self._lock:
            return self._by_code(room_id, self._clock()).room_id

    def snapshot(self, room_id: str) -> RoomSnapshot:
        """The room's state for a follower (read-only; never keeps the room alive)."""
        with self._lock:
            now = self._clock()
            return RoomSnapshot(**self._fields(self._by_code(room_id, now), now))

    def version_of(self, room_id: str) -> int:
        """The room's version, cheaply: a polling follower skips its work while it is unchanged."""
        with self._lock:
            return self._by_code(room_id, self._clock()).version

    @staticmethod
    def _fields(room: _Room, now: float) -> dict:
        return dict(room_id=room.room_id, version=room.version, page=room.page, query=room.query,
                    slide=room.slide, of=room.of, title=room.title, updated=room.updated, age=now - room.updated)

    def stats(self) -> dict[str, int | float]:
        """Counts for a status line or a benchmark: live rooms, the bound, and what happened since start."""
        with self._lock:
            now = self._clock()
            self._purge(now)
            idle = max((now - r.alive for r in self._rooms.values()), default=0.0)
            return {"rooms": len(self._rooms), "max_rooms": self.max_rooms, "longest_idle": idle, **self._counts}


def _new_registry() -> RoomRegistry:
    return RoomRegistry(pages=[p.url_path for p in nav.PAGES],
                        reserved=(FOLLOW_PARAM, SPEAKER_PARAM, presenter.PARAM))


@functools.cache
def _cached_factory():
    import streamlit as st

    return st.cache_resource(show_spinner=False)(_new_registry)


def registry() -> RoomRegistry:
    """The process's one room registry (st.cache_resource: shared by every session of this server process)."""
    return _cached_factory()()
