"""helm_core.fmt: one formatting helper for counts, shares, values, times and parameter counts."""
from __future__ import annotations

import math

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
