"""Live-episode tools on the Streamlit side: the presenter's room, the audience's follow link, the speaker view's
drive commands. The room registry itself is ui/rooms.py (process-wide, locked, bounded, expiring).

- Presenter (presenter mode): "Audience" in the bar starts a room and shows its follow link and QR code (safe to
  project); "Speaker" holds the speaker view's link and QR (private: it can drive the slides) and the offline
  handout. After every run the presenter's page, slide and URL state are published to the room; a fragment takes
  the speaker view's Next / Previous / Jump every second.
- Follower (`/?follow=<code>` on any page): lands on the presenter's current slide with the presenter's state, and
  follows it (a fragment polls the room's version every second and does nothing while it is unchanged). The
  state is applied as a link: the browser navigates to the presenter's URL within its session (as Back does), so
  every value passes the page's own URL checks (ui/state.py). "Detach" stops following (explore freely); "Rejoin" lands on the current slide again.
  A follower holds only the room's public code: it can never drive the presenter.
"""
from __future__ import annotations

import uuid
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from . import audience, cache, cookies, nav, presenter, room_protocol, rooms, slides, state, viewport

SECRET = "_room_secret"
CODE = "_room_code"
SOURCE = "_room_source"
RESUMED = "_room_resumed"  # this session looked for a room to resume (once)
ROOM_COOKIE = "helm_room"
FOLLOW = "_follow"  # {"code": str, "attached": bool, "seen": int, "error": str | None, "trying": (version, n, t)}
POLL_SECONDS = 1.0
# A navigation the browser did not carry out (its script replaced by a rerun before it ran, its popstate lost) is
# sent again after this long, up to RETRIES times in all for one version of the room; then the follower stays.
RETRY_SECONDS = 1.5
RETRIES = 3


def base_url() -> str:
    """This app's address (scheme, host and the server's base path), from the browser's own request."""
    try:
        url = st.context.url or ""
    except Exception:  # noqa: BLE001 - no frontend (AppTest)
        url = ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return "http://localhost:8501"
    from streamlit import config

    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    return urlunsplit((parts.scheme, parts.netloc, f"/{base}" if base else "", "", ""))


# ----------------------------------------------------------------------------- presenter side


def room() -> tuple[str, str] | None:
    secret, code = st.session_state.get(SECRET), st.session_state.get(CODE)
    return (code, secret) if secret and code else None


def resume_room() -> None:
    """Presenter mode: a presenter's window that reloaded (a new session) gets its live room back from the browser's
    session cookie, while the room lives; and the cookie follows the room (set when one starts, removed when it
    ends)."""
    if not viewport.presenting():
        return
    if room() is None and not st.session_state.get(RESUMED):
        st.session_state[RESUMED] = True
        secret = cookies.read(ROOM_COOKIE)
        if secret is not None:
            try:
                code = rooms.registry().code_for(secret)
            except room_protocol.RoomError:
                code = None
            if code is not None:
                st.session_state[SECRET], st.session_state[CODE] = secret, code
                st.session_state[SOURCE] = uuid.uuid4().hex
    r = room()
    cookies.keep(ROOM_COOKIE, r[1] if r else None)


def _start_room() -> None:
    try:
        code, secret = rooms.registry().create()
    except room_protocol.RoomError as e:
        st.session_state["_room_error"] = str(e)
        return
    st.session_state[SECRET], st.session_state[CODE] = secret, code
    st.session_state[SOURCE] = uuid.uuid4().hex
    st.session_state.pop("_room_error", None)


def _end_room() -> None:
    r = room()
    if r is not None:
        try:
            rooms.registry().close(r[1])
        except room_protocol.RoomError:
            pass
    for k in (SECRET, CODE):
        st.session_state.pop(k, None)


def follow_link(code: str) -> str:
    return room_protocol.follow_url(base_url() + "/", code)


def speaker_link(secret: str) -> str:
    return room_protocol.speaker_url(base_url() + "/speaker", secret)


def bar_tools(url_path: str = "") -> None:
    """The presenter bar's popovers: Audience (follow link and QR), Ask (questions and polls for the room, with a
    live room) and Speaker (speaker view, handout)."""
    r = room()
    with st.popover("Audience", icon=":material/groups:", help="A follow link and QR code for the audience"):
        if st.session_state.get("_room_error"):
            st.error(st.session_state["_room_error"])
        if r is None:
            st.markdown("Start a live room: the audience opens a short link (or scans a QR code) and follows your "
                        "slides on their own screens; the speaker view can drive this screen.")
            if cache.uses_bundled():
                st.button("Start a live room", key="room_start", on_click=_start_room, icon=":material/podcasts:")
            else:
                st.info("A live room shares the bundled HELM releases only: data you loaded stays in your session. "
                        "Switch the sidebar's dataset to a bundled release to start one.")
        else:
            code, _ = r
            link = follow_link(code)
            st.markdown(f"**Follow along:** `{link}`")
            st.image(room_protocol.qr_png(link), width=room_protocol.qr_size(link), caption=f"Room code {code}")
            st.button("End the room", key="room_end", on_click=_end_room, icon=":material/stop_circle:")
    if r is not None:
        with st.popover("Ask", icon=":material/quiz:", help="Predict-then-reveal questions and polls for the room"):
            audience.controls(r[1], audience.offered(url_path), "bar_live")
    with st.popover("Speaker", icon=":material/co_present:", help="Speaker view and the offline handout"):
        if r is None:
            st.caption("Start a live room (Audience) to get a speaker view that follows and drives this screen.")
        else:
            link = speaker_link(r[1])
            st.warning("Private: this link can drive your slides. Open it on your laptop or your phone, not on the "
                       "projector.", icon=":material/lock:")
            st.link_button("Open speaker view", link, icon=":material/open_in_new:")
            st.image(room_protocol.qr_png(link), width=room_protocol.qr_size(link), caption="Speaker view on your phone")
        rel = cache.active_release()
        if cache.uses_bundled():
            name = cache.release_choice()
            cohort = cache.active_cohort()
            st.download_button("Offline handout (HTML)", data=lambda: _handout(name, cohort),
                               file_name=f"helm-explorer-{name}-{cohort}.html", mime="text/html",
                               key="handout_download", icon=":material/download:", on_click="ignore",
                               help="Every slide with its chart, talking points and sources in one file that "
                                    "opens without a network: the stage fallback and the take-home.")
        else:
            st.caption(f"The offline handout is built from the bundled releases, not from {rel.name}.")


def _handout(name: str, cohort: str) -> bytes:
    """The handout, with the live room's questions and answers so far when a room is on."""
    from . import handout, live

    r = room()
    answers = None
    if r is not None:
        try:
            answers = live.store().export(r[1])
        except room_protocol.RoomError:
            pass
    return handout.build(name, cohort, answers=answers).encode("utf-8")


def stage_panel() -> None:
    """Presenter mode with a room: the room's current question above the slide (its count, then its reveal)."""
    r = room()
    if r is not None and viewport.presenting():
        audience.stage_panel(r[1])


def publish(url_path: str) -> None:
    """After a presenter's run: the page, the open slide and the URL state, into the room (bumps its version only
    when something changed)."""
    r = room()
    if r is None or not viewport.presenting():
        return
    reg = rooms.registry()
    route = presenter.steps()
    if not route:
        return
    idx = presenter.position(route, url_path)
    params = {k: st.query_params.get_all(k) for k in st.query_params}
    step = route[idx]
    if step.key is not None:  # the open slide, whether or not its widget has written the URL yet
        params[step.key] = [step.token]
    query, _ = room_protocol.clean_query(params, reserved=reg.reserved, keys=state.declared() | {step.key} - {None})
    try:
        reg.publish(r[1], page=url_path, query=query, slide=idx, of=len(route), title=route[idx].label,
                    source=st.session_state.get(SOURCE))
    except room_protocol.RoomError as e:
        st.session_state["_room_error"] = str(e)
        if isinstance(e, (room_protocol.RoomExpired, room_protocol.RoomClosed, room_protocol.NoSuchRoom)):
            for k in (SECRET, CODE):
                st.session_state.pop(k, None)


def take_commands(url_path: str) -> None:
    """Presenter mode with a room: every second, the speaker view's Next / Previous / Jump move this screen."""
    if room() is None or not viewport.presenting():
        return

    @st.fragment(run_every=POLL_SECONDS)
    def _poll() -> None:
        r = room()
        if r is None:
            return
        reg = rooms.registry()
        try:
            commands = reg.take_commands(r[1])
            if not commands:
                return
            shown = reg.snapshot_for_secret(r[1])
        except room_protocol.RoomError:
            return
        route = presenter.steps()
        here = room_protocol.command_origin(shown.page if shown.started else None, shown.slide, shown.of, url_path,
                                            len(route), presenter.position(route, url_path))
        to = room_protocol.apply_commands(commands, here, len(route))
        if to == here:
            return
        target = route[to]
        presenter.go(target, url_path)  # another page: switches; this page: sets its slide
        st.rerun(scope="app")

    _poll()


# ----------------------------------------------------------------------------- follower side


def _valid_code(v: str) -> bool:
    try:
        room_protocol.normalize_code(v)
        return True
    except room_protocol.RoomError:
        return False


def follow_from_url() -> None:
    """A `?follow=<code>` link (any page): follow that room. Called by Home.py before the page runs."""
    raw = state.allow(room_protocol.FOLLOW_PARAM, _valid_code)
    if room_protocol.FOLLOW_PARAM in st.query_params and raw is None:
        st.session_state[FOLLOW] = {"code": None, "attached": False, "seen": 0,
                                    "error": "That is not a room code: a code is 7 letters and digits, as shown on "
                                             "the presenter's screen."}
        return
    if raw is None:
        return
    code = room_protocol.normalize_code(raw)
    f = st.session_state.get(FOLLOW)
    if not f or f.get("code") != code:
        st.session_state[FOLLOW] = {"code": code, "attached": True, "seen": 0, "error": None}


def following() -> dict | None:
    f = st.session_state.get(FOLLOW)
    return f if f else None


def _target_url(snap) -> str | None:
    """The presenter's page and state as a path with a query (`follow=<code>` kept), or None for an unknown page."""
    from urllib.parse import urlencode

    from streamlit import config

    spec = nav.spec_for(snap.page)
    if spec is None:
        return None
    query = {k: (list(v) if isinstance(v, tuple) else v) for k, v in snap.query.items()}
    query[room_protocol.FOLLOW_PARAM] = st.session_state[FOLLOW]["code"]
    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    path = "/" + "/".join(p for p in (base, spec.url_path) if p)
    return f"{path}?{urlencode(query, doseq=True)}"


def _navigate_script(target: str, version: int, attempt: int = 1) -> str:
    """Browser-side navigation to `target` inside this session, as the browser's Back button does (a popstate):
    Streamlit reruns the page with the new URL and every bound widget takes the URL's value, checked by the page's
    own URL whitelist like any link. (st.switch_page cannot set a parameter a widget of the open page is bound to.)
    `target` is a path and a percent-encoded query built from a validated room; it is embedded as a JSON string.
    The theme's embed option of the follower's own URL is kept. A first attempt does nothing when the browser is
    already there; a later one (the server saw that the first did not arrive) dispatches the popstate anyway."""
    import json

    literal = json.dumps(target).replace("</", "<\\/")
    again = "true" if attempt > 1 else "false"
    return f"""<script data-follow-version="{int(version)}" data-follow-attempt="{int(attempt)}">
(function () {{
  const u = new URL({literal}, window.location.origin);
  new URL(window.location.href).searchParams.getAll("embed_options").forEach(v => u.searchParams.append("embed_options", v));
  const there = window.location.pathname === u.pathname && window.location.search === u.search;
  if (there && !{again}) return;
  if (!there) window.history.pushState(null, "", u.pathname + u.search);
  window.dispatchEvent(new PopStateEvent("popstate", {{ state: null }}));
}})();
</script>"""


def _arrived(snap, url_path: str) -> bool:
    """This run shows the room's slide: its page, and on it the presenter's slide (read from the URL)."""
    if snap.page != url_path:
        return False
    route = presenter.steps()
    return not route or presenter.position(route, url_path, url_first=True) == snap.slide


def _catch_up(url_path: str) -> bool:
    """When the room moved since this follower last arrived: navigate the browser to the presenter's slide. The
    version counts as seen only once a run shows that slide, so a navigation the browser lost is sent again
    (after RETRY_SECONDS, at most RETRIES times) instead of leaving the follower behind until the next slide."""
    import time

    g = following()
    if not g or not g.get("attached") or not g.get("code"):
        return False
    try:
        snap = rooms.registry().snapshot(g["code"])
    except room_protocol.RoomError as e:
        g.update(error=str(e), attached=False)
        return False
    g["error"] = None
    if not snap.started or snap.version == g.get("seen"):
        return False
    target = _target_url(snap)
    if target is None or _arrived(snap, url_path):
        g["seen"], g["trying"] = snap.version, None
        return False
    version, attempt, at = g.get("trying") or (None, 0, 0.0)
    now = time.monotonic()
    if version == snap.version and now - at < RETRY_SECONDS:  # sent just now: the browser may be on its way
        return False
    if version == snap.version and attempt >= RETRIES:  # it will not go there (the page refuses the state): stay
        g["seen"], g["trying"] = snap.version, None
        return False
    attempt = attempt + 1 if version == snap.version else 1
    g["trying"] = (snap.version, attempt, now)
    st.html(_navigate_script(target, snap.version, attempt), unsafe_allow_javascript=True)
    return True


def _detach() -> None:
    f = following()
    if f:
        f["attached"] = False


def _rejoin() -> None:
    f = following()
    if f:
        f["attached"] = True
        f["seen"], f["trying"] = 0, None


def _stop() -> None:
    st.session_state.pop(FOLLOW, None)
    if room_protocol.FOLLOW_PARAM in st.query_params:
        del st.query_params[room_protocol.FOLLOW_PARAM]


def follow_bar(current_url_path: str) -> None:
    """The follower's bar (top of the page): following or detached, with one click to change; and the poll."""
    f = following()
    if not f:
        return
    state.keep([room_protocol.FOLLOW_PARAM])
    if f.get("attached"):
        _catch_up(current_url_path)  # a late joiner, a rejoin: straight to the presenter's slide (or the room's error, below)
    with st.container(key="follow_bar", horizontal=True, vertical_alignment="center"):
        if f.get("error"):
            st.error(f["error"], icon=":material/link_off:")
            st.button("Stop following", key="follow_stop", on_click=_stop)
            return
        if f.get("attached"):
            route = presenter.steps()
            here = presenter.position(route, current_url_path, url_first=True) if route else 0
            where = f" · slide {here + 1} of {len(route)}" if route else ""
            st.markdown(f":blue-badge[:material/podcasts: Following the presenter] room `{f['code']}`{where}")
            st.button("Detach", key="follow_detach", on_click=_detach, icon=":material/explore:",
                      help="Explore on your own; Rejoin brings you back to the presenter's slide.")
        else:
            st.markdown(f":gray-badge[Detached] room `{f['code']}`: you are exploring on your own.")
            st.button("Rejoin", key="follow_rejoin", on_click=_rejoin, icon=":material/podcasts:",
                      type="primary", help="Back to the presenter's current slide.")

    if f.get("code"):
        audience.follower_panel(f["code"])  # the room's question and its questions, attached or not
    if not f.get("attached"):
        return

    @st.fragment(run_every=POLL_SECONDS)
    def _poll() -> None:
        g = following()
        if not g or not g.get("attached"):
            return
        try:
            version = rooms.registry().version_of(g["code"])
        except room_protocol.RoomError as e:
            g.update(error=str(e), attached=False)
            st.rerun(scope="app")
            return
        if version != g.get("seen"):  # nothing changed: nothing runs but this check
            _catch_up(current_url_path)

    _poll()


def route_for(ctx: slides.Ctx) -> list[slides.Step]:
    return slides.route(ctx)
