"""helm_core.fmt: one formatting helper for counts, shares, values, times and parameter counts."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from helm_core import fmt


@pytest.mark.parametrize("n,word,many,expected", [
    (1, "model", None, "model"), (0, "model", None, "models"), (2, "model", None, "models"),
    (2, "pass", None, "passes"), (3, "study", None, "studies"), (2, "day", None, "days"),
    (2, "has", None, "have"), (1, "has", None, "has"), (2, "is", None, "are"), (2, "belongs", None, "belong"),
    (2, "model × scenario cell", None, "model × scenario cells"), (2, "person", "people", "people"),
])
def test_plural(n, word, many, expected):
    assert fmt.plural(n, word, many) == expected


@pytest.mark.parametrize("n,word,expected", [
    (1, "model", "1 model"), (28, "model", "28 models"), (1072, "cell", "1,072 cells"), (54.0, None, "54"),
    (float("nan"), "model", "no value"), (np.int64(1), "blank", "1 blank"),
])
def test_count(n, word, expected):
    assert fmt.count(n, word) == expected


@pytest.mark.parametrize("x,digits,expected", [
    (0.953125, 1, "95.3%"), (0.81902985, 1, "81.9%"), (1.0, 0, "100%"), (None, 1, "no value"), (math.nan, 1, "no value"),
    # a share that is not zero, or not whole, never prints as one
    (0.0, 1, "0.0%"), (0.00002, 1, "<0.1%"), (0.004, 0, "<1%"), (0.99996, 1, ">99.9%"), (0.996, 0, ">99%"),
    (0.508, 1, "50.8%"),
])
def test_share(x, digits, expected):
    assert fmt.share(x, digits) == expected


def test_ratio_guards_an_empty_denominator():
    assert fmt.ratio(427, 448) == "95.3%" and fmt.ratio(1, 0) == "no value"


@pytest.mark.parametrize("v,expected", [(54.0, "54"), (1234.0, "1,234"), (0.6021, "0.602"), (None, "no value")])
def test_number_prints_counts_as_integers(v, expected):
    assert fmt.number(v) == expected


@pytest.mark.parametrize("s,expected", [
    (2.5, "2.5 s"), (0.0153, "15.3 ms"), (0.05, "50 ms"), (0.00002, "20 µs"), (1234.5, "1,234 s"), (None, "no value"),
    # every scale a HELM suite has: a local model answers in microseconds
    (1e-5, "10 µs"), (1.9e-5, "19 µs"), (1.5e-5, "15 µs"), (3e-7, "0.3 µs"), (0.03182, "31.8 ms"), (0.04773, "47.7 ms"),
    (0.0, "0 s"), (math.nan, "no value"),
    # rounding up crosses into the next unit instead of printing "1e+03 ms"
    (0.99996, "1 s"), (0.0009999, "1 ms"), (0.9994, "999 ms"),
])
def test_seconds(s, expected):
    assert fmt.seconds(s) == expected


@pytest.mark.parametrize("p,spec,expected", [
    (175e9, False, "175B"), (52.4e9, False, "52.4B"), (350e6, True, "350M*"), (410e6, False, "410M"),
    (12_000, False, "12K"), (1.2e12, False, "1.2T"), (float("nan"), False, "undisclosed"),
    # small models: never "0M"
    (158_016, False, "158K"), (70_426_624, False, "70.4M"), (1_500, False, "1.5K"), (500, False, "500"),
    # rounding up crosses into the next unit
    (999_999, False, "1M"), (999_950_000, False, "1B"), (999.6, False, "1K"),
])
def test_params(p, spec, expected):
    assert fmt.params(p, spec) == expected


@pytest.mark.parametrize("items,limit,expected", [
    ([], None, ""), (["A"], None, "A"), (["A", "B"], None, "A and B"), (["A", "B", "C"], None, "A, B and C"),
    (["A", "B", "C", "D"], 2, "A, B and 2 others"), (["A", "B", "C"], 2, "A, B and 1 other"),
])
def test_names(items, limit, expected):
    assert fmt.names(items, limit) == expected


@pytest.mark.parametrize("v,metric,expected", [
    (1e-5, "Observed inference time (s)", "10 µs"), (0.0318, "Denoised inference time (s)", "31.8 ms"),
    (2.5, "inference_runtime", "2.5 s"), (5.0, "# eval", "5"), (31.1, "# prompt tokens", "31.1"),
    (0.0, "truncated", "0"), (0.6, "EM", "0.600"), (0.5833, "Macro-F1", "0.583"), (None, "EM", "no value"),
    (float("nan"), "Observed inference time (s)", "no value"), (0.41, "", "0.410"),
])
def test_metric_value_reads_each_metric_at_its_scale(v, metric, expected):
    assert fmt.metric_value(v, metric) == expected


@pytest.mark.parametrize("name,expected", [
    ("Observed inference time (s)", True), ("Denoised inference time (s)", True), ("runtime_s", True),
    ("inference_runtime", True), ("EM", False), ("# eval", False), ("Max prob", False), ("", False),
])
def test_is_time(name, expected):
    assert fmt.is_time(name) is expected


# ----------------------------------------------------------------------------- numbers that never contradict

INF, NAN = float("inf"), float("nan")


@pytest.mark.parametrize("a,b,digits,expected", [
    # complementary shares with room: as share() prints them
    (37 / 67, 30 / 67, 1, ("55.2%", "44.8%")), (22 / 28, 6 / 28, 1, ("78.6%", "21.4%")), (0.5, 0.5, 1, ("50.0%", "50.0%")),
    # exactly whole: said as whole
    (1.0, 0.0, 1, ("100.0%", "0.0%")), (0.0, 1.0, 0, ("0%", "100%")),
    # close to whole: more digits rather than "100.0%" beside a non-zero share
    (0.9996, 0.0004, 1, ("99.96%", "0.04%")), (0.0005, 0.9995, 1, ("0.05%", "99.95%")),
    (1 - 1e-9, 1e-9, 1, (">99.9999%", "<0.0001%")),  # beyond max_digits: share()'s bounds, never 100% / 0%
    # different shares never print the same
    (0.50004, 0.49996, 1, ("50.004%", "49.996%")), (0.5004, 0.4996, 0, ("50.04%", "49.96%")),
    # not complementary: each keeps its own value, still apart
    (0.3334, 0.3333, 1, ("33.34%", "33.33%")), (0.2, 0.1, 1, ("20.0%", "10.0%")),
    # missing: "no value", never "nan%"
    (NAN, 0.5, 1, ("no value", "50.0%")), (None, None, 1, ("no value", "no value")),
])
def test_share_pair(a, b, digits, expected):
    got = fmt.share_pair(a, b, digits)
    assert got == expected
    for text, x in zip(got, (a, b)):
        assert "nan" not in text and "inf" not in text
        if x is not None and not math.isnan(x) and 0 < x < 1:  # never "0%" / "100.0%" for a share that is not whole
            assert not re.fullmatch(r"(0|100)(\.0*)?%", text), text


@pytest.mark.parametrize("a,b", [(x / 1000, 1 - x / 1000) for x in (1, 5, 499, 500, 501, 995, 999)]
                         + [(x / 67, 1 - x / 67) for x in range(0, 68, 7)])
def test_share_pair_of_complements_adds_up_as_printed(a, b):
    sa, sb = fmt.share_pair(a, b)
    if sa[0] not in "<>" and sb[0] not in "<>":
        assert float(sa[:-1]) + float(sb[:-1]) == pytest.approx(100)
    assert (sa == sb) == (a == b)


@pytest.mark.parametrize("func,v,expected", [
    (fmt.value, INF, "∞"), (fmt.value, -INF, "−∞"), (fmt.value, NAN, "no value"),
    (fmt.number, INF, "∞"), (fmt.number, -INF, "−∞"), (fmt.count, INF, "∞"), (fmt.count, NAN, "no value"),
    (fmt.seconds, INF, "∞ s"), (fmt.seconds, -INF, "−∞ s"), (fmt.share, INF, "no value"), (fmt.share, -INF, "no value"),
    (fmt.params, INF, "∞"), (fmt.ratio, None, None),
    (lambda v: fmt.metric_value(v, "EM"), INF, "∞"), (lambda v: fmt.metric_value(v, "Observed inference time (s)"), INF, "∞ s"),
    (lambda v: fmt.metric_value(v, "# eval"), -INF, "−∞"),
])
def test_non_finite_values_never_print_as_inf_or_nan(func, v, expected):
    if func is fmt.ratio:
        assert fmt.ratio(1, 0) == "no value" and fmt.ratio(INF, 1) == "no value"
        return
    got = func(v)
    assert got == expected
    assert "inf" not in got.lower() and "nan" not in got.lower()


@pytest.mark.parametrize("func,v,expected", [
    (fmt.value, 1e300, "1e+300"), (fmt.value, -2.5e20, "-2.5e+20"), (fmt.number, 1e300, "1e+300"),
    (fmt.number, 123456789012345678.0, "1.23e+17"), (fmt.count, 1e300, "1e+300"), (fmt.seconds, 1e300, "1e+300 s"),
    (fmt.params, 1e300, "1e+300"), (fmt.share, 1e20, "1e+22%"),
    # below the threshold nothing changes
    (fmt.number, 999_999_999_999_999.0, "999,999,999,999,999"), (fmt.count, 12_345_678, "12,345,678"),
    (fmt.value, 1e14, "100000000000000.000"), (fmt.params, 2e15, "2000T"),
    # tiny magnitudes keep the fixed decimals of their format
    (fmt.value, 1e-300, "0.000"), (fmt.number, 1e-300, "0.000"), (fmt.seconds, 1e-300, "1e-294 µs"),
])
def test_huge_magnitudes_print_in_scientific_notation(func, v, expected):
    got = func(v)
    assert got == expected
    assert len(got) < 40


def test_count_with_a_word_and_a_huge_or_infinite_number():
    assert fmt.count(1e300, "model") == "1e+300 models" and fmt.count(INF, "model") == "∞ models"


@pytest.mark.parametrize("n,word,verb,expected", [
    (1, "model", "is", "1 model is"), (2, "model", "is", "2 models are"), (0, "model", "is", "0 models are"),
    (1, "model", "lacks", "1 model lacks"), (37, "model", "lacks", "37 models lack"), (2, "model", "has", "2 models have"),
    (3, "model", "was", "3 models were"), (2, "model", "passes", "2 models pass"), (2, "study", "applies", "2 studies apply"),
    (1.0, "model", "ran", "1 model ran"), (25, "model", "ran", "25 models ran"), (np.int64(1), "cell", "holds", "1 cell holds"),
    (1072, "cell", "does", "1,072 cells do"), (NAN, "model", "is", "no value"), (INF, "model", "is", "∞ models are"),
])
def test_agree(n, word, verb, expected):
    assert fmt.agree(n, word, verb) == expected


@pytest.mark.parametrize("n,verb,expected", [
    (1, "lacks", "lacks"), (2, "lacks", "lack"), (2, "is", "are"), (1, "is", "is"), (2, "fixes", "fix"),
    (2, "misses", "miss"), (2, "carries", "carry"), (2, "ran", "ran"), (2, "belongs", "belong"),
])
def test_verb_form(n, verb, expected):
    assert fmt.verb_form(n, verb) == expected


@pytest.mark.parametrize("n,subject,expected", [(1, False, "it"), (1, True, "it"), (2, False, "them"),
                                                (2, True, "they"), (0, False, "them")])
def test_pronoun(n, subject, expected):
    assert fmt.pronoun(n, subject) == expected
