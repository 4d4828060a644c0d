"""One formatting helper for numbers at every scale, used by every page and chart (DESIGN.md §5).

Counts ("1 model", "2 models", "1,072 cells"), shares ("95.3%"), metric values ("0.602"), times (µs/ms/s),
parameter counts (K/M/B). Missing values (None/NaN) read as "no value", never as "nan".
"""
from __future__ import annotations

import math
from typing import Any

NO_VALUE = "no value"

# Irregular plurals used on screen; anything else gets an "s".
_IRREGULAR = {"this": "these", "is": "are", "was": "were", "has": "have", "its": "their", "does": "do",
              "breaks": "break", "belongs": "belong", "it": "they"}


def missing(v: Any) -> bool:
    """True for None and NaN (float or numpy)."""
    if v is None:
        return True
    try:
        return math.isnan(float(v))
    except (TypeError, ValueError):
        return False


def plural(n: int | float, word: str, many: str | None = None) -> str:
    """The form of `word` for a count n: plural(1, "model") == "model", plural(2, "model") == "models".
    `many` gives an irregular plural; a few common ones ("is"/"are", "has"/"have"...) are known."""
    if n == 1:
        return word
    if many is not None:
        return many
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def count(n: int | float, word: str | None = None, many: str | None = None) -> str:
    """An integer count with thousands separators, and the noun in the right number:
    count(1072, "cell") == "1,072 cells", count(1, "model") == "1 model", count(54.0) == "54"."""
    if missing(n):
        return NO_VALUE
    k = int(round(float(n)))
    s = f"{k:,}"
    return s if word is None else f"{s} {plural(k, word, many)}"


def share(x: float | None, digits: int = 1) -> str:
    """A share as a percentage: share(0.9531) == "95.3%"; NaN -> "no value"."""
    return NO_VALUE if missing(x) else f"{float(x):.{digits}%}"


def ratio(num: int | float, den: int | float, digits: int = 1) -> str:
    """num / den as a percentage, "no value" for an empty denominator."""
    return share(num / den if den else float("nan"), digits)


def value(v: float | None, digits: int = 3) -> str:
    """A metric value with fixed decimals: value(0.6021) == "0.602"; NaN -> "no value"."""
    return NO_VALUE if missing(v) else f"{float(v):.{digits}f}"


def number(v: float | None, digits: int = 3) -> str:
    """A number that prints as an integer when it is one (a count: 54.0 -> "54"), else with `digits` decimals."""
    if missing(v):
        return NO_VALUE
    f = float(v)
    return f"{int(f):,}" if f.is_integer() else f"{f:,.{digits}f}"


def seconds(s: float | None, digits: int = 3) -> str:
    """A duration in seconds at a readable scale: 0.00002 -> "20 µs", 0.0153 -> "15.3 ms", 2.5 -> "2.5 s"."""
    if missing(s):
        return NO_VALUE
    f = float(s)
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if abs(f) >= scale or unit == "µs":
            q = f / scale
            text = f"{q:.{digits}g}" if abs(q) < 1000 else f"{q:,.0f}"
            return f"{text} {unit}"
    return f"{f} s"  # pragma: no cover - the loop always returns


def params(p: float | None, speculative: bool = False) -> str:
    """A parameter count: 175e9 -> "175B", 52.4e9 -> "52.4B", 350e6 -> "350M", 1.2e4 -> "12K";
    NaN -> "undisclosed"; a speculative size gets HELM's "*"."""
    if missing(p):
        return "undisclosed"
    f = float(p)
    for scale, unit in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if f >= scale:
            s = f"{f / scale:.1f}".rstrip("0").rstrip(".") + unit
            break
    else:
        s = f"{f:.0f}"
    return s + ("*" if speculative else "")


def names(items: list[str] | tuple[str, ...], limit: int | None = None, word: str = "other") -> str:
    """A readable list: "A", "A and B", "A, B and C"; beyond `limit`, "A, B and 3 others"."""
    items = list(items)
    if limit is not None and len(items) > limit:
        rest = len(items) - limit
        return ", ".join(items[:limit]) + f" and {count(rest, word)}"
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
