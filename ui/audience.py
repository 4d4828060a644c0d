"""The room takes part, on the Streamlit side (the state: ui/live.py; the rules: helm_core.participation).

- Presenter (presenter mode with a live room): "Ask" in the bar lists the questions the open slide can put to the
  room (their true values computed from the slide's data) and opens one, or a poll any slide can open (choices,
  a 1–5 scale, a word); then Close, Reveal, Put away. While a question is on, a panel above the slide shows how
  many answered and, once revealed, the distribution beside the true value (refreshed every second).
- Follower (`?follow=<code>`): the current question's answer form (a slider, options, an order of the options, a
  word), one answer per person, the reveal when the presenter reveals; and the room's questions: ask one,
  upvote others.
- Speaker view: the same controls as the bar, the room's questions by votes (mark answered, hide), and the export.
"""
from __future__ import annotations

import uuid

import plotly.graph_objects as go
import streamlit as st

from helm_core import fmt
from helm_core import participation as pt
from helm_core.escape import chart_label

from . import charts, components, cookies, live, palette, presenter, room_protocol, slides

POLL_SECONDS = 1.0
FOLLOWER = "_follower_id"
FOLLOWER_COOKIE = "helm_follower"
MSG = "_live_msg"  # (key, level, text): the last outcome of an action on this screen


def follower_id() -> str:
    """This browser's anonymous follower id (not a login; never shown; one answer per question per id): the one its
    session cookie holds (ui/cookies.py), so a reload is the same follower; else a new one, kept in the cookie by
    `follower_panel`. A client without cookies is one follower per session."""
    if FOLLOWER not in st.session_state:
        st.session_state[FOLLOWER] = cookies.read(FOLLOWER_COOKIE) or uuid.uuid4().hex
    return st.session_state[FOLLOWER]


def _say(where: str, level: str, text: str) -> None:
    st.session_state[MSG] = (where, level, text)


def _said(where: str) -> None:
    m = st.session_state.get(MSG)
    if m and m[0] == where:
        getattr(st, m[1])(components.text(m[2]))


def _act(where: str, fn, *args, ok: str | None = None, **kwargs) -> None:
    """Run a store action from a widget's callback; its refusal becomes the screen's message, never a traceback."""
    try:
        fn(*args, **kwargs)
    except (pt.Refused, room_protocol.RoomError) as e:
        _say(where, "warning", str(e))
        return
    if ok:
        _say(where, "success", ok)
    else:
        st.session_state.pop(MSG, None)


# ----------------------------------------------------------------------------- questions a slide offers

def offered(url_path: str) -> list[pt.Question]:
    """The predict-then-reveal questions of the presenter's open slide (none when its data has no truth)."""
    route = presenter.steps()
    return slides.questions(route[presenter.position(route, url_path)], presenter.context()) if route else []


def _poll_from_form(prefix: str) -> pt.Question:
    kind = st.session_state.get(f"{prefix}_kind", "Choices")
    prompt = st.session_state.get(f"{prefix}_prompt", "")
    qid = f"poll.{uuid.uuid4().hex[:8]}"
    try:
        if kind == "Choices":
            return pt.poll(qid, prompt, pt.split_options(st.session_state.get(f"{prefix}_options", "")))
        if kind == "Scale 1–5":
            return pt.scale_poll(qid, prompt, 5)
        return pt.words_poll(qid, prompt)
    except ValueError as e:
        raise pt.Refused(f"That poll cannot open: {e}.") from None


def _open_poll(secret: str, prefix: str) -> None:
    try:
        q = _poll_from_form(prefix)
    except pt.Refused as e:
        _say(prefix, "warning", str(e))
        return
    _act(prefix, live.store().open, secret, q)


def controls(secret: str, questions: list[pt.Question], prefix: str) -> None:
    """Open a slide's question or a poll; close, reveal, put away the current one (the bar's popover and the
    speaker view)."""
    store = live.store()
    try:
        cur = store.view(secret=secret).current
    except room_protocol.RoomError as e:
        st.error(str(e))
        return
    _said(prefix)
    if cur is not None:
        st.markdown(f"**Now:** {components.text(cur.question.prompt)} · {cur.status}, "
                    f"{fmt.count(cur.n, 'answer')}")
        c = st.columns(3)
        if cur.status == "open":
            c[0].button("Close", key=f"{prefix}_close", on_click=_act, args=(prefix, store.set_status, secret, "closed"),
                        icon=":material/lock:", help="No more answers.")
        else:
            c[0].button("Reopen", key=f"{prefix}_reopen", on_click=_act, args=(prefix, store.set_status, secret, "open"),
                        icon=":material/lock_open:")
        c[1].button("Reveal", key=f"{prefix}_reveal", disabled=cur.status == "revealed", type="primary",
                    on_click=_act, args=(prefix, store.set_status, secret, "revealed"), icon=":material/visibility:",
                    help="Shows the answers (and the true value) on every screen; closes the question.")
        c[2].button("Put away", key=f"{prefix}_away", on_click=_act, args=(prefix, store.set_status, secret, None),
                    icon=":material/close:", help="No question on the screens; its answers stay for the export.")
    if questions:
        st.markdown("**Predict, then reveal** (this slide's numbers)")
        for i, q in enumerate(questions):
            st.button(q.prompt, key=f"{prefix}_ask_{i}", on_click=_act, args=(prefix, store.open, secret, q),
                      icon=":material/quiz:", width="stretch")
    else:
        st.caption("This slide has no number to predict; a poll works on any slide.")
    with st.expander("A poll or a word answer"):
        st.radio("Kind", ["Choices", "Scale 1–5", "A word"], key=f"{prefix}_kind", horizontal=True)
        st.text_input("Question", key=f"{prefix}_prompt", max_chars=pt.MAX_PROMPT)
        if st.session_state.get(f"{prefix}_kind", "Choices") == "Choices":
            st.text_area("Options, one per line", key=f"{prefix}_options", height=100)
        st.button("Open the poll", key=f"{prefix}_poll", on_click=_open_poll, args=(secret, prefix),
                  icon=":material/how_to_vote:")


# ----------------------------------------------------------------------------- the result

def result_figure(q: pt.Question, r: pt.Result, mode: str = "desktop") -> go.Figure:
    """The distribution of answers: a histogram of guesses with the truth and the median marked, or a bar per
    option (per order given; per word) with the true one in the accent colour."""
    fig = go.Figure()
    if q.kind == "number":
        mids = [(a + b) / 2 for a, b in zip(r.table["lo"], r.table["hi"])]
        width = float(r.table["hi"].iloc[0] - r.table["lo"].iloc[0])
        fig.add_bar(x=mids, y=r.table["count"], width=width * 0.95, marker_color=palette.DATA, name="guesses",
                    hovertemplate="%{x}: %{y} guesses<extra></extra>")
        if q.truth is not None:
            fig.add_vline(x=float(q.truth), line=dict(color=palette.DOWN, width=4),
                          annotation_text=chart_label(f"true {pt.truth_text(q)}"), annotation_position="top")
        if r.median is not None:
            fig.add_vline(x=r.median, line=dict(color=palette.NEUTRAL, width=2, dash="dash"),
                          annotation_text=chart_label(f"median guess {r.median:g}"), annotation_position="bottom right")
        fig.update_xaxes(range=[q.lo, q.hi], title_text=chart_label(q.unit or "guess"))
        fig.update_yaxes(title_text="guesses", rangemode="tozero")
    else:
        col = {"choice": "option", "scale": "option", "order": "order", "words": "answer"}[q.kind]
        t = r.table.iloc[::-1]
        true = t["true"].tolist() if "true" in t else [False] * len(t)
        fig.add_bar(y=charts.chart_labels(t[col]), x=t["count"], orientation="h", text=t["count"],
                    marker_color=[palette.DOWN if x else palette.DATA for x in true],
                    hovertemplate="%{y}: %{x}<extra></extra>")
        fig.update_xaxes(title_text="answers", rangemode="tozero")
    fig = charts.base_layout(fig, height=300 if mode == "presenter" else 260)
    return fig.update_layout(margin=dict(t=36))  # room for the truth's label above the plot


def _result(q: pt.Question, r: pt.Result, key: str) -> None:
    st.markdown(components.text(pt.result_line(q, r)))
    if r.n or q.truth is not None:
        alt = f"Answers to: {q.prompt}. {pt.result_line(q, r)}"
        components.chart(result_figure(q, r), key=key, alt=alt)
    if q.truth_note:
        st.caption(components.text(f"True value: {q.truth_note}."))


def stage_panel(secret: str) -> None:
    """Presenter mode: the current question above the slide (count while open; the reveal), every second."""

    @st.fragment(run_every=POLL_SECONDS)
    def _panel() -> None:
        try:
            cur = live.store().view(secret=secret).current
        except room_protocol.RoomError:
            return
        if cur is None:
            return
        with st.container(border=True, key="live_stage"):
            st.markdown(f"**{components.text(cur.question.prompt)}**")
            if cur.status == "revealed":
                _result(cur.question, cur.result, "live_stage_chart")
            else:
                st.markdown(f":blue-badge[{cur.status}] {fmt.count(cur.n, 'answer')} so far"
                            + (" · answer on your phone: the follow link is under Audience" if cur.status == "open" else ""))

    _panel()


# ----------------------------------------------------------------------------- followers

def _answer(code: str, q: pt.Question, key: str) -> None:
    raw = st.session_state.get(key)
    if q.kind == "order":
        raw = tuple(raw or ())
    _act("follow", live.store().answer, code, follower_id(), q.qid, raw, ok="Your answer is in. Thank you!")


def _shown(q: pt.Question, answer) -> str:
    return " > ".join(answer) if q.kind == "order" else f"{answer:g}{q.unit}" if q.kind == "number" else str(answer)


def _form(code: str, cur: live.Current) -> None:
    q = cur.question
    key = f"ans_{q.qid}"
    if q.kind == "number":
        mid = q.lo + round((q.hi - q.lo) / 2 / q.step) * q.step
        st.slider("Your guess", min_value=q.lo, max_value=q.hi, value=mid, step=q.step, key=key,
                  format=f"%.{0 if q.step >= 1 else 2 if q.step < 0.1 else 1}f{q.unit.replace('%', '%%')}")
    elif q.kind in ("choice", "scale"):
        st.radio("Your answer", q.options, index=None, key=key, horizontal=q.kind == "scale")
    elif q.kind == "order":
        st.multiselect(f"Pick all {len(q.options)}, best first", q.options, key=key, max_selections=len(q.options))
    else:
        st.text_input("Your answer", max_chars=pt.MAX_WORDS, key=key)
    st.button("Send", key=f"send_{q.qid}", type="primary", on_click=_answer, args=(code, q, key),
              icon=":material/send:")


def _asks(code: str, view: live.LiveView) -> None:
    me = follower_id()
    # A fixed label: a label that changed with the count would be a new expander, closed again on every question
    with st.expander("Questions from the room", expanded=False, icon=":material/forum:"):
        st.caption(f"{fmt.count(len(view.asks), 'question')}, most upvoted first; anonymous.")
        _said("ask")
        st.text_input("Ask the presenter", max_chars=pt.MAX_ASK, key="ask_text")
        st.button("Ask", key="ask_send", on_click=lambda: _ask(code), icon=":material/live_help:")
        for a in view.asks:
            c = st.columns([5, 1], vertical_alignment="center")
            c[0].markdown(("~~" if a.answered else "") + components.text(a.text) + ("~~ · answered" if a.answered else ""))
            mine = me in a.voters
            c[1].button(f"▲ {a.votes}", key=f"up_{a.aid}", disabled=mine or a.answered,
                        help="You upvoted this" if mine else "Upvote",
                        on_click=_act, args=("ask", live.store().upvote, code, me, a.aid))


def _ask(code: str) -> None:
    text = st.session_state.get("ask_text", "")
    _act("ask", live.store().ask, code, follower_id(), text, ok="Your question is in the list.")
    if st.session_state.get(MSG, ("", "", ""))[1] == "success":
        st.session_state["ask_text"] = ""


def follower_panel(code: str) -> None:
    """Under the follow bar: the current question and the room's questions, every second."""
    cookies.keep(FOLLOWER_COOKIE, follower_id())

    @st.fragment(run_every=POLL_SECONDS)
    def _panel() -> None:
        try:
            view = live.store().view(code=code, follower=follower_id())
        except room_protocol.RoomError:
            return
        cur = view.current
        if cur is not None:
            with st.container(border=True, key="live_follow"):
                st.markdown(f"**{components.text(cur.question.prompt)}**")
                with st.container():  # the message's own slot: the states' slots below keep their places
                    _said("follow")
                # One slot per state of the question, in fixed places: the state shown is a block, the others an
                # empty element, which replaces a block there with its children. A fragment run that another
                # timer's run cuts short does not clear stale elements, so an answer form left to that clearing
                # could linger beside the reveal.
                shown = cur.status if cur.status in ("open", "revealed") else "closed"
                for state in ("open", "revealed", "closed"):
                    if state != shown:
                        st.empty()
                        continue
                    with st.container(key=f"live_follow_{state}"):
                        if state == "revealed":
                            _result(cur.question, cur.result, "live_follow_chart")
                        elif state == "open":
                            if cur.mine is not None:
                                st.caption(components.text(f"Your answer is in ({_shown(cur.question, cur.mine)}): "
                                                           "one answer per person; the result shows when the "
                                                           "presenter reveals it."))
                            _form(code, cur)
                        else:
                            st.caption("The presenter has closed this question"
                                       + ("; your answer is in." if cur.mine is not None else "."))
        _asks(code, view)

    _panel()


# ----------------------------------------------------------------------------- speaker view

def speaker_panel(secret: str, questions: list[pt.Question]) -> None:
    with st.container(border=True, key="speaker_live"):
        st.markdown("**The room**")
        controls(secret, questions, "sp_live")
        try:
            view = live.store().view(secret=secret)
        except room_protocol.RoomError:
            return
        if view.current is not None and view.current.result is not None:
            _result(view.current.question, view.current.result, "sp_live_chart")
        st.markdown(f"**Questions from the room** ({len(view.asks)}, most upvoted first)")
        store = live.store()
        for a in view.asks:
            c = st.columns([6, 1, 1], vertical_alignment="center")
            state_ = " · answered" if a.answered else " · hidden" if a.hidden else ""
            c[0].markdown(f"▲ {a.votes} · {components.text(a.text)}{state_}")
            c[1].button("Answered", key=f"sp_ans_{a.aid}", disabled=a.answered,
                        on_click=_act, args=("sp_live", store.mark, secret, a.aid), kwargs={"answered": True})
            c[2].button("Unhide" if a.hidden else "Hide", key=f"sp_hide_{a.aid}",
                        on_click=_act, args=("sp_live", store.mark, secret, a.aid), kwargs={"hidden": not a.hidden})
        st.caption("The answers' CSV (question, answers, true value) is below, beside the slide-change log.")


def answers_csv(secret: str) -> bytes:
    """Every question the room was asked, with its answers' distribution and true value (helm_core.participation
    .results_frame), as CSV."""
    try:
        return live.store().export(secret).to_csv(index=False).encode("utf-8")
    except room_protocol.RoomError:
        return b""
