"""Speaker view (`/speaker?speaker=<secret>`): the presenter's console, on a second tab or a phone on the lectern.

It follows the presenter's room every second: the current slide's point and talking points (computed here from the
loaded data, with the presenter's state), the next slide's title and point, the step counter, the clock, the
elapsed time and the time per section against a plan (data/showtime.toml, editable here), a jump list of the route,
and Next / Previous / Jump, which move the presenter's screen (this view holds the room's secret). Chapter markers
for a recording: the slide changes with their times, as chapter lines and as a CSV.
"""
from __future__ import annotations

import datetime as dt

import streamlit as st

from helm_core import content, fmt
from helm_core.chapters import SlideChange
from ui import audience, cache, components, room_protocol, rooms, slides, state

POLL_SECONDS = 0.5  # the speaker view follows the presenter within a second
_VIEWS = "_speaker_views"  # {(version, slide): (current, next)} of the last computed slide texts


def _secret() -> str | None:
    raw = state.allow(room_protocol.SPEAKER_PARAM, lambda v: room_protocol.SECRET_RE.fullmatch(v) is not None)
    return raw


def _adopt(query) -> None:
    """Use the presenter's release, cohort and access filter for the slides' numbers (this page draws no sidebar,
    so these session values are free to set)."""
    release = query.get("release")
    st.session_state["release"] = release if release in cache.RELEASES else "classic"
    cohort = query.get("cohort")
    st.session_state["cohort"] = cohort if cohort in state.COHORTS else state.DEFAULT_COHORT
    access = query.get("access")
    values = [access] if isinstance(access, str) else list(access or [])
    values = [a for v in values for a in str(v).split(",") if a in state.ACCESS]
    st.session_state["access"] = values or list(state.ACCESS)


def _ctx(query) -> slides.Ctx:
    _adopt(query)
    state_ = {k: (list(v) if isinstance(v, tuple) else v) for k, v in query.items()}
    return slides.Ctx(rel=cache.active_release(), models=cache.active_models(), mode="desktop", state=state_,
                      cohort=cache.active_cohort())


def _view(ctx: slides.Ctx, step: slides.Step) -> slides.View | None:
    slide = slides.slide_of(step, ctx)
    return slide.view(ctx) if slide is not None else None


def _texts(snap, route: list[slides.Step], ctx: slides.Ctx):
    """(current, next) as (step, point, talking points), computed once per room version."""
    key = (snap.version, snap.slide, len(route))
    cached = st.session_state.get(_VIEWS)
    if cached and cached[0] == key:
        return cached[1]
    out = []
    for i in (snap.slide, snap.slide + 1):
        if 0 <= i < len(route):
            try:
                v = _view(ctx if i == snap.slide else ctx.with_state(None), route[i])
            except Exception as e:  # noqa: BLE001 - a slide that cannot compute here must not take the console down
                v = slides.View(point=f"(This slide's point could not be computed here: {type(e).__name__}.)")
            out.append((route[i], v))
        else:
            out.append(None)
    st.session_state[_VIEWS] = (key, tuple(out))
    return tuple(out)


def _drive(secret: str, command: str) -> None:
    try:
        rooms.registry().drive(secret, command)
        st.session_state.pop("_speaker_error", None)
    except room_protocol.RoomError as e:
        st.session_state["_speaker_error"] = str(e)


def _jump(secret: str, here: int) -> None:
    """The picker's choice drives the room, and the picker is emptied again (in its callback: a widget's value
    cannot be set once it is drawn in the run)."""
    pick = st.session_state.get("sp_jump")
    st.session_state["sp_jump"] = None
    if isinstance(pick, int) and pick != here:
        _drive(secret, f"jump:{pick}")


def _clock() -> str:
    try:
        from zoneinfo import ZoneInfo

        tz = ZoneInfo(st.context.timezone) if st.context.timezone else None
    except Exception:  # noqa: BLE001 - an unknown zone name: the server's time
        tz = None
    return dt.datetime.now(tz).strftime("%H:%M:%S")


def _mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60:02d}:{rest % 60:02d}"


def time_per_section(log: list[SlideChange], route: list[slides.Step], elapsed: float) -> dict[str, float]:
    """Seconds spent on each page of the route, from the room's slide changes."""
    spent: dict[str, float] = {}
    for i, entry in enumerate(log):
        end = log[i + 1].t if i + 1 < len(log) else elapsed
        if 0 <= entry.slide < len(route):
            page = route[entry.slide].page
            spent[page] = spent.get(page, 0.0) + max(0.0, end - entry.t)
    return spent


def _plan_table(log, route, elapsed: float) -> None:
    defaults = content.load_time_plan()
    spent = time_per_section(log, route, elapsed)
    pages = list(dict.fromkeys(s.page for s in route))
    rows = []
    total_plan = 0.0
    for p in pages:
        planned = float(st.session_state.get(f"plan_{p or 'home'}", defaults.get(p, 0.0)))
        title = next(s.page_title for s in route if s.page == p)
        left = planned * 60 - spent.get(p, 0.0)
        rows.append({"section": title, "planned": _mmss(planned * 60), "spent": _mmss(spent.get(p, 0.0)),
                     "left": ("−" if left < 0 else "") + _mmss(abs(left)), "over": left < 0})
        total_plan += planned
    st.markdown(f"**Time per section** · planned {_mmss(total_plan * 60)} in all, {_mmss(elapsed)} spent")
    components.table([{k: v for k, v in r.items() if k != "over"} for r in rows],
                     highlight=[r["over"] for r in rows])
    with st.expander("Change the plan (minutes per section, for this session)"):
        cols = st.columns(3)
        for i, p in enumerate(pages):
            title = next(s.page_title for s in route if s.page == p)
            cols[i % 3].number_input(title, min_value=0.0, max_value=120.0, step=0.5,
                                     value=float(defaults.get(p, 0.0)), key=f"plan_{p or 'home'}")


def main() -> None:
    st.html("<style>section[data-testid='stSidebar'], [data-testid='stExpandSidebarButton'] "
            "{ display: none !important; }</style>")
    secret = _secret()
    st.title("Speaker view")
    if secret is None:
        st.error("This speaker link is not valid. Open the speaker view from presenter mode's Speaker button, "
                 "where the link of your live room is.", icon=":material/link_off:")
        return
    reg = rooms.registry()

    @st.fragment(run_every=POLL_SECONDS)
    def live() -> None:
        try:
            snap = reg.snapshot_for_secret(secret)
        except room_protocol.RoomError as e:
            st.error(str(e), icon=":material/link_off:")
            return
        top = st.columns([2, 1, 1, 1])
        top[1].metric("Clock", _clock())
        top[2].metric("Elapsed", _mmss(snap.elapsed))
        if not snap.started:
            top[0].metric("Step", "–")
            st.info("Waiting for the presenter's first slide: start presenter mode with this room.")
            return
        ctx = _ctx(snap.query)
        route = slides.route(ctx)
        top[0].metric("Step", f"{snap.slide + 1} of {snap.of}")
        top[3].metric("Presenter screens", fmt.count(snap.presenters),
                      help="Windows publishing to this room in the last minute; more than one means two masters.")
        if snap.presenters > 1:
            st.warning("Two presenter windows are publishing to this room: close one, or the audience will jump "
                       "between them.", icon=":material/warning:")
        current, nxt = _texts(snap, route, ctx) if route else (None, None)
        with st.container(border=True, key="speaker_now"):
            st.caption(f"Now · {snap.slide + 1}. {components.text(snap.title)}")
            if current is not None and current[1] is not None:
                st.markdown(f"#### {current[1].point}")
                talk = slides.talk_text(current[1])
                if talk:
                    st.markdown("\n".join(f"- {t}" for t in talk))
        with st.container(border=True, key="speaker_next"):
            if nxt is None:
                st.caption("Next · this is the last slide.")
            else:
                st.caption(f"Next · {nxt[0].index + 1}. {components.text(nxt[0].label)}")
                if nxt[1] is not None:
                    st.markdown(nxt[1].point)
        b = st.columns(3)
        b[0].button("Previous", key="sp_prev", on_click=_drive, args=(secret, "prev"), icon=":material/arrow_back:",
                    disabled=snap.slide <= 0, width="stretch")
        b[1].button("Next", key="sp_next", on_click=_drive, args=(secret, "next"), icon=":material/arrow_forward:",
                    disabled=snap.slide >= snap.of - 1, type="primary", width="stretch")
        labels = [f"{s.index + 1}. {s.label}" for s in route]
        b[2].selectbox("Jump to", range(len(route)), format_func=lambda i: labels[i], index=None,
                       key="sp_jump", placeholder="Jump to a slide", label_visibility="collapsed",
                       on_change=_jump, args=(secret, snap.slide))
        if st.session_state.get("_speaker_error"):
            st.error(st.session_state["_speaker_error"])
        audience.speaker_panel(secret, slides.questions(route[snap.slide], ctx) if 0 <= snap.slide < len(route) else [])
        log = reg.log(secret)
        _plan_table(log, route, snap.elapsed)
        lines, csv_text = reg.chapters(secret, by="section", min_seconds=1)
        slide_lines, slide_csv = reg.chapters(secret, by="slide", min_seconds=1)
        with st.expander(f"Chapter markers ({fmt.count(len(log), 'slide change')} so far)"):
            st.text(lines or "No chapters yet.")
            c = st.columns(4)
            c[3].download_button("Room answers (CSV)", audience.answers_csv(secret), file_name="room_answers.csv",
                                 mime="text/csv", key="sp_chapters_answers", on_click="ignore",
                                 help="Each question put to the room: its answers, distribution and true value.")
            c[0].download_button("Chapters (sections)", lines.encode("utf-8"), file_name="chapters.txt",
                                 mime="text/plain", key="sp_chapters_txt", on_click="ignore")
            c[1].download_button("Chapters (every slide)", slide_lines.encode("utf-8"),
                                 file_name="chapters_slides.txt", mime="text/plain", key="sp_chapters_slides",
                                 on_click="ignore")
            c[2].download_button("Slides with times (CSV)", slide_csv.encode("utf-8"), file_name="chapters.csv",
                                 mime="text/csv", key="sp_chapters_csv", on_click="ignore")

    live()


if __name__ == "__main__":
    main()
