"""ui/rooms.py: the process-wide room registry behind the speaker view and the follow link, its QR code, and the
Streamlit accessor shared by every session (AppTest)."""
from __future__ import annotations

import hashlib
import hmac
import io
import re
import sys
import threading
import tracemalloc
from pathlib import Path
from types import MappingProxyType

import pytest
from streamlit.testing.v1 import AppTest

from ui import nav, presenter, room_protocol, rooms
from ui.room_protocol import (BadCode, BadSecret, BadState, NoSuchRoom, RoomClosed, RoomError, RoomExpired,
                              RoomsFull)
from ui.rooms import RoomRegistry

ROOT = Path(__file__).resolve().parents[2]
PAGES = [p.url_path for p in nav.PAGES]
HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def reg(clock):
    return RoomRegistry(pages=PAGES, reserved=(room_protocol.FOLLOW_PARAM, room_protocol.SPEAKER_PARAM, presenter.PARAM),
                        clock=clock)


_SCHEMA = {"view": "schema"}


def publish(reg, secret, *, page="grid", query=_SCHEMA, slide=3, of=40, title="16 × 7 Core Grid · Schema", **kw):
    return reg.publish(secret, page=page, query=query, slide=slide, of=of, title=title, **kw)


# ---- tokens ----------------------------------------------------------------------------------------------------

def test_create_gives_a_short_typable_code_and_a_long_secret(reg):
    code, secret = reg.create()
    assert len(code) == room_protocol.CODE_LENGTH == 7 and set(code) <= set(room_protocol.ALPHABET)
    assert not set(room_protocol.ALPHABET) & set("01ilo")  # no look-alikes
    assert room_protocol.SECRET_RE.fullmatch(secret) and len(secret) >= 43  # 43 url-safe characters: 256 bits
    assert code not in secret and secret not in code


def test_the_room_id_is_an_hmac_of_the_secret_under_a_per_registry_key(clock):
    a = RoomRegistry(pages=PAGES, clock=clock, key=b"k" * 32)
    b = RoomRegistry(pages=PAGES, clock=clock, key=b"j" * 32)
    code, secret = a.create()
    digest = hmac.new(b"k" * 32, secret.encode(), hashlib.sha256).digest()
    n, expected = int.from_bytes(digest[:16], "big"), ""
    for _ in range(7):
        n, r = divmod(n, 31)
        expected += room_protocol.ALPHABET[r]
    assert code == expected
    assert b._derive(secret) != code  # another key (another process) derives another id from the same secret
    # two registries made without a key get different random keys
    assert RoomRegistry(pages=PAGES)._derive(secret) != RoomRegistry(pages=PAGES)._derive(secret)


def test_nothing_a_follower_gets_holds_the_secret(reg):
    code, secret = reg.create()
    publish(reg, secret)
    snap = reg.snapshot(code)
    assert "secret" not in {f for f in type(snap).__dataclass_fields__}
    assert secret not in repr(snap) and secret not in str(dict(snap.query))
    url = room_protocol.follow_url("https://helm.example/follow", code)
    assert url == f"https://helm.example/follow?follow={code}" and secret not in url
    # a page that slipped the secret into the state (say, a speaker link on the slide) is refused
    for leak in (dict(query={"view": secret}), dict(query={"models": ["a", f"x{secret}y"]}),
                 dict(title=f"Speaker: https://helm.example/speaker?speaker={secret}")):
        with pytest.raises(BadState, match="secret"):
            publish(reg, secret, **leak)
    assert reg.snapshot(code).version == 1
    # ... and the follower's id cannot act as the secret
    for act in (lambda: reg.drive(code, "next"), lambda: publish(reg, code), lambda: reg.close(code),
                lambda: reg.take_commands(code), lambda: reg.snapshot_for_secret(code), lambda: reg.chapters(code)):
        with pytest.raises(BadSecret):
            act()


@pytest.mark.parametrize("typed", ["{c}", "{C}", " {c} ", "{a}-{b}", "{a} {b}", "{A}-{b}\n"])
def test_codes_are_read_as_typed(reg, typed):
    code, secret = reg.create()
    text = typed.format(c=code, C=code.upper(), a=code[:3], b=code[3:], A=code[:3].upper())
    assert room_protocol.normalize_code(text) == code
    assert reg.snapshot(text).room_id == code


class _FixedSecrets(RoomRegistry):
    """Hands out the secrets given, in order: a clash of ids can be made on purpose."""

    def __init__(self, secrets_: list[str], **kw) -> None:
        super().__init__(**kw)
        self._queue = list(secrets_)

    def _new_secret(self) -> str:
        return self._queue.pop(0)


def test_a_new_room_never_takes_a_live_or_an_ended_rooms_id(clock):
    s, t, u = ("A" * 43), ("B" * 43), ("C" * 43)
    reg = _FixedSecrets([s, s, t, s, u], pages=PAGES, clock=clock)
    first, _ = reg.create()
    second, second_secret = reg.create()  # s again clashes with the live room: t is drawn
    assert second != first and second_secret == t
    reg.close(s)
    third, third_secret = reg.create()  # s clashes with the ended room: a follower's old link must not land here
    assert third_secret == u and third != first
    with pytest.raises(RoomClosed):
        reg.snapshot(first)


# ---- state -------------------------------------------------------------------------------------------------------

def test_publish_and_snapshot(reg, clock):
    code, secret = reg.create()
    start = reg.snapshot(code)
    assert start.version == 0 and not start.started and start.page is None
    query = {"view": "schema", "models": ["gpt-3 (davinci)", "BLOOM (176B)"], "release": "classic"}
    assert publish(reg, secret, query=query) == 1
    query["view"] = "changed after publishing"
    snap = reg.snapshot(code)
    assert snap.started and snap.page == "grid" and snap.slide == 3 and snap.of == 40
    assert dict(snap.query) == {"view": "schema", "models": ("gpt-3 (davinci)", "BLOOM (176B)"), "release": "classic"}
    assert isinstance(snap.query, MappingProxyType)
    with pytest.raises(TypeError):
        snap.query["view"] = "x"
    with pytest.raises(AttributeError):
        snap.slide = 4
    clock.advance(7)
    assert reg.snapshot(code).age == 7


def test_the_version_moves_only_when_something_changed(reg, clock):
    code, secret = reg.create()
    assert publish(reg, secret) == 1
    clock.advance(5)
    assert publish(reg, secret) == 1 and reg.version_of(code) == 1
    assert reg.snapshot(code).updated == 1000.0  # the state's time, not the last publish's
    assert publish(reg, secret, query={"view": "cells"}) == 2
    assert publish(reg, secret, query={"view": "cells"}, slide=4) == 3
    assert publish(reg, secret, query={"view": "cells"}, slide=4, title="Other") == 4
    assert publish(reg, secret, query={"view": "cells"}, slide=4, title="Other", page="") == 5
    assert publish(reg, secret, query={"view": "cells"}, slide=4, title="Other", page="", of=41) == 6
    assert reg.version_of(code.upper()) == 6


def test_markup_is_kept_verbatim_as_data(reg):
    code, secret = reg.create()
    hostile = {"view": "<script>alert(1)</script>", "cell": "<img src=x onerror=alert(1)>", "n": "**bold** [x](javascript:1)",
               "topic": "&lt;b&gt; ' \" ` ${x} {{x}}", "lb_model": "ﺍﻟﻌﺮﺑﻴﺔ עברית 中文 😀"}
    publish(reg, secret, query=hostile, title="<b>Title</b> & co")
    snap = reg.snapshot(code)
    assert dict(snap.query) == hostile and snap.title == "<b>Title</b> & co"  # no escaping here: pages show text


CONTROL = ["\x00", "\x07", "\x1b[31m", "\n", "\r", "\t", "\x7f", "\x85", "\u202e", "\u200b", "\u200d", "\u2066",
           "\ufeff", "\u2028", "\u2029", "\ud800"]


@pytest.mark.parametrize("query", [
    *[{"view": f"a{c}b"} for c in CONTROL],
    {"view": "x" * 10_000}, {"view": "x" * 201},
    {"view": 1}, {"view": None}, {"view": 1.5}, {"view": True}, {"view": b"bytes"}, {"view": {"nested": "dict"}},
    {"view": ["ok", {"nested": 1}]}, {"view": ["ok", 2]}, {"view": {"a", "b"}}, {"view": ["x"] * 101},
    {"view": ["x" * 201]}, {"view": [f"a{CONTROL[0]}"]},
    {f"k{i}": "v" for i in range(41)}, {f"k{i}": "v" for i in range(10_000)},
    {f"k{i}": "v" * 200 for i in range(40)},  # 40 keys within every per-value bound, 8,000+ characters in all
    {"": "v"}, {"a b": "v"}, {"a-b": "v"}, {"a.b": "v"}, {"k" * 41: "v"}, {"é": "v"}, {"<script>": "v"},
    {"a\nb": "v"}, {1: "v"}, {None: "v"}, {("a",): "v"},
    {"embed": "true"}, {"EMBED_options": "x"}, {"follow": "abcdefg"}, {"speaker": "A" * 43}, {"present": "1"},
    ["view", "schema"], "view=schema", None,
], ids=lambda q: repr(sorted(q, key=repr) if isinstance(q, (set, frozenset)) else q)[:40]
   if not (isinstance(q, dict) and any(isinstance(v, (set, frozenset)) for v in q.values()))
   else "set-valued")  # a set's repr changes order between processes: xdist workers must collect the same ids
def test_hostile_query_is_refused_and_never_stored(reg, query):
    code, secret = reg.create()
    publish(reg, secret)
    before = reg.snapshot(code)
    with pytest.raises(BadState) as err:
        publish(reg, secret, query=query)
    assert isinstance(err.value, ValueError) and str(err.value)
    assert reg.snapshot(code) == before


@pytest.mark.parametrize("change", [
    dict(page="nope"), dict(page="../grid"), dict(page="grid?x=1"), dict(page=None), dict(page=0),
    dict(slide=-1), dict(slide=40), dict(slide=10**18), dict(slide=True), dict(slide=1.0), dict(slide="3"),
    dict(slide=None), dict(of=0), dict(of=1001), dict(of=True), dict(of=2.0),
    dict(title=None), dict(title=7), dict(title="t" * 201), dict(title="line\nbreak"), dict(title="\u202etxet"),
    dict(title="a\u200bb"), dict(source="s" * 101), dict(source=3),
], ids=lambda c: repr(c)[:40])
def test_bad_page_slide_title_are_refused_and_never_stored(reg, change):
    code, secret = reg.create()
    publish(reg, secret)
    before = reg.snapshot(code)
    with pytest.raises(BadState):
        publish(reg, secret, **change)
    assert reg.snapshot(code) == before


def test_limits_themselves_are_allowed(reg):
    code, secret = reg.create()
    query = {f"k{i:02d}": "v" * 190 for i in range(40)}  # 40 keys, 7,760 characters in all
    publish(reg, secret, query=query, slide=999, of=1000, title="t" * 200, page="")
    assert dict(reg.snapshot(code).query) == query
    publish(reg, secret, query={"models": ["m"] * 100, "empty": "", "none": []})
    assert reg.snapshot(code).query["models"] == ("m",) * 100


def test_a_key_whitelist_refuses_keys_outside_it(reg):
    code, secret = reg.create()
    publish(reg, secret, query={"view": "schema"}, keys={"view", "cell"})
    with pytest.raises(BadState, match="not one this page declares"):
        publish(reg, secret, query={"view": "schema", "w_bias": "3"}, keys={"view", "cell"})
    assert dict(reg.snapshot(code).query) == {"view": "schema"}


def test_clean_query_keeps_what_passes_and_names_what_it_drops():
    params = {"view": ["schema"], "models": ["a", "b"], "empty": [], "blank": [""], "bad key": ["x"],
              "embed": ["true"], "cell": ["a\x00b"], "n": "12", "long": ["x" * 201]}
    query, dropped = room_protocol.clean_query(params)
    assert query == {"view": "schema", "models": ("a", "b"), "blank": "", "n": "12"}
    assert dropped == ["bad key", "embed", "cell", "long"]
    assert room_protocol.clean_query({"k" * 10_000: "v"})[1] == ["k" * 40]  # a name to show, cut short
    query, dropped = room_protocol.clean_query({f"k{i}": "v" for i in range(45)}, keys=None)
    assert len(query) == room_protocol.MAX_KEYS and dropped == [f"k{i}" for i in range(40, 45)]
    query, dropped = room_protocol.clean_query({"view": "x", "cell": "y"}, keys={"view"}, reserved=("cell",))
    assert query == {"view": "x"} and dropped == ["cell"]
    room_protocol.validate_query(query)  # what clean_query keeps always publishes


# ---- tokens that do not work ----------------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["", "abc", "abcdefgh", "abcdef0", "abcdefl", "ABCDEF!", "x" * 100_000, None, 7,
                                  ["abcdefg"], "abcdéfg"], ids=repr)
def test_a_malformed_code_is_not_a_room_code(reg, code):
    with pytest.raises(BadCode, match="not a room code"):
        reg.snapshot(code)
    with pytest.raises(BadCode):
        reg.version_of(code)


@pytest.mark.parametrize("secret", ["", "short", "A" * 42, "A" * 44, "A" * 42 + "!", None, 5, "A" * 100_000])
def test_a_malformed_secret_is_not_valid(reg, secret):
    with pytest.raises(BadSecret, match="presenter link is not valid"):
        publish(reg, secret)


def test_unknown_expired_and_closed_rooms_say_so_distinctly(reg, clock):
    messages = set()
    code, secret = reg.create()
    with pytest.raises(NoSuchRoom, match="No room with that code") as e:
        reg.snapshot("abcdefg" if code != "abcdefg" else "abcdefh")
    messages.add(str(e.value))
    with pytest.raises(NoSuchRoom, match="No live room") as e:
        publish(reg, "Z" * 43)
    messages.add(str(e.value))
    clock.advance(4 * HOUR + 1)
    with pytest.raises(RoomExpired, match="This follow link has expired.*4 hours") as e:
        reg.snapshot(code)
    messages.add(str(e.value))
    with pytest.raises(RoomExpired, match="expired after 4 hours") as e:
        publish(reg, secret)
    messages.add(str(e.value))
    code, secret = reg.create()
    reg.close(secret)
    with pytest.raises(RoomClosed, match="ended this session") as e:
        reg.version_of(code)
    messages.add(str(e.value))
    with pytest.raises(RoomClosed, match="was closed") as e:
        reg.close(secret)
    messages.add(str(e.value))
    assert len(messages) == 6
    assert all(isinstance(m, str) and "Traceback" not in m for m in messages)


def test_messages_never_repeat_what_the_visitor_typed(reg):
    typed = "<b>zz</b>"
    for act in (lambda: reg.snapshot(typed), lambda: reg.snapshot("zzzzzzz"), lambda: publish(reg, typed)):
        with pytest.raises(RoomError) as e:
            act()
        assert "zz" not in str(e.value)


# ---- lifetime ----------------------------------------------------------------------------------------------------

def test_a_room_expires_after_its_idle_time(reg, clock):
    code, secret = reg.create()
    publish(reg, secret)
    clock.advance(4 * HOUR)
    assert reg.snapshot(code).version == 1  # exactly the idle time: still alive
    clock.advance(1)
    with pytest.raises(RoomExpired):
        reg.snapshot(code)
    assert reg.stats()["expired"] == 1 and reg.stats()["rooms"] == 0


def test_followers_do_not_keep_a_room_alive_but_the_presenter_does(reg, clock):
    code, secret = reg.create()
    publish(reg, secret)
    for _ in range(3):  # the presenter sits on one slide for 3 h; their session polls for commands
        clock.advance(HOUR)
        reg.take_commands(secret)
    for _ in range(4):  # then only followers poll, hour after hour
        clock.advance(HOUR - 1)
        reg.version_of(code)
        reg.snapshot(code)
    clock.advance(5)
    with pytest.raises(RoomExpired):
        reg.version_of(code)


def test_ttl_is_a_constructor_argument(clock):
    reg = RoomRegistry(pages=PAGES, clock=clock, ttl=60)
    code, _ = reg.create()
    clock.advance(61)
    with pytest.raises(RoomExpired, match="1 minute"):
        reg.snapshot(code)


def test_the_number_of_rooms_is_bounded_and_a_live_talk_is_never_evicted(clock):
    reg = RoomRegistry(pages=PAGES, clock=clock, max_rooms=3, reclaim_after=30 * 60)
    made = [reg.create() for _ in range(3)]
    with pytest.raises(RoomsFull, match=r"as many live rooms as it allows \(3\)"):
        reg.create()  # every room active within the last 30 minutes: refused
    assert reg.stats()["refused"] == 1
    clock.advance(31 * 60)
    for _, secret in made[1:]:
        publish(reg, secret)  # rooms 2 and 3 are in use; room 1 idles
    code4, _ = reg.create()  # room 1 is reclaimed
    assert reg.stats()["rooms"] == 3 and reg.stats()["reclaimed"] == 1
    with pytest.raises(RoomExpired, match="idle for over 30 minutes"):
        reg.snapshot(made[0][0])
    with pytest.raises(RoomExpired, match="made way"):
        publish(reg, made[0][1])
    for code, _ in made[1:]:
        assert reg.snapshot(code).version == 1
    with pytest.raises(RoomsFull):
        reg.create()


def test_expired_rooms_are_forgotten_before_any_room_is_reclaimed(clock):
    reg = RoomRegistry(pages=PAGES, clock=clock, max_rooms=2, ttl=HOUR)
    old, _ = reg.create()
    clock.advance(HOUR / 2)
    mid, mid_secret = reg.create()
    clock.advance(HOUR / 2 + 1)  # the old room expired; the middle one is idle 30 min + 1 s (reclaimable)
    reg.create()
    assert reg.stats()["expired"] == 1 and reg.stats()["reclaimed"] == 0
    assert reg.snapshot(mid).room_id == mid


def test_ended_rooms_are_remembered_within_a_bound(clock):
    reg = RoomRegistry(pages=PAGES, clock=clock, max_rooms=1000)
    codes = []
    for _ in range(rooms.MAX_TOMBSTONES + 5):
        code, secret = reg.create()
        reg.close(secret)
        codes.append(code)
    assert len(reg._ended) == rooms.MAX_TOMBSTONES
    with pytest.raises(RoomClosed):
        reg.snapshot(codes[-1])
    with pytest.raises(NoSuchRoom):
        reg.snapshot(codes[0])  # forgotten long ago: "unknown" now


# ---- the speaker view drives -------------------------------------------------------------------------------------

def test_drive_and_take_commands(reg, clock):
    code, secret = reg.create()
    with pytest.raises(BadState, match="not on the presenter's route"):
        reg.drive(secret, "jump:0")  # nothing published yet: no route
    publish(reg, secret, slide=3, of=40)
    assert reg.drive(secret, "next") == 1
    assert reg.drive(secret, "next") == 2
    assert reg.drive(secret, "prev") == 3
    assert reg.snapshot_for_secret(secret).pending == 3
    assert reg.take_commands(secret) == ["next", "next", "prev"]
    assert reg.take_commands(secret) == []
    reg.drive(secret, "next")
    assert reg.drive(secret, "jump:39") == 1  # a jump is absolute: the moves before it go
    assert reg.take_commands(secret) == ["jump:39"]
    assert reg.version_of(code) == 1  # driving does not change the state: the presenter's publish does


@pytest.mark.parametrize("command", ["jump:40", "jump:-1", "jump:", "jump:1.5", "jump:99999", "Next", "next ",
                                     "nxt", "", "jump:0x1", None, 3, ["next"]], ids=repr)
def test_bad_commands_are_refused(reg, command):
    _, secret = reg.create()
    publish(reg, secret, of=40)
    with pytest.raises(BadState):
        reg.drive(secret, command)
    assert reg.take_commands(secret) == []


def test_the_command_queue_is_bounded_and_old_commands_are_dropped(reg, clock):
    _, secret = reg.create()
    publish(reg, secret)
    for _ in range(rooms.MAX_COMMANDS):
        reg.drive(secret, "next")
    with pytest.raises(BadState, match="presenter's screen is not taking them"):
        reg.drive(secret, "next")
    clock.advance(31)  # the presenter's tab never took them
    reg.drive(secret, "prev")  # the stale ones make room
    assert reg.take_commands(secret) == ["prev"]
    reg.drive(secret, "next")
    clock.advance(31)
    assert reg.take_commands(secret) == []  # a reopened tab does not replay old moves


@pytest.mark.parametrize("commands, position, of, expected", [
    ([], 3, 10, 3), (["next"], 3, 10, 4), (["prev"], 3, 10, 2), (["next", "next", "prev"], 3, 10, 4),
    (["next"], 9, 10, 9), (["prev"], 0, 10, 0), (["jump:7"], 0, 10, 7), (["jump:7", "next"], 0, 10, 8),
    (["jump:12"], 0, 10, 9),
])
def test_apply_commands(commands, position, of, expected):
    assert room_protocol.apply_commands(commands, position, of) == expected


# The commands move from the published slide (what the screen and the speaker show) when it is this page's, on a
# route of this length; else from the session's position. The first row is the lost Previous of a keyboard test
# under load: the session read slide 0 in a poll sent during the run that moved to slide 1.
@pytest.mark.parametrize("page, slide, of, url_path, route_len, session, expected", [
    ("", 1, 40, "", 40, 0, 1), ("grid", 5, 40, "grid", 40, 5, 5), ("grid", 5, 40, "cost", 40, 20, 20),
    (None, 0, 1, "", 40, 3, 3), ("grid", 5, 40, "grid", 38, 4, 4), ("grid", 45, 40, "grid", 40, 4, 4),
])
def test_command_origin(page, slide, of, url_path, route_len, session, expected):
    assert room_protocol.command_origin(page, slide, of, url_path, route_len, session) == expected
    # ...and a Previous from there moves one slide back from what was shown
    assert room_protocol.apply_commands(["prev"], expected, route_len) == max(0, expected - 1)


def test_apply_commands_refuses_a_non_command():
    with pytest.raises(ValueError):
        room_protocol.apply_commands(["left"], 0, 10)


def test_the_speaker_snapshot_has_clocks_and_notices_two_presenter_windows(reg, clock):
    _, secret = reg.create()
    clock.advance(90)
    publish(reg, secret, source="session-a")
    s = reg.snapshot_for_secret(secret)
    assert s.elapsed == 90 and s.created == 1000.0 and s.presenters == 1 and s.title == "16 × 7 Core Grid · Schema"
    publish(reg, secret, source="session-b", slide=4)
    assert reg.snapshot_for_secret(secret).presenters == 2  # a second master: the speaker view can warn
    clock.advance(rooms.PUBLISHER_WINDOW + 1)
    publish(reg, secret, source="session-b", slide=5)
    assert reg.snapshot_for_secret(secret).presenters == 1


def test_chapters_of_a_room(reg, clock):
    _, secret = reg.create()
    assert reg.chapters(secret) == ("", "slide,title,start,duration\n")
    clock.advance(5)
    for slide, title, wait in [(0, "Plumbing · Exam", 60), (1, "Plumbing · Papers", 3), (2, "Grid · Cells", 45),
                               (2, "Grid · Cells", 20), (3, "Grid · Blanks", 30)]:
        publish(reg, secret, slide=slide, title=title, query={"step": str(wait)})  # same slide, new state: 1 entry
        clock.advance(wait)
    lines, table = reg.chapters(secret)
    assert lines.split("\n") == ["00:00 Plumbing · Exam", "01:03 Grid · Cells", "02:08 Grid · Blanks"]
    assert table.split("\n")[1:4] == ["1,Plumbing · Exam,0.0,60.0", "2,Plumbing · Papers,60.0,3.0",
                                      "3,Grid · Cells,63.0,65.0"]
    assert reg.chapters(secret, by="section")[0].split("\n") == ["00:00 Plumbing", "01:03 Grid"]
    assert reg.chapters(secret, start=65.0)[0].split("\n") == ["00:00 Grid · Cells", "01:08 Grid · Blanks"]
    with pytest.raises(BadState):
        reg.chapters(secret, by="tab")
    with pytest.raises(BadState):
        reg.chapters(secret, start=10_000)


@pytest.mark.parametrize("created_to_first, first_to_now", [(0.9, 0.2), (0.0, 0.0), (0.5, 0.99), (2.7, 0.4)])
def test_chapters_within_the_first_slides_first_second(reg, clock, created_to_first, first_to_now):
    """Asked for under a second after the first slide (a speaker view opened with the room), across a whole second
    of the room's clock (0.9 → 1.1): one chapter at 00:00 with no duration yet, never an error."""
    _, secret = reg.create()
    clock.advance(created_to_first)
    publish(reg, secret, slide=0, title="Plumbing · Exam")
    clock.advance(first_to_now)
    lines, table = reg.chapters(secret)
    assert lines == "00:00 Plumbing · Exam"
    assert table.split("\n")[1] == "1,Plumbing · Exam,0.0,"


def test_the_log_is_bounded(reg, clock):
    _, secret = reg.create()
    for i in range(rooms.MAX_LOG + 50):
        publish(reg, secret, slide=i % 2, of=2, title=f"Slide {i % 2}")
        clock.advance(1)
    table = reg.chapters(secret)[1]
    assert len(table.strip().split("\n")) == 1 + rooms.MAX_LOG


# ---- concurrency -------------------------------------------------------------------------------------------------

def test_many_threads_publish_and_read_without_lost_updates(reg):
    """32 threads, each publishing a state of its own 1,000 times and reading after each: every publish changes the
    state, so every one gets its own version; a reader never sees a version go back or a torn state."""
    code, secret = reg.create()
    threads_n, rounds = 32, 1000
    versions: list[list[int]] = [[] for _ in range(threads_n)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads_n)

    def work(t: int) -> None:
        try:
            barrier.wait()
            seen = 0
            for i in range(rounds):
                versions[t].append(publish(reg, secret, query={"t": str(t), "i": str(i)}, slide=i % 40,
                                           title=f"{t}-{i}"))
                snap = reg.snapshot(code)
                assert snap.version >= seen
                seen = snap.version
                assert snap.title == f"{snap.query['t']}-{snap.query['i']}"  # one publish's state, whole
                assert snap.slide == int(snap.query["i"]) % 40
                if i % 100 == 0:
                    reg.drive(secret, "next")
                    reg.take_commands(secret)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, to shake out races
    try:
        workers = [threading.Thread(target=work, args=(t,)) for t in range(threads_n)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    every = [v for vs in versions for v in vs]
    assert sorted(every) == list(range(1, threads_n * rounds + 1))  # no version twice, none lost
    assert all(a < b for vs in versions for a, b in zip(vs, vs[1:]))
    assert reg.version_of(code) == threads_n * rounds
    assert reg.stats()["changes"] == threads_n * rounds


def test_many_threads_create_within_the_bound(clock):
    reg = RoomRegistry(pages=PAGES, clock=clock, max_rooms=50)
    made, full = [], []

    def work() -> None:
        for _ in range(10):
            try:
                made.append(reg.create())
            except RoomsFull:
                full.append(1)

    workers = [threading.Thread(target=work) for _ in range(16)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(made) == 50 and len(full) == 110
    assert len({c for c, _ in made}) == 50 and reg.stats()["rooms"] == 50


def test_memory_of_a_full_room_is_bounded(clock):
    """Rooms at every bound (40 keys of 190 characters, a full log of 200-character titles, a full queue): 191 kB
    each measured on Python 3.11, bounded at 250 kB, so 50 of them stay under 12.5 MB. Two rooms are measured
    (tracemalloc slows the publishes ~10×)."""
    n = 2
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        reg = RoomRegistry(pages=PAGES, clock=clock, max_rooms=50)
        for _ in range(n):
            _, secret = reg.create()
            for i in range(rooms.MAX_LOG):
                clock.advance(0.001)
                query = {f"k{j:02d}": f"{i:04d}" + "v" * 186 for j in range(40)} if i % 100 == 0 else {"v": str(i)}
                publish(reg, secret, query=query, slide=i % 2, of=2, title=f"{i:04d}" + "t" * 196)
            publish(reg, secret, query={f"k{j:02d}": f"{j:04d}" + "v" * 186 for j in range(40)}, slide=0, of=2)
            for _ in range(rooms.MAX_COMMANDS):
                reg.drive(secret, "next")
        used = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))
    finally:
        tracemalloc.stop()
    assert used / n < 250_000, f"{used / n / 1000:.0f} kB per room"


# ---- follow link and QR code ---------------------------------------------------------------------------------

@pytest.mark.parametrize("page_url, expected", [
    ("https://helm.example/follow", "https://helm.example/follow?follow=k7m2p9x"),
    ("https://helm.example/follow?present=1&secret=x#top", "https://helm.example/follow?follow=k7m2p9x"),
    ("http://localhost:8501", "http://localhost:8501/?follow=k7m2p9x"),
])
def test_follow_url(page_url, expected):
    assert room_protocol.follow_url(page_url, "K7M-2P9X") == expected


@pytest.mark.parametrize("page_url", ["javascript:alert(1)", "/follow", "ftp://x/y", ""])
def test_links_need_an_http_address(page_url):
    with pytest.raises(ValueError):
        room_protocol.follow_url(page_url, "k7m2p9x")
    with pytest.raises(ValueError):
        room_protocol.speaker_url(page_url, "A" * 43)


def test_speaker_url_carries_a_well_formed_secret_only(reg):
    _, secret = reg.create()
    assert room_protocol.speaker_url("https://helm.example/speaker?x=1", secret) == f"https://helm.example/speaker?speaker={secret}"
    for bad in ("k7m2p9x", "A" * 42, "A" * 42 + "&"):
        with pytest.raises(BadSecret):
            room_protocol.speaker_url("https://helm.example/speaker", bad)


def _png_modules(png: bytes, scale: int, border: int) -> list[list[bool]]:
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("L")
    n = img.size[0] // scale
    return [[img.getpixel((x * scale + scale // 2, y * scale + scale // 2)) < 128 for x in range(border, n - border)]
            for y in range(border, n - border)]


@pytest.mark.parametrize("url", ["https://helm.example/follow?follow=k7m2p9x",
                                 "http://localhost:8501/?follow=23456789"[:38],
                                 "https://a-very-long-app-name-on-community-cloud.streamlit.app/follow?follow=abcdefg"])
def test_the_qr_code_encodes_exactly_the_follow_url(url):
    import zxingcpp
    from PIL import Image

    png = room_protocol.qr_png(url)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    assert img.size == (room_protocol.qr_size(url), room_protocol.qr_size(url))
    found = zxingcpp.read_barcodes(img.convert("L"))
    assert [(r.text, r.format) for r in found] == [(url, zxingcpp.BarcodeFormat.QRCode)]
    # the PNG is segno's symbol for the URL, module for module, and the SVG is the same size
    import segno

    qr = segno.make_qr(url, error="m")
    assert _png_modules(png, 8, 4) == [[bool(v) for v in row] for row in qr.matrix]
    svg = room_protocol.qr_svg(url)
    assert svg.startswith("<svg ") and f'width="{room_protocol.qr_size(url)}"' in svg


@pytest.mark.parametrize("url", ["", None, "x" * 2001])
def test_the_qr_code_refuses_no_or_huge_addresses(url):
    with pytest.raises(ValueError):
        room_protocol.qr_png(url)


# ---- consistency with the app's URL state ------------------------------------------------------------------------

def _declared_query_keys() -> set[str]:
    """Every query key the app's pages and ui modules name literally (state.allow, sections, bound widgets), the
    recipe controls' keys and presenter mode's."""
    from ui import recipe_controls

    from ui import slides

    keys = set(recipe_controls.QUERY_KEYS) | {presenter.PARAM, "step"}
    keys |= {deck.key for spec in nav.PAGES if (deck := slides.deck_of(spec)) is not None}  # `<page>_section`
    pattern = re.compile(r"""(?:allow\(|sections\(|key=)["']([^"']+)["']""")
    for path in [*ROOT.glob("app_pages/*.py"), *ROOT.glob("ui/*.py"), ROOT / "Home.py"]:
        text = path.read_text(encoding="utf-8")
        for call in re.finditer(r"state\.allow\([^)]*\)|sections\([^)]*|key=[^,)]*[^)]*bind=\"query-params\"", text):
            keys.update(m.group(1) for m in pattern.finditer(call.group(0)))
    return keys


def test_every_query_key_the_app_declares_fits_a_room():
    keys = _declared_query_keys()
    assert len(keys) > 40 and {"cohort", "release", "w_accuracy", "grid_section"} <= keys
    assert [k for k in keys if not room_protocol.KEY_RE.fullmatch(k)] == []
    reserved = {"embed", "embed_options", room_protocol.FOLLOW_PARAM, room_protocol.SPEAKER_PARAM, presenter.PARAM}
    assert keys & reserved == {presenter.PARAM}  # presenter mode stays the follower's own choice


# ---- the Streamlit accessor: one registry per process, shared by sessions ----------------------------------------

def test_registry_is_the_process_one_and_knows_the_app():
    reg = rooms.registry()
    assert rooms.registry() is reg
    assert reg.pages == frozenset(PAGES)
    assert {"follow", "speaker", "present", "embed"} <= reg.reserved
    query, dropped = room_protocol.clean_query({"view": "schema", "present": "1", "follow": "k7m2p9x"}, reserved=reg.reserved)
    assert query == {"view": "schema"} and dropped == ["present", "follow"]


def _presenter_app():
    import streamlit as st

    from ui import room_protocol, rooms

    reg = rooms.registry()
    code, secret = reg.create()
    reg.publish(secret, page="grid", query={"view": "schema"}, slide=3, of=40, title="16 × 7 Core Grid · Schema")
    st.text(f"code={code}")
    st.text(f"registry={id(reg)}")
    url = room_protocol.follow_url("http://localhost:8501/follow", code)
    st.image(room_protocol.qr_png(url), width=room_protocol.qr_size(url))
    st.image(room_protocol.qr_svg(url), width=200)


def _follower_app():
    import streamlit as st

    from ui import room_protocol, rooms

    reg = rooms.registry()
    st.text(f"registry={id(reg)}")
    try:
        snap = reg.snapshot(st.query_params.get("follow", ""))
    except room_protocol.RoomError as e:
        st.error(str(e))
    else:
        st.text(f"follows {snap.page} {dict(snap.query)} {snap.title}")


def _texts(at) -> dict[str, str]:
    return dict(t.value.split("=", 1) if "=" in t.value else ("text", t.value) for t in at.text)


def test_two_sessions_share_one_registry():
    presenter_at = AppTest.from_function(_presenter_app).run()
    assert not presenter_at.exception
    shown = _texts(presenter_at)
    follower = AppTest.from_function(_follower_app)
    follower.query_params["follow"] = shown["code"].upper()
    follower.run()
    assert not follower.exception
    assert _texts(follower)["registry"] == shown["registry"]
    assert follower.text[1].value == "follows grid {'view': 'schema'} 16 × 7 Core Grid · Schema"
    # a code nobody made: a message, never a traceback
    stranger = AppTest.from_function(_follower_app)
    stranger.query_params["follow"] = "zzzzzzz"
    stranger.run()
    assert not stranger.exception
    assert stranger.error[0].value.startswith("No room with that code")
    bad = AppTest.from_function(_follower_app)
    bad.query_params["follow"] = "<script>"
    bad.run()
    assert not bad.exception and bad.error[0].value.startswith("That is not a room code")
