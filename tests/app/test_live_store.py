"""ui/live.py, the live room's audience state, without Streamlit: one answer per follower, the presenter's
controls, what a follower sees before and after a reveal, the room's questions and upvotes, the rate limits, no
answer lost when many answer at once, the export. (The rules themselves: tests/core/test_participation.py.)"""
from __future__ import annotations

import threading

import pytest

from helm_core import participation as pt
from ui import live, room_protocol, rooms

Q = pt.number_question("q1", "How many blank?", 14, lo=0, hi=112, note="computed from test data")
POLL = pt.poll("p1", "Lunch?", ["Yes", "No"])


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


@pytest.fixture
def room():
    clock = Clock()
    reg = rooms.RoomRegistry(pages=["", "grid"], clock=clock)
    code, secret = reg.create()
    store = live.LiveStore(reg, frozenset({"shit"}), clock=clock)
    return store, code, secret, clock, reg


def test_one_answer_per_follower_and_the_count(room):
    store, code, secret, clock, _ = room
    store.open(secret, Q)
    store.answer(code, "f1", "q1", 10)
    store.answer(code, "f2", "q1", "14")
    with pytest.raises(pt.Refused, match="answered this question already"):
        store.answer(code, "f1", "q1", 12)
    cur = store.view(secret=secret).current
    assert cur.n == 2 and cur.result.within == 1 and cur.result.median == 12


def test_followers_see_the_result_only_once_revealed(room):
    store, code, secret, clock, _ = room
    store.open(secret, Q)
    store.answer(code, "f1", "q1", 20)
    mine = store.view(code=code, follower="f1").current
    assert mine.result is None and mine.mine == 20.0 and mine.n == 1
    store.set_status(secret, "revealed")
    seen = store.view(code=code, follower="f2").current
    assert seen.status == "revealed" and seen.result.n == 1 and seen.mine is None
    with pytest.raises(pt.Refused, match="closed this question"):
        store.answer(code, "f2", "q1", 14)


@pytest.mark.parametrize("status, says", [("closed", "closed this question"), (None, "not open any more")])
def test_a_closed_or_put_away_question_takes_no_answer(room, status, says):
    store, code, secret, clock, _ = room
    store.open(secret, Q)
    store.set_status(secret, status)
    with pytest.raises(pt.Refused, match=says):
        store.answer(code, "f1", "q1", 14)


def test_reopening_a_question_keeps_its_answers_and_a_new_one_replaces_it(room):
    store, code, secret, clock, _ = room
    store.open(secret, Q)
    store.answer(code, "f1", "q1", 14)
    store.open(secret, POLL)
    assert store.view(secret=secret).current.question.qid == "p1"
    store.open(secret, Q)
    assert store.view(secret=secret).current.n == 1


def test_only_the_secret_controls_and_a_wrong_code_is_refused(room):
    store, code, secret, clock, _ = room
    with pytest.raises(room_protocol.BadSecret):
        store.open("not a secret", Q)
    with pytest.raises(room_protocol.NoSuchRoom):
        store.open("x" * 43, Q)  # well formed, of no room
    with pytest.raises(room_protocol.RoomError):
        store.answer("zzzzzzz", "f1", "q1", 1)
    with pytest.raises(pt.Refused, match="No question is open"):
        store.set_status(secret, "revealed")


def test_room_questions_upvoted_once_ranked_hidden_from_followers(room):
    store, code, secret, clock, _ = room
    a = store.ask(code, "f1", "Why are 14 cells blank?")
    clock.t += 1
    b = store.ask(code, "f2", "<b>**bold**</b>")
    store.upvote(code, "f3", b)
    with pytest.raises(pt.Refused, match="upvoted this question already"):
        store.upvote(code, "f3", b)
    assert [x.aid for x in store.view(code=code).asks] == [b, a]
    assert store.view(code=code).asks[0].text == "<b>**bold**</b>"  # stored as typed; every screen escapes it
    store.mark(secret, b, hidden=True)
    assert [x.aid for x in store.view(code=code).asks] == [a]
    assert [x.aid for x in store.view(secret=secret).asks] == [a, b]
    store.mark(secret, a, answered=True)
    assert store.view(code=code).asks[0].answered
    with pytest.raises(pt.Refused, match="not taken"):
        store.ask(code, "f4", "this is shit")


def test_rate_limits_per_follower(room):
    store, code, secret, clock, _ = room
    for i in range(live.ASKS[0]):
        store.ask(code, "f1", f"question {i}")
    with pytest.raises(pt.Refused, match="try again in 60 s"):
        store.ask(code, "f1", "one more")
    store.ask(code, "f2", "another follower is not limited")
    clock.t += live.ASKS[1]
    store.ask(code, "f1", "a minute later")


def test_a_hundred_answers_in_the_same_instant_are_all_counted(room):
    store, code, secret, clock, _ = room
    store.open(secret, Q)
    barrier = threading.Barrier(100)
    errors = []

    def vote(i):
        barrier.wait()
        try:
            store.answer(code, f"f{i}", "q1", i % 113)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=vote, args=(i,)) for i in range(100)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and store.view(secret=secret).current.n == 100


def test_export_lists_every_question_with_its_true_value(room):
    store, code, secret, clock, _ = room
    store.open(secret, Q)
    store.answer(code, "f1", "q1", 14)
    store.open(secret, POLL)
    store.answer(code, "f1", "p1", "No")
    df = store.export(secret)
    assert df["question"].tolist() == ["How many blank?", "Lunch?"]
    assert df["true_value"].tolist() == ["14", ""] and df["true_value_source"].iloc[0] == "computed from test data"
    assert df["within_10pct"].iloc[0] == 1 and df["distribution"].iloc[1] == "No: 1"


def test_an_ended_room_takes_its_audience_along(room):
    store, code, secret, clock, reg = room
    store.open(secret, Q)
    reg.close(secret)
    with pytest.raises(room_protocol.RoomClosed):
        store.view(code=code)
