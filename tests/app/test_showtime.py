"""AppTest: the live tools on the app's own pages (ui/showtime.py, app_pages/speaker.py): the speaker view with a
good, a bad and an ended room; a follower's bar and its catching up; a presenter's run publishing its slide; the
time per section. (The registry itself: test_rooms.py; a whole live episode in Chromium: test_showtime_browser.py.)
"""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from helm_core.chapters import SlideChange
from ui import rooms, slides

from .helpers import ROOT, TIMEOUT, open_page, texts

SPEAKER = "app_pages/speaker.py"


def _speaker(secret: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    at.run()
    at.switch_page(SPEAKER)
    at.query_params["speaker"] = secret
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _grid_step(at_route):
    return next(s for s in at_route if s.page == "grid" and s.title == "Grid")


def _room_on_grid(release: str = "classic", **query):
    """A new room whose presenter is on the grid's "Grid" slide of `release` (with `query` beside grid_section):
    the registry, the room's code and secret, the route and that step."""
    reg = rooms.registry()
    code, secret = reg.create()
    route = _route(release)
    step = _grid_step(route)
    if release != "classic":
        query = {"release": release, **query}
    reg.publish(secret, page="grid", query={**query, "grid_section": "Grid"}, slide=step.index, of=len(route),
                title=step.label)
    return reg, code, secret, route, step


def _route(release: str = "classic"):
    from helm_core.data import cohort_models, load_bundled

    rel = load_bundled(release)
    return slides.route(slides.Ctx(rel=rel, models=tuple(cohort_models(rel, "paper")), state={}))


@pytest.mark.parametrize("secret", ["", "nope", "<script>alert(1)</script>", "a" * 43 + "!"])
def test_speaker_view_refuses_a_bad_link_with_a_message(secret):
    at = _speaker(secret)
    assert any("This speaker link is not valid" in str(e.value) for e in at.error)


def test_speaker_view_shows_the_presenters_slide_and_drives_it():
    reg, code, secret, route, step = _room_on_grid()
    at = _speaker(secret)
    cards = {m.label: m.value for m in at.metric}
    assert cards["Step"] == f"{step.index + 1} of {len(route)}"
    body = texts(at)
    assert "98 of 112 cells measured, 14 blank" in body  # the grid's point, computed here
    nxt = route[step.index + 1]
    assert f"Next · {nxt.index + 1}. {nxt.label}" in body
    at.button(key="sp_next").click().run()
    assert not at.exception
    assert reg.take_commands(secret) == ["next"]
    # The picker: a chosen slide drives the room, and the picker is empty again, ready for the next jump.
    at.selectbox(key="sp_jump").set_value(3).run()
    assert not at.exception, [e.value for e in at.exception]
    assert reg.take_commands(secret) == ["jump:3"]
    assert at.selectbox(key="sp_jump").value is None


def test_speaker_view_says_when_the_room_has_ended():
    reg = rooms.registry()
    _, secret = reg.create()
    reg.close(secret)
    at = _speaker(secret)
    assert any("room was closed" in str(e.value) for e in at.error), [e.value for e in at.error]


def test_speaker_view_adopts_the_presenters_release():
    reg, _, secret, route, step = _room_on_grid("lite")
    at = _speaker(secret)
    assert "HELM Lite v1.13.0 tables" in texts(at)  # the point names Lite's own tables, not classic's paper view


def test_time_per_section_adds_each_slides_time_to_its_page():
    from app_pages.speaker import time_per_section

    route = _route()
    g = _grid_step(route)
    log = [SlideChange(0.0, 0, "a"), SlideChange(30.0, g.index, "b"), SlideChange(90.0, g.index + 1, "c"),
           SlideChange(100.0, 0, "a")]
    spent = time_per_section(log, route, elapsed=130.0)
    assert spent == {"": 30.0 + 30.0, "grid": 60.0 + 10.0}


def test_a_follow_link_shows_the_follow_bar_and_catches_up():
    reg, code, secret, route, step = _room_on_grid(view="schema")
    at = open_page(None, query={"follow": code})
    body = texts(at)
    assert "Following the presenter" in body and code in body
    scripts = _follow_scripts(at)
    assert scripts and "/grid?view=schema&grid_section=Grid&follow=" + code in scripts[0]
    assert 'data-follow-attempt="1"' in scripts[0]


def _follow_scripts(at) -> list[str]:
    return [h.proto.body for h in at.get("html") if "data-follow-version" in h.proto.body]


def test_a_lost_navigation_is_sent_again_until_the_follower_arrives():
    """The browser may never carry out a navigation (its script replaced by a rerun before it ran): the room's
    version counts as seen only once a run shows the presenter's slide, so the follower is sent again, not left
    behind until the presenter's next slide; after RETRIES tries it stays put."""
    from ui import showtime

    reg, code, secret, route, step = _room_on_grid()
    version = reg.snapshot(code).version
    at = open_page(None, query={"follow": code})
    assert _follow_scripts(at) and at.session_state[showtime.FOLLOW]["seen"] != version  # sent, not yet there
    at.run()  # a rerun on the same page within RETRY_SECONDS: no second navigation yet
    assert not _follow_scripts(at)
    for attempt in range(2, showtime.RETRIES + 1):
        v, n, _ = at.session_state[showtime.FOLLOW]["trying"]
        at.session_state[showtime.FOLLOW]["trying"] = (v, n, 0.0)  # RETRY_SECONDS have passed
        at.run()
        scripts = _follow_scripts(at)
        assert scripts and f'data-follow-attempt="{attempt}"' in scripts[0]
        assert "if (there && !true) return;" in scripts[0]  # a retry dispatches even when the URL is already there
    v, n, _ = at.session_state[showtime.FOLLOW]["trying"]
    at.session_state[showtime.FOLLOW]["trying"] = (v, n, 0.0)
    at.run()  # RETRIES tries: it stays put and counts the version as seen
    assert not _follow_scripts(at) and at.session_state[showtime.FOLLOW]["seen"] == version


def test_a_follower_on_the_presenters_slide_counts_it_as_seen_without_navigating():
    from ui import showtime

    reg, code, secret, route, step = _room_on_grid()
    at = open_page("app_pages/grid.py", query={"follow": code, "grid_section": "Grid"})
    assert not _follow_scripts(at)
    assert at.session_state[showtime.FOLLOW]["seen"] == reg.snapshot(code).version


@pytest.mark.parametrize("code", ["zzzzzzz", "<b>x</b>", "a" * 70])
def test_a_bad_or_unknown_follow_code_gets_a_message(code):
    at = open_page(None, query={"follow": code})
    errors = " ".join(str(e.value) for e in at.error)
    assert "room code" in errors or "No room with that code" in errors, errors


def presenter_on_grid(**query):
    """A presenter-mode session on the grid (with `query`) holding a new room: (the AppTest, code, secret)."""
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    at.query_params["present"] = "1"
    at.run()
    at.switch_page("app_pages/grid.py")
    at.query_params["present"] = "1"
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    code, secret = rooms.registry().create()
    at.session_state["_room_secret"] = secret
    at.session_state["_room_code"] = code
    at.run()
    return at, code, secret


def test_a_presenters_run_publishes_its_page_and_slide():
    at, code, secret = presenter_on_grid(view="data")
    reg = rooms.registry()
    assert not at.exception
    snap = reg.snapshot(code)
    assert snap.page == "grid" and snap.query.get("view") == "data"
    assert "present" not in snap.query and "follow" not in snap.query
    assert snap.title == "16 × 7 Core Grid · Grid"
