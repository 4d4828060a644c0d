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
])
def test_seconds(s, expected):
    assert fmt.seconds(s) == expected


@pytest.mark.parametrize("p,spec,expected", [
    (175e9, False, "175B"), (52.4e9, False, "52.4B"), (350e6, True, "350M*"), (410e6, False, "410M"),
    (12_000, False, "12K"), (1.2e12, False, "1.2T"), (float("nan"), False, "undisclosed"),
])
def test_params(p, spec, expected):
    assert fmt.params(p, spec) == expected


@pytest.mark.parametrize("items,limit,expected", [
    ([], None, ""), (["A"], None, "A"), (["A", "B"], None, "A and B"), (["A", "B", "C"], None, "A, B and C"),
    (["A", "B", "C", "D"], 2, "A, B and 2 others"), (["A", "B", "C"], 2, "A, B and 1 other"),
])
def test_names(items, limit, expected):
    assert fmt.names(items, limit) == expected
