"""One formatting helper for numbers at every scale, used by every page and chart (DESIGN.md §5).

Counts ("1 model", "2 models", "1,072 cells") with verb agreement ("1 model is", "2 models are"), shares ("95.3%";
a pair of complementary shares that never contradict), metric values ("0.602"), times (µs/ms/s), parameter counts
(K/M/B). Missing values (None/NaN) read as "no value", never as "nan"; infinities as "∞" / "−∞", never as "inf";
magnitudes of 10^15 or more in scientific notation ("1.2e+300"), never as a 300-digit number.
"""
from __future__ import annotations

import math
from typing import Any

NO_VALUE = "no value"
INFINITY = "∞"
MINUS_INFINITY = "−∞"
# From this magnitude on a number prints in scientific notation: 10^15 is beyond any count, time or parameter
# count the app shows, and f"{1e300:,.0f}" would print 301 digits.
HUGE = 1e15

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


def _special(v: Any) -> str | None:
    """The text for a value no format string should see: None/NaN -> "no value", ±inf -> "∞"/"−∞"; else None."""
    if missing(v):
        return NO_VALUE
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    if math.isinf(f):
        return INFINITY if f > 0 else MINUS_INFINITY
    return None


def _scientific(f: float, digits: int = 3) -> str:
    """A huge magnitude in scientific notation with `digits` significant digits: 1.234e+20."""
    return f"{f:.{max(int(digits), 1)}g}" if abs(f) >= HUGE else f"{f:g}"


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
    special = _special(n)
    if special is not None:
        return special if word is None or special == NO_VALUE else f"{special} {plural(2, word, many)}"
    f = float(n)
    if abs(f) >= HUGE:
        return _scientific(f) if word is None else f"{_scientific(f)} {plural(2, word, many)}"
    k = int(round(f))
    s = f"{k:,}"
    return s if word is None else f"{s} {plural(k, word, many)}"


def agree(n: int | float, word: str, verb: str, many: str | None = None) -> str:
    """A count, its noun and a verb that agree: agree(1, "model", "is") == "1 model is",
    agree(2, "model", "lacks") == "2 models lack", agree(0, "model", "has") == "0 models have"; a missing count
    is "no value"."""
    if missing(n):
        return NO_VALUE
    return f"{count(n, word, many)} {verb_form(n, verb)}"


def verb_form(n: int | float, verb: str) -> str:
    """A third-person verb for n subjects, given in its singular form: verb_form(1, "lacks") == "lacks",
    verb_form(2, "lacks") == "lack", verb_form(2, "is") == "are", verb_form(3, "was") == "were"."""
    one = not missing(n) and not math.isinf(float(n)) and int(round(float(n))) == 1
    return verb if one else _plural_verb(verb)


def _plural_verb(verb: str) -> str:
    """The plural form of a verb in the third person: "is" -> "are", "has" -> "have", "lacks" -> "lack"."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 3:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


def pronoun(n: int | float, subject: bool = False) -> str:
    """The pronoun for n things: "it" for one, "them" (object) or "they" (subject, `subject=True`) for more."""
    if n == 1:
        return "it"
    return "they" if subject else "them"


def share(x: float | None, digits: int = 1) -> str:
    """A share as a percentage: share(0.9531) == "95.3%"; NaN -> "no value". A share that is not zero (or not
    whole) never prints as one: share(0.00002) == "<0.1%", share(0.99996) == ">99.9%"."""
    if missing(x):
        return NO_VALUE
    f = float(x)
    if math.isinf(f) or abs(f) >= HUGE / 100:
        return NO_VALUE if math.isinf(f) else f"{_scientific(f * 100)}%"
    text = f"{f:.{digits}%}"
    step = 10.0 ** -digits  # the smallest step shown, in percent
    if 0 < f < 1 and float(text[:-1]) == 0:
        return f"<{step:.{digits}f}%"
    if 0 < f < 1 and float(text[:-1]) == 100:
        return f">{100 - step:.{digits}f}%"
    return text


def share_pair(a: float, b: float, digits: int = 1, max_digits: int = 4) -> tuple[str, str]:
    """Two shares, usually complementary (a + b = 1: "lack a scenario" / "have all"), printed so that they never
    contradict: each is shown with the fewest decimals from `digits` up to `max_digits` at which
    - neither reads 0% or 100% unless it is exactly that (share() says "<0.1%" / ">99.9%" at the last resort),
    - two different shares do not print the same (50.04% / 49.96% is "50.04%" / "49.96%", not "50.0%" twice),
    - complementary shares add up to 100% as printed (0.05% / 99.95% is never "0.1%" / "100.0%").
    share_pair(0.9996, 0.0004) == ("99.96%", "0.04%"); beyond max_digits share()'s bounds: (">99.9999%", "<0.0001%")."""
    if missing(a) or missing(b):
        return share(a, digits), share(b, digits)
    fa, fb = float(a), float(b)
    complementary = math.isclose(fa + fb, 1.0, rel_tol=0, abs_tol=1e-12)
    d = max(int(digits), 0)
    for d in range(max(int(digits), 0), max(int(max_digits), int(digits)) + 1):
        ra, rb = (float(f"{f:.{d}%}"[:-1]) for f in (fa, fb))  # as printed
        whole = all(not (0 < f < 1 and r in (0, 100)) for f, r in ((fa, ra), (fb, rb)))
        apart = fa == fb or ra != rb
        adds = not complementary or math.isclose(ra + rb, 100, abs_tol=10 ** -(d + 3))
        if whole and apart and adds:
            return f"{fa:.{d}%}", f"{fb:.{d}%}"
    return share(fa, d), share(fb, d)


def ratio(num: int | float, den: int | float, digits: int = 1) -> str:
    """num / den as a percentage, "no value" for an empty denominator."""
    return share(num / den if den else float("nan"), digits)


def value(v: float | None, digits: int = 3) -> str:
    """A metric value with fixed decimals: value(0.6021) == "0.602"; NaN -> "no value"; inf -> "∞";
    value(1e300) == "1e+300" (scientific from 10^15)."""
    special = _special(v)
    if special is not None:
        return special
    f = float(v)
    return _scientific(f) if abs(f) >= HUGE else f"{f:.{digits}f}"


def number(v: float | None, digits: int = 3) -> str:
    """A number that prints as an integer when it is one (a count: 54.0 -> "54"), else with `digits` decimals."""
    special = _special(v)
    if special is not None:
        return special
    f = float(v)
    if abs(f) >= HUGE:
        return _scientific(f)
    return f"{int(f):,}" if f.is_integer() else f"{f:,.{digits}f}"


def seconds(s: float | None, digits: int = 3) -> str:
    """A duration in seconds at a readable scale, `digits` significant digits: 0.00002 -> "20 µs", 1e-5 -> "10 µs",
    0.0153 -> "15.3 ms", 2.5 -> "2.5 s", 0.99996 -> "1 s" (never "1e+03 ms"), 0 -> "0 s"."""
    special = _special(s)
    if special is not None:
        return special if special == NO_VALUE else f"{special} s"
    f = float(s)
    if f == 0:
        return "0 s"
    if abs(f) >= HUGE:
        return f"{_scientific(f, digits)} s"
    units = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"))
    i = next((k for k, (scale, _) in enumerate(units) if abs(f) >= scale), len(units) - 1)
    while True:
        scale, unit = units[i]
        q = float(f"{f / scale:.{digits}g}")  # rounded as it will print
        if abs(q) >= 1000 and i > 0:  # 999.96 ms rounds to 1000 ms: one unit up
            i -= 1
            continue
        text = f"{f / scale:,.0f}" if abs(q) >= 1000 else f"{q:.{digits}g}"  # 1234.5 s -> "1,234 s"
        return f"{text} {unit}"


def params(p: float | None, speculative: bool = False) -> str:
    """A parameter count: 175e9 -> "175B", 52.4e9 -> "52.4B", 350e6 -> "350M", 158_016 -> "158K", 1.2e4 -> "12K",
    999_999 -> "1M" (never "1000K"); NaN -> "undisclosed"; a speculative size gets HELM's "*"."""
    if missing(p):
        return "undisclosed"
    f = float(p)
    if math.isinf(f) or abs(f) >= HUGE * 1e12:  # beyond 10^15 T
        return (_special(f) or _scientific(f)) + ("*" if speculative else "")
    units = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))
    s = f"{f:.0f}"
    for i, (scale, unit) in enumerate(units):
        if f >= scale or (f >= scale / 1000 and float(f"{f / scale * 1000:.1f}") >= 1000):
            q = float(f"{f / scale:.1f}")
            s = f"{q:.1f}".rstrip("0").rstrip(".") + unit
            break
    if s == "1000":  # 999.6 parameters
        s = "1K"
    return s + ("*" if speculative else "")


def is_time(metric: str) -> bool:
    """Whether a metric or column name holds seconds: HELM's "... time (s)" columns, a "runtime", "runtime_s"."""
    name = (metric or "").strip().lower()
    return name.endswith("(s)") or "runtime" in name or "inference time" in name


def metric_value(v: float | None, metric: str = "", digits: int = 3) -> str:
    """A metric's value at its own scale, by the name HELM's schema gives it: a time ("... time (s)",
    "runtime") as seconds(), a count ("# eval", "# prompt tokens", "truncated") as number(), anything else
    as value(): metric_value(1e-5, "Observed inference time (s)") == "10 µs"."""
    name = (metric or "").strip().lower()
    if is_time(name):
        return seconds(v, digits)
    if name.startswith("#") or name in ("truncated", "num_instances", "num_train_instances"):
        return number(v, 1 if not missing(v) and not float(v).is_integer() else digits)
    return value(v, digits)


def names(items: list[str] | tuple[str, ...], limit: int | None = None, word: str = "other") -> str:
    """A readable list: "A", "A and B", "A, B and C"; beyond `limit`, "A, B and 3 others"."""
    items = list(items)
    if limit is not None and len(items) > limit:
        rest = len(items) - limit
        return ", ".join(items[:limit]) + f" and {count(rest, word)}"
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
