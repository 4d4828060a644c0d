"""What crosses a live room's boundary: its codes, secrets and links, the state a room accepts, and the errors a
person sees. Pure Python (no Streamlit); ui.rooms (the registry) builds on it.

A room has two tokens, as in reveal.js's multiplex plugin (the presenter holds a secret; the audience's id is
derived from it and reveals nothing):
- `secret`: 256 random bits (`secrets.token_urlsafe(32)`, 43 characters). The presenter's session and the speaker
  view (`speaker_url`) hold it; it may publish, drive, read the chapters and close. It never appears in a follow
  link, and a room refuses state that contains it.
- `room_id`: 7 characters from an alphabet without look-alikes (`ALPHABET`: no 0/o, 1/l/i), typed from a slide or
  read from a QR code: the first bits of HMAC-SHA256(the registry's random per-process key, secret), about 34.7
  bits. A new room's id is checked against the live rooms and the recently ended ones (a fresh secret is drawn on a
  clash), so an old follow link never lands in a stranger's room. Followers can only read.

State is validated like URL state and refused whole when anything is off (`BadState`, nothing stored): `page` in the
registry's whitelist; at most `MAX_KEYS` keys matching `KEY_RE` (the shape of every key the app declares with
ui.state.allow), none reserved (Streamlit's `embed`/`embed_options`, and those the registry is given, e.g. the follow
page's own parameter and presenter mode's); values are strings of at most `MAX_VALUE_CHARS` characters without
control, format (bidi overrides, zero-width), surrogate or line/paragraph-separator characters, or tuples of at most
`MAX_ITEMS` such strings; `MAX_QUERY_CHARS` characters in all; an optional per-call key whitelist; `0 <= slide < of
<= MAX_SLIDES`; `title` one such string. Markup is kept verbatim (it means nothing here): a page shows a room's text
with text elements only, and a follower applies a snapshot's query through the same `ui.state.allow` checks as a
link (`clean_query` is the lenient version for a presenter's own URL).

Errors are `RoomError`s with a message a person can act on (show it with st.error): `BadCode`/`BadSecret`
(malformed), `NoSuchRoom`, `RoomExpired`, `RoomClosed`, `RoomsFull`, `BadState`. A message never repeats a code, a
secret or a value; a BadState names a query key only when it is a well-formed one.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Collection, Iterable, Mapping
from urllib.parse import urlencode, urlsplit, urlunsplit

from helm_core import fmt

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
STREAMLIT_RESERVED = frozenset({"embed", "embed_options"})
FOLLOW_PARAM = "follow"  # the follow page's parameter: the room id
SPEAKER_PARAM = "speaker"  # the speaker view's parameter: the secret
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
JUMP_RE = re.compile(r"jump:([0-9]{1,4})")


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



# ---- validation (pure) ------------------------------------------------------------------------------------------

def check_text(text: Any, what: str, limit: int) -> str:
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
        return check_text(value, f"The value of {key!r}", MAX_VALUE_CHARS)
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_ITEMS:
            raise BadState(f"{key!r} has {len(value):,} values; the limit is {MAX_ITEMS}.")
        return tuple(check_text(v, f"A value of {key!r}", MAX_VALUE_CHARS) for v in value)
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
        raise BadCode(MESSAGES["bad_code"])
    code = re.sub(r"[\s-]+", "", text).lower()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise BadCode(MESSAGES["bad_code"])
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
            m = JUMP_RE.fullmatch(c)
            if m is None:
                raise ValueError(f"not a drive command: {c!r}")
            position = min(of - 1, int(m.group(1)))
    return position


def command_origin(published_page: str | None, published_slide: int, published_of: int, url_path: str, of: int,
                   session_position: int) -> int:
    """The route index the speaker view's commands move from: the slide the presenter's screen shows, i.e. what
    its last full run published (and what the speaker saw), when that was this page on a route of this length;
    else the session's own position. (A poll the browser sends during a full run carries the slide widget's value
    from before that run, and Streamlit applies it to the session state: one poll can read the slide before a
    move, and a Previous taken then would be lost.)"""
    if published_page == url_path and published_of == of and 0 <= published_slide < of:
        return published_slide
    return session_position


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
        raise BadSecret(MESSAGES["bad_secret"])
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

MESSAGES = {
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


def duration_words(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return fmt.count(seconds // 3600, "hour")
    return fmt.count(max(1, round(seconds / 60)), "minute")
