"""Live rooms: the process-wide state behind the speaker view and the audience's follow link.

A room has two tokens, as in reveal.js's multiplex plugin (the presenter holds a secret; the audience's id is
derived from it and reveals nothing):
- `secret`: 256 random bits (`secrets.token_urlsafe(32)`, 43 characters). The presenter's session and the speaker
  view (`speaker_url`) hold it; it may publish, drive, read the chapters and close. It never appears in a follow
  link, and a room refuses state that contains it.
- `room_id`: 7 characters from an alphabet without look-alikes (`ALPHABET`: no 0/o, 1/l/i), typed from a slide or
  read from a QR code: the first bits of HMAC-SHA256(the registry's random per-process key, secret), about 34.7
  bits. A new room's id is checked against the live rooms and the recently ended ones (a fresh secret is drawn on a
  clash), so an old follow link never lands in a stranger's room. Followers can only read.

A room holds what the presenter's URL holds: `page` (a url_path from the registry's whitelist), `query` (the page's
query parameters, each a string or, for a repeated parameter such as a multiselect's, a tuple of strings), `slide`
(index on the presenter's route of `of` slides) and a human `title`; a `version` bumped only when one of these
changes; a bounded log of slide changes (for chapter markers, helm_core.chapters); and a bounded queue of drive
commands from the speaker view (`next`, `prev`, `jump:<index>`), taken by the presenter's session.

Rules:
- State is validated like URL state and refused whole when anything is off (`BadState`, nothing stored):
  `page` in the whitelist; at most `MAX_KEYS` keys matching `KEY_RE` (the shape of every key the app declares with
  ui.state.allow), none reserved (Streamlit's `embed`/`embed_options`, and those the registry is given, e.g. the
  follow page's own parameter and presenter mode's); values are strings of at most `MAX_VALUE_CHARS` characters
  without control, format (bidi overrides, zero-width), surrogate or line/paragraph-separator characters, or tuples
  of at most `MAX_ITEMS` such strings; `MAX_QUERY_CHARS` characters in all; an optional per-call key whitelist;
  `0 <= slide < of <= max_slides`; `title` one such string. Markup is kept verbatim (it means nothing here): a page
  shows a room's text with text elements only, and a follower applies a snapshot's query through the same
  `ui.state.allow` checks as a link (`clean_query` is the lenient version for a presenter's own URL).
- Lifetime: a room expires `ttl` seconds (default 4 h) after its last activity by a secret holder (publish, drive,
  take_commands, snapshot_for_secret, chapters); followers' reads never keep a room alive. At most `max_rooms`
  (default 50): creating one more first forgets the expired rooms, then reclaims the room idle longest if it has
  been idle at least `reclaim_after` (default 30 min), else refuses (`RoomsFull`): a live talk is never evicted to
  make space, whoever asks.
- Drive commands: at most `MAX_COMMANDS` wait (more are refused: the presenter's screen is not taking them); a
  jump replaces the commands before it (it is absolute); a command older than `command_ttl` (30 s) when taken is
  dropped, so a reopened presenter tab does not replay old moves.
- Errors are `RoomError`s with a message a person can act on (show it with st.error): `BadCode`/`BadSecret`
  (malformed), `NoSuchRoom`, `RoomExpired`, `RoomClosed`, `RoomsFull`, `BadState`. A message never repeats a
  code, a secret or a value; a BadState names a query key only when it is a well-formed one. Ended rooms are
  remembered (`MAX_TOMBSTONES`), so an old link says "expired" or "ended", not "unknown".
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
import re
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict, deque
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Collection, Iterable, Mapping
from urllib.parse import urlencode, urlsplit, urlunsplit

from helm_core import fmt
from helm_core.chapters import SlideChange, chapter_csv, chapter_lines

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i
CODE_LENGTH = 7
SECRET_RE = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
KEY_RE = re.compile(r"[A-Za-z0-9_]{1,40}")
MAX_KEYS = 40
MAX_VALUE_CHARS = 200
MAX_ITEMS = 100
MAX_QUERY_CHARS = 8000
MAX_TITLE_CHARS = 200
MAX_SLIDES = 1000
MAX_LOG = 500  # slide changes kept per room: a 2-hour talk changing slide every 15 s
MAX_COMMANDS = 16
MAX_TOMBSTONES = 500
MAX_SOURCES = 8
PUBLISHER_WINDOW = 60.0  # seconds: two sources publishing within it means two presenter windows
STREAMLIT_RESERVED = frozenset({"embed", "embed_options"})
FOLLOW_PARAM = "follow"  # the follow page's parameter: the room id
SPEAKER_PARAM = "speaker"  # the speaker view's parameter: the secret
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_JUMP_RE = re.compile(r"jump:([0-9]{1,4})")


class RoomError(Exception):
    """A room could not be used; str(error) is a message for the person at the screen."""


class BadCode(RoomError):
    pass


class BadSecret(RoomError):
    pass


class NoSuchRoom(RoomError):
    pass


class RoomExpired(RoomError):
    pass


class RoomClosed(RoomError):
    pass


class RoomsFull(RoomError):
    pass


class BadState(RoomError, ValueError):
    pass


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


# ---- validation (pure) ------------------------------------------------------------------------------------------

def _check_text(text: Any, what: str, limit: int) -> str:
    if not isinstance(text, str):
        raise BadState(f"{what} must be text, not {type(text).__name__}.")
    if len(text) > limit:
        raise BadState(f"{what} is {len(text):,} characters long; the limit is {limit}.")
    for ch in text:
        if unicodedata.category(ch) in _BAD_CATEGORIES:
            raise BadState(f"{what} holds an invisible or control character (U+{ord(ch):04X}); it is refused.")
    return text


def _check_key(key: Any, reserved: Collection[str], keys: Collection[str] | None) -> str:
    if not isinstance(key, str) or not KEY_RE.fullmatch(key):
        raise BadState("A query key is refused: keys are 1-40 letters, digits or underscores.")
    if key.lower() in reserved:
        raise BadState(f"Query key {key!r} is reserved and cannot be part of a room's state.")
    if keys is not None and key not in keys:
        raise BadState(f"Query key {key!r} is not one this page declares.")
    return key


def _check_value(key: str, value: Any) -> str | tuple[str, ...]:
    if isinstance(value, str):
        return _check_text(value, f"The value of {key!r}", MAX_VALUE_CHARS)
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_ITEMS:
            raise BadState(f"{key!r} has {len(value):,} values; the limit is {MAX_ITEMS}.")
        return tuple(_check_text(v, f"A value of {key!r}", MAX_VALUE_CHARS) for v in value)
    raise BadState(f"The value of {key!r} must be text or a list of texts, not {type(value).__name__}.")


def validate_query(query: Any, *, reserved: Collection[str] = STREAMLIT_RESERVED,
                   keys: Collection[str] | None = None) -> dict[str, str | tuple[str, ...]]:
    """A room's query, checked (see the module's rules) and copied: str values stay, lists become tuples.
    Raises BadState on the first problem."""
    if not isinstance(query, Mapping):
        raise BadState(f"A room's query must be a mapping of keys to values, not {type(query).__name__}.")
    if len(query) > MAX_KEYS:
        raise BadState(f"The query has {len(query):,} keys; a room holds at most {MAX_KEYS}.")
    reserved = {r.lower() for r in reserved}
    out: dict[str, str | tuple[str, ...]] = {}
    size = 0
    for k, v in query.items():
        k = _check_key(k, reserved, keys)
        out[k] = _check_value(k, v)
        size += len(k) + (len(out[k]) if isinstance(out[k], str) else sum(map(len, out[k])))
        if size > MAX_QUERY_CHARS:
            raise BadState(f"The query holds more than {MAX_QUERY_CHARS:,} characters; it is refused.")
    return out


def clean_query(params: Mapping[str, Any], *, reserved: Collection[str] = STREAMLIT_RESERVED,
                keys: Collection[str] | None = None) -> tuple[dict[str, str | tuple[str, ...]], list[str]]:
    """The lenient form for a presenter's own URL: keep every entry that passes, drop the rest. `params` maps keys
    to a string or a list of strings (e.g. `{k: st.query_params.get_all(k) for k in st.query_params}`); a one-item
    list becomes its string, an empty list is dropped. Returns (query, the keys dropped, cut to 40 characters: show
    them as text), the query within every bound (later keys are dropped once MAX_KEYS or MAX_QUERY_CHARS is
    reached)."""
    reserved = {r.lower() for r in reserved}
    out: dict[str, str | tuple[str, ...]] = {}
    dropped: list[str] = []
    size = 0
    for k, v in params.items():
        if isinstance(v, (list, tuple)) and len(v) <= 1:
            if not v:
                continue
            v = v[0]
        try:
            key = _check_key(k, reserved, keys)
            value = _check_value(key, v)
        except BadState:
            dropped.append(k[:40] if isinstance(k, str) else repr(k)[:40])
            continue
        n = len(key) + (len(value) if isinstance(value, str) else sum(map(len, value)))
        if len(out) >= MAX_KEYS or size + n > MAX_QUERY_CHARS:
            dropped.append(key)
            continue
        out[key] = value
        size += n
    return out, dropped


def normalize_code(text: Any) -> str:
    """A room code as typed: case, spaces and dashes do not matter. Raises BadCode when it cannot be one."""
    if not isinstance(text, str) or len(text) > 64:
        raise BadCode(_MSG["bad_code"])
    code = re.sub(r"[\s-]+", "", text).lower()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise BadCode(_MSG["bad_code"])
    return code


def apply_commands(commands: Iterable[str], position: int, of: int) -> int:
    """The route index after the speaker view's commands, from `position` on a route of `of` slides (pure: the
    presenter's page calls it with `take_commands`' result). Next/prev stop at the ends."""
    for c in commands:
        if c == "next":
            position = min(of - 1, position + 1)
        elif c == "prev":
            position = max(0, position - 1)
        else:
            m = _JUMP_RE.fullmatch(c)
            if m is None:
                raise ValueError(f"not a drive command: {c!r}")
            position = min(of - 1, int(m.group(1)))
    return position


def _link(page_url: str, param: str, token: str) -> str:
    parts = urlsplit(page_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("a room's link needs an http(s) address")
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode({param: token}), ""))


def follow_url(page_url: str, room_id: str, *, param: str = FOLLOW_PARAM) -> str:
    """The audience's link: `page_url` (e.g. the follow page's address, from st.context.url) with its query and
    fragment replaced by `?follow=<room id>`. Only the public id goes in; never the secret."""
    return _link(page_url, param, normalize_code(room_id))


def speaker_url(page_url: str, secret: str, *, param: str = SPEAKER_PARAM) -> str:
    """The speaker view's link, for the presenter's own second tab or phone: `?speaker=<secret>`. It can drive the
    presenter, so it is shown to the presenter only (e.g. a QR code in the presenter's sidebar), never on a slide."""
    if not isinstance(secret, str) or not SECRET_RE.fullmatch(secret):
        raise BadSecret(_MSG["bad_secret"])
    return _link(page_url, param, secret)


def qr_png(url: str, *, scale: int = 8, border: int = 4) -> bytes:
    """A QR code (error correction M) of exactly `url`, as PNG bytes (segno's own writer). Show it with
    `st.image(png, width=...)` at its own width or wider: Streamlit shrinks a wider image with bilinear filtering,
    which blurs the modules. Its width is (modules + 2 × border) × scale pixels (`qr_size`)."""
    import io

    buf = io.BytesIO()
    _qr(url).save(buf, kind="png", scale=scale, border=border)
    return buf.getvalue()


def qr_svg(url: str, *, scale: int = 8, border: int = 4) -> str:
    """The same QR code as an SVG string, (modules + 2 × border) × scale units wide (st.image shows it inline as a
    data URI, with no media file, and it stays sharp at any size)."""
    return _qr(url).svg_inline(scale=scale, border=border)


def qr_size(url: str, *, scale: int = 8, border: int = 4) -> int:
    """The pixel width (and height) of `qr_png(url, scale=scale, border=border)`."""
    return _qr(url).symbol_size(scale=scale, border=border)[0]


def _qr(url: str):
    if not isinstance(url, str) or not url or len(url) > 2000:
        raise ValueError("a QR code needs a non-empty address of at most 2,000 characters")
    return _make_qr(url)


@functools.lru_cache(maxsize=32)
def _make_qr(url: str):
    import segno

    return segno.make_qr(url, error="m")


# ---- messages ---------------------------------------------------------------------------------------------------

_MSG = {
    "bad_code": "That is not a room code. A code is 7 letters and digits, as shown on the presenter's screen "
                "(for example k7m2p9x).",
    "unknown_code": "No room with that code. Check it against the presenter's screen; if the server restarted, "
                    "ask the presenter for a new link.",
    "expired_code": "This follow link has expired: the presenter's room closed after {hours} without activity. "
                    "Ask the presenter for a new link.",
    "reclaimed_code": "This follow link has expired: the presenter's room was idle for over {idle} and made way "
                      "for a new one. Ask the presenter for a new link.",
    "closed_code": "The presenter has ended this session. Ask the presenter for a new link if the talk goes on.",
    "bad_secret": "This presenter link is not valid. Start a new room from the presenter's screen.",
    "unknown_secret": "No live room for this presenter link (the server may have restarted). Start a new room.",
    "expired_secret": "This room expired after {hours} without activity. Start a new room; followers need the new "
                      "link.",
    "reclaimed_secret": "This room was idle for over {idle} and made way for a new one. Start a new room; "
                        "followers need the new link.",
    "closed_secret": "This room was closed. Start a new room; followers need the new link.",
    "full": "The app is hosting as many live rooms as it allows ({n}). Try again when one closes (a room left idle "
            "for {reclaim} is reclaimed).",
    "queue": "{n} moves are already waiting: the presenter's screen is not taking them. Check that it is open.",
}


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return fmt.count(seconds // 3600, "hour")
    return fmt.count(max(1, round(seconds / 60)), "minute")


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
        return cls(_MSG[f"{why}_{holder}"].format(hours=_duration(self.ttl), idle=_duration(self.reclaim_after)))

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
            raise BadSecret(_MSG["bad_secret"])
        code = self._derive(secret)
        room = self._rooms.get(code)
        if room is not None and not hmac.compare_digest(room.secret, secret):
            raise BadSecret(_MSG["bad_secret"])  # another secret that derives the same id: forged
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
                    raise RoomsFull(_MSG["full"].format(n=self.max_rooms, reclaim=_duration(self.reclaim_after)))
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
        title = _check_text(title, "The title", MAX_TITLE_CHARS)
        texts = [title, *(v for value in clean.values() for v in ((value,) if isinstance(value, str) else value))]
        if isinstance(secret, str) and len(secret) >= 43 and any(secret in t for t in texts):
            raise BadState("The room's secret cannot be part of its state: followers would see it.")
        if source is not None:
            source = _check_text(source, "The source", 100)
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

    def drive(self, secret: str, command: str) -> int:
        """Queue `next`, `prev` or `jump:<index>` for the presenter's session; returns the number waiting.
        Only the secret drives: a follower's room id cannot."""
        if not isinstance(command, str):
            raise BadState("A drive command is text: next, prev or jump:<index>.")
        m = _JUMP_RE.fullmatch(command)
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
                raise BadState(_MSG["queue"].format(n=len(room.commands)))
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
    from . import nav, presenter

    return RoomRegistry(pages=[p.url_path for p in nav.PAGES],
                        reserved=(FOLLOW_PARAM, SPEAKER_PARAM, presenter.PARAM))


@functools.cache
def _cached_factory():
    import streamlit as st

    return st.cache_resource(show_spinner=False)(_new_registry)


def registry() -> RoomRegistry:
    """The process's one room registry (st.cache_resource: shared by every session of this server process)."""
    return _cached_factory()()
