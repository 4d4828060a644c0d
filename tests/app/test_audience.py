"""AppTest: the room takes part (ui/audience.py on the app's pages): the speaker view offers the slide's question
and reveals it; a follower answers once, sees the reveal, asks and upvotes; the presenter's bar and stage panel;
visitor text shown literally. (The store: test_live_store.py; the rules: tests/core/test_participation.py.)"""
from __future__ import annotations

import pytest

from helm_core import participation as pt
from ui import audience, live

from .helpers import open_page, texts
from .test_showtime import _room_on_grid, _speaker, presenter_on_grid


def _grid_question(store, secret):
    cur = store.view(secret=secret).current
    assert cur is not None and cur.question.page == "grid"
    return cur.question


def test_speaker_view_opens_the_slides_question_and_reveals_it():
    reg, code, secret, route, step = _room_on_grid()
    at = _speaker(secret)
    ask = at.button(key="sp_live_ask_0")
    assert ask.label == "Paper claim (98 / 112): of its 112 cells, how many are blank?"
    ask.click().run()
    store = live.store()
    q = _grid_question(store, secret)
    assert q.truth == 14 and "computed from HELM classic" in q.truth_note
    for i, guess in enumerate([14, 15, 40]):
        store.answer(code, f"f{i}", q.qid, guess)
    at.button(key="sp_live_reveal").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "3 answers; median guess 15; true value 14; 2 of 3 within 10 % (±1.4)." in texts(at)
    csv = at.get("download_button")
    assert any(b.proto.label == "Room answers (CSV)" for b in csv)
    rows = audience.answers_csv(secret).decode("utf-8").splitlines()
    assert rows[0].startswith("question,kind,status,answers,distribution") and '12–24: 2; 36–48: 1' in rows[1] and ',14,"computed from HELM classic' in rows[1]


def test_a_follower_answers_once_then_sees_the_reveal():
    reg, code, secret, route, step = _room_on_grid()
    store = live.store()
    q = pt.number_question("t.follow", "How many of the 112 cells are blank?", 14, lo=0, hi=112)
    store.open(secret, q)
    at = open_page("app_pages/grid.py", query={"follow": code, "grid_section": "Grid"})
    assert "How many of the 112 cells are blank?" in texts(at)
    at.slider(key="ans_t.follow").set_value(20).run()
    at.button(key="send_t.follow").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Your answer is in" in str(s.value) for s in at.success)
    assert store.view(secret=secret).current.n == 1
    assert any("Your answer is in (20)" in c.value for c in at.caption)
    at.button(key="send_t.follow").click().run()  # a second answer from the same follower: refused, said why
    assert any("answered this question already" in str(w.value) for w in at.warning)
    assert store.view(secret=secret).current.n == 1
    with pytest.raises(pt.Refused, match="already"):  # the store refuses it too (this session's follower id)
        store.answer(code, at.session_state[audience.FOLLOWER], q.qid, 14)
    store.set_status(secret, "revealed")
    at.run()
    assert "1 answer; median guess 20; true value 14; 0 of 1 within 10 % (±1.4)." in texts(at)


def test_a_follower_asks_and_upvotes_and_hostile_text_shows_literally():
    reg, code, secret, route, step = _room_on_grid()
    store = live.store()
    other = store.ask(code, "someone", "Why is bias blank on summarization?")
    at = open_page(None, query={"follow": code})
    hostile = "<img src=x onerror=alert(1)> **bold** [link](https://evil.example)"
    at.text_input(key="ask_text").input(hostile).run()
    at.button(key="ask_send").click().run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [m.value for m in at.markdown if "onerror" in m.value]
    assert shown and all("\\<img" in s and "\\*\\*bold\\*\\*" in s for s in shown), shown
    at.button(key=f"up_{other}").click().run()
    asks = {a.aid: a for a in store.view(secret=secret).asks}
    assert asks[other].votes == 2 and at.button(key=f"up_{other}").disabled


def test_presenter_bar_offers_the_slides_questions_and_the_stage_shows_the_reveal():
    at, code, secret = presenter_on_grid()
    at.button(key="bar_live_ask_0").click().run()
    store = live.store()
    q = _grid_question(store, secret)
    store.answer(code, "f1", q.qid, 14)
    at.run()  # the stage panel's next refresh
    assert "1 answer so far" in texts(at)
    at.button(key="bar_live_reveal").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "1 answer; median guess 14; true value 14; 1 of 1 within 10 % (±1.4)." in texts(at)
    charts = [c for c in at.get("plotly_chart") if "Answers to:" in c.proto.alt]
    assert charts


@pytest.mark.parametrize("options, says", [("only one", "That poll cannot open"), ("", "That poll cannot open")])
def test_a_poll_with_too_few_options_says_why(options, says):
    reg, code, secret, route, step = _room_on_grid()
    at = _speaker(secret)
    at.text_input(key="sp_live_prompt").input("Lunch?").run()
    at.text_area(key="sp_live_options").input(options).run()
    at.button(key="sp_live_poll").click().run()
    assert any(says in str(w.value) for w in at.warning)
    at.text_area(key="sp_live_options").input("Yes\nNo").run()
    at.button(key="sp_live_poll").click().run()
    assert live.store().view(secret=secret).current.question.options == ("Yes", "No")


def test_the_handout_carries_the_rooms_answers_escaped():
    from ui import handout

    q = pt.poll("p", "<script>alert(1)</script>?", ["<b>A</b>", "B"])
    page = handout.answers_html(pt.results_frame([(q, ["<b>A</b>"], "revealed")]))
    assert "The room's answers" in page and "<script>alert" not in page and "&lt;b&gt;A&lt;/b&gt;: 1" in page
    assert handout.answers_html(pt.results_frame([])) == ""
