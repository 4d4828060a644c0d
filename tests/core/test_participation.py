"""helm_core.participation: answers checked, distributions, the abuse filter, the rate limit, the room's questions."""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from helm_core import participation as p

ROOT = Path(__file__).resolve().parents[2]
WORDS = p.parse_blocklist((ROOT / "data" / "blocklist.txt").read_text(encoding="utf-8"))
NUM = p.number_question("q", "Share measured?", 17.9, lo=0, hi=100, step=0.1, unit="%", note="paper claim")
CHOICE = p.choice_question("c", "Who tops?", ["A", "B", "C"], "B")
ORDER = p.order_question("o", "Order them", {"Zed": 2, "Amy": 1, "Bo": 3})


@pytest.mark.parametrize("question, raw, expected", [
    (NUM, 17.9, 17.9), (NUM, "42", 42.0), (NUM, 0, 0.0), (NUM, 100, 100.0),
    (CHOICE, "B", "B"),
    (ORDER, ["Bo", "Amy", "Zed"], ("Bo", "Amy", "Zed")),
    (p.words_poll("w", "One word?"), "  calm \n  data ", "calm data"),
    (p.scale_poll("s", "How sure?"), "3", "3"),
])
def test_answers_taken(question, raw, expected):
    assert p.check_answer(question, raw, WORDS) == expected


@pytest.mark.parametrize("question, raw, says", [
    (NUM, 101, "from 0 to 100"), (NUM, -1, "from 0 to 100"), (NUM, "nan", "from 0 to 100"),
    (NUM, "ten", "is a number"), (NUM, True, "is a number"), (NUM, None, "is a number"),
    (CHOICE, "D", "one of the options"), (CHOICE, None, "one of the options"),
    (ORDER, ["Amy", "Bo"], "all 3"), (ORDER, ["Amy", "Amy", "Bo"], "all 3"), (ORDER, "Amy", "all 3"),
    (p.words_poll("w", "?"), "x" * 41, "41 characters"), (p.words_poll("w", "?"), "   ", "empty"),
    (p.words_poll("w", "?"), "F.U.C.K", "not taken"), (p.words_poll("w", "?"), 3, "is text"),
])
def test_answers_refused_with_a_reason(question, raw, says):
    with pytest.raises(p.Refused, match=says):
        p.check_answer(question, raw, WORDS)


@pytest.mark.parametrize("text, hit", [
    ("shit", True), ("SHIT happens", True), ("sh1t", True), ("shiiiit", True), ("s.h.i.t", True),
    ("a55", True), ("kill yourself", True), ("Kill   Yourself now", True),
    ("class", False), ("assess the bias", False), ("Scunthorpe", False), ("cocktail", False),
    ("calibration", False), ("", False), ("<script>alert(1)</script>", False),
])
def test_abuse_filter_whole_words(text, hit):
    assert p.abusive(text, WORDS) is hit


def test_blocklist_parses_comments_and_case():
    assert p.parse_blocklist("# note\nFoo  # why\n\n  two   words \n") == frozenset({"foo", "two words"})
    assert len(WORDS) >= 20 and all(w == w.casefold() for w in WORDS)


@pytest.mark.parametrize("make", [
    lambda: p.number_question("q", "x", None, lo=0, hi=1),
    lambda: p.number_question("q", "x", float("nan"), lo=0, hi=1),
    lambda: p.number_question("q", "x", 2.0, lo=0, hi=1),
    lambda: p.number_question("q", "x", "abc", lo=0, hi=1),
    lambda: p.choice_question("c", "x", ["A", "B"], "C"),
    lambda: p.choice_question("c", "x", ["A"], "A"),
    lambda: p.order_question("o", "x", {"A": 1, "B": 1}),
    lambda: p.order_question("o", "x", {"A": 1, "B": float("nan")}),
    lambda: p.order_question("o", "x", {"A": 1}),
])
def test_no_question_without_a_truth(make):
    assert make() is None


@pytest.mark.parametrize("kwargs", [
    dict(qid="x", kind="vote", prompt="?"), dict(qid="x", kind="choice", prompt="?", options=("A",)),
    dict(qid="x", kind="choice", prompt="?", options=("A", "A")), dict(qid="x", kind="number", prompt=""),
    dict(qid="x", kind="number", prompt="?", lo=1, hi=1), dict(qid="x", kind="scale", prompt="?", options=("1", "2"), truth="1"),
    dict(qid="x", kind="number", prompt="?", truth=500.0), dict(qid="x", kind="choice", prompt="p" * 201, options=("A", "B")),
])
def test_bad_questions_raise(kwargs):
    with pytest.raises(ValueError):
        p.Question(**kwargs)


def test_order_question_lists_options_alphabetically_and_keeps_the_true_order():
    assert ORDER.options == ("Amy", "Bo", "Zed") and ORDER.truth == ("Amy", "Zed", "Bo")


@pytest.mark.parametrize("lo, hi, step, edges", [
    (0, 100, 0.1, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]),
    (0, 112, 1, [0, 12, 24, 36, 48, 60, 72, 84, 96, 108, 112]),
    (0, 14, 1, [0, 2, 4, 6, 8, 10, 12, 14]),
    (0, 1, 0.01, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]),
    (0, 5, 1, [0, 1, 2, 3, 4, 5]),
])
def test_histogram_bins_are_whole_steps(lo, hi, step, edges):
    q = p.number_question("q", "?", lo, lo=lo, hi=hi, step=step)
    got = p.summarize(q, [hi]).table
    assert [round(x, 6) for x in [*got["lo"], got["hi"].iloc[-1]]] == edges and got["count"].iloc[-1] == 1


def test_number_summary_median_within_and_bins():
    answers = [10.0, 17.0, 18.0, 19.6, 19.7, 50.0, 100.0]
    r = p.summarize(NUM, answers)
    assert r.n == 7 and r.median == 19.6
    assert math.isclose(r.tolerance, 1.79) and r.within == 3  # 17.0, 18.0, 19.6 (19.7 is 1.8 away)
    assert r.table["count"].tolist() == [0, 5, 0, 0, 0, 1, 0, 0, 0, 1] and r.table["count"].sum() == 7
    assert p.result_line(NUM, r) == ("7 answers; median guess 19.6%; true value 17.9%; 3 of 7 within 10 % "
                                     "(±1.79%).")


@pytest.mark.parametrize("question, answers, right, line", [
    (CHOICE, ["B", "A", "B"], 2, "3 answers; 2 of 3 right (B)."),
    (CHOICE, [], 0, "No answers; the true value is B."),
    (ORDER, [("Amy", "Zed", "Bo"), ("Amy", "Bo", "Zed"), ("Bo", "Amy", "Zed")], 1,
     "3 answers; 1 of 3 right (Amy > Zed > Bo); 2 of 3 had Amy first."),
])
def test_predictions_count_the_right_ones(question, answers, right, line):
    r = p.summarize(question, answers)
    assert (r.right if answers else 0) == right and p.result_line(question, r) == line


def test_order_reveal_always_has_a_bar_for_the_truth():
    table = p.summarize(ORDER, [("Bo", "Amy", "Zed")]).table
    assert table["true"].tolist() == [False, True] and table["count"].tolist() == [1, 0]


@pytest.mark.parametrize("question, answers, counts, line", [
    (p.poll("p", "Lunch?", ["Yes", "No", "Yes"]), ["No", "No", "Yes"], [1, 2], "3 answers; most chose No (2)."),
    (p.scale_poll("s", "Sure?", 3), ["1", "3", "3"], [1, 0, 2], "3 answers; most chose 3 (2); median 3."),
])
def test_polls_count_each_option(question, answers, counts, line):
    r = p.summarize(question, answers)
    assert r.table["count"].tolist() == counts and p.result_line(question, r) == line


def test_word_answers_counted_case_insensitively_shown_as_first_typed():
    r = p.summarize(p.words_poll("w", "?"), ["Trust", "trust", "bias", "TRUST"])
    assert r.table.to_dict("records") == [{"answer": "Trust", "count": 3}, {"answer": "bias", "count": 1}]
    assert r.extra["distinct"] == 2


@pytest.mark.parametrize("text, options", [
    ("a, b , c", ["a", "b", "c"]), ("one\n\ntwo, three\n", ["one", "two, three"]), ("", []), ("  ,  ", []),
])
def test_split_options(text, options):
    assert p.split_options(text) == options


def test_results_frame_is_the_export():
    df = p.results_frame([(NUM, [17.0, 30.0], "revealed"), (CHOICE, ["A"], "closed")])
    assert list(df["true_value"]) == ["17.9%", "B"] and list(df["within_10pct"]) == [1, ""]
    assert df.loc[0, "distribution"] == "10.0–20.0: 1; 30.0–40.0: 1" and df.loc[0, "true_value_source"] == "paper claim"
    assert isinstance(df, pd.DataFrame) and df.loc[1, "right"] == 0


@pytest.mark.parametrize("times, allowed", [
    ([0, 1, 2], [True, True, False]), ([0, 5, 10.1], [True, True, True]), ([0, 0, 0, 20, 20], [True, True, False, True, True]),
])
def test_rate_limit_sliding_window(times, allowed):
    rl = p.RateLimit(2, 10)
    assert [rl.take("f", t) == 0 for t in times] == allowed


def test_rate_limit_says_how_long_to_wait():
    rl = p.RateLimit(1, 10)
    assert rl.take("f", 0) == 0 and rl.take("f", 4) == 6 and rl.take("g", 4) == 0


def test_asks_ranked_by_votes_then_age_answered_last_hidden_out():
    asks = [p.Ask(1, "a", 0, {"x"}), p.Ask(2, "b", 1, {"x", "y"}), p.Ask(3, "c", 2, {"x", "y"}, answered=True),
            p.Ask(4, "d", 3, set()), p.Ask(5, "e", 4, {"x", "y", "z"}, hidden=True)]
    assert [a.aid for a in p.ranked_asks(asks)] == [2, 1, 4, 3]
    assert [a.aid for a in p.ranked_asks(asks, hidden=True)] == [2, 1, 4, 3, 5]


@pytest.mark.parametrize("raw, says", [("", "empty"), ("q" * 281, "281 characters"), ("you twat", "not taken")])
def test_asks_refused(raw, says):
    with pytest.raises(p.Refused, match=says):
        p.check_ask(raw, WORDS)
