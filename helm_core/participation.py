"""The audience's answers, pure: questions a slide asks (predict-then-reveal on the story's numbers, polls, word
answers), the checks an answer passes, the distribution a reveal shows, the room's own questions ranked by
upvotes, the abuse filter and the rate limits. No Streamlit: the live store (ui/live.py) holds the state and calls
these.

A `Question` either predicts (it has a `truth`: the value the slide computes from the loaded data, or a paper
claim shown as one, with `truth_note` saying which) or polls (no truth). Kinds:

| kind | answer | reveal |
|---|---|---|
| `number` | a number from `lo` to `hi` | histogram of guesses, the median guess, how many within 10 % of the truth |
| `choice` | one of `options` | bars per option, the true one marked |
| `order` | all of `options` in an order | bars per order given, how many exactly right and how many had the right first |
| `scale` | one of `options` ("1" … "5") | bars per option |
| `words` | up to MAX_WORDS characters | the most given answers, counted case-insensitively |

"Within 10 %": |guess − truth| ≤ 0.1 × |truth| (a truth of 0 needs the exact value), said on screen with its ±.
"""
from __future__ import annotations

import math
import re
import statistics
import unicodedata
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import pandas as pd

KINDS = ("number", "choice", "order", "scale", "words")
PREDICT_KINDS = ("number", "choice", "order")
MAX_PROMPT = 200
MAX_OPTIONS = 8
MAX_OPTION_CHARS = 60
MAX_WORDS = 40  # characters of a word answer
MAX_ASK = 280  # characters of a question from the room
WITHIN = 0.10
HIST_BINS = 10
TOP_WORDS = 12


class Refused(ValueError):
    """An answer, a question or a vote the room does not take; its text is said to the visitor as it is."""


@dataclass(frozen=True)
class Question:
    qid: str
    kind: str
    prompt: str
    options: tuple[str, ...] = ()
    lo: float = 0.0
    hi: float = 100.0
    step: float = 1.0
    unit: str = ""
    truth: float | str | tuple[str, ...] | None = None
    truth_note: str = ""  # where the truth comes from: "computed from …" or "paper claim · …"
    page: str = ""  # url_path of the slide that asks it ("" for a poll any slide opened)
    slide: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a question's kind is one of {', '.join(KINDS)}")
        if not self.prompt.strip() or len(self.prompt) > MAX_PROMPT:
            raise ValueError(f"a question's prompt has 1 to {MAX_PROMPT} characters")
        if self.kind in ("choice", "order", "scale"):
            if not 2 <= len(self.options) <= MAX_OPTIONS or len(set(self.options)) != len(self.options):
                raise ValueError(f"a {self.kind} question has 2 to {MAX_OPTIONS} different options")
            if any(not o.strip() or len(o) > MAX_OPTION_CHARS for o in self.options):
                raise ValueError(f"an option has 1 to {MAX_OPTION_CHARS} characters")
        if self.kind == "number":
            if not (math.isfinite(self.lo) and math.isfinite(self.hi) and self.lo < self.hi and self.step > 0):
                raise ValueError("a number question needs finite lo < hi and a positive step")
        if self.truth is not None:
            if self.kind not in PREDICT_KINDS:
                raise ValueError("only number, choice and order questions have a true value")
            check_answer(self, self.truth)  # the truth is an answer the question takes

    @property
    def predicts(self) -> bool:
        return self.truth is not None


# ----------------------------------------------------------------------------- questions the slides ask

def number_question(qid: str, prompt: str, truth: float | None, *, lo: float, hi: float, step: float = 1.0,
                    unit: str = "", note: str = "", page: str = "", slide: str = "") -> Question | None:
    """A guess of a number, or None when the slide's data has no truth for it (not a number, or off the scale)."""
    if truth is None or isinstance(truth, bool):
        return None
    try:
        t = float(truth)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(t) or not lo <= t <= hi:
        return None
    return Question(qid, "number", prompt, lo=float(lo), hi=float(hi), step=float(step), unit=unit, truth=t,
                    truth_note=note, page=page, slide=slide)


def choice_question(qid: str, prompt: str, options: Sequence[str], truth: str | None, *, note: str = "",
                    page: str = "", slide: str = "") -> Question | None:
    opts = tuple(dict.fromkeys(str(o) for o in options))
    if truth is None or truth not in opts or not 2 <= len(opts) <= MAX_OPTIONS:
        return None
    return Question(qid, "choice", prompt, opts, truth=truth, truth_note=note, page=page, slide=slide)


def order_question(qid: str, prompt: str, ranks: Mapping[str, float], *, note: str = "", page: str = "",
                   slide: str = "") -> Question | None:
    """Put these models in order: `ranks` maps each to its rank (1 best); None if fewer than 2 or a tie or a
    missing rank leaves the true order undefined. The options are listed alphabetically (not in the true order)."""
    items = {str(k): v for k, v in ranks.items()}
    if not 2 <= len(items) <= MAX_OPTIONS:
        return None
    vals = list(items.values())
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in vals) or len(set(vals)) != len(vals):
        return None
    truth = tuple(sorted(items, key=lambda k: items[k]))
    return Question(qid, "order", prompt, tuple(sorted(items, key=str.casefold)), truth=truth, truth_note=note,
                    page=page, slide=slide)


def top_three_ranks(ranking: pd.DataFrame, models: Sequence[str], rank_col: str = "rank") -> dict[str, float]:
    """`models`' ranks in `ranking` (indexed by model), NaN for a model it does not rank."""
    col = ranking[rank_col] if rank_col in ranking else pd.Series(dtype=float)
    return {m: (float(col.loc[m]) if m in col.index and pd.notna(col.loc[m]) else float("nan")) for m in models}


def poll(qid: str, prompt: str, options: Iterable[str]) -> Question:
    """A choice poll a presenter types (options one per line or comma-separated); raises ValueError with the
    reason when it is not a poll (fewer than two options, too long)."""
    opts = tuple(dict.fromkeys(o.strip() for o in options if o and o.strip()))
    return Question(qid, "choice", prompt.strip(), opts)


def scale_poll(qid: str, prompt: str, top: int = 5) -> Question:
    if not 2 <= top <= MAX_OPTIONS:
        raise ValueError(f"a scale runs from 1 to 2–{MAX_OPTIONS}")
    return Question(qid, "scale", prompt.strip(), tuple(str(i) for i in range(1, top + 1)))


def words_poll(qid: str, prompt: str) -> Question:
    return Question(qid, "words", prompt.strip())


def split_options(text: str) -> list[str]:
    """A presenter's options: one per line, or comma-separated on one line."""
    lines = [s for s in (text or "").splitlines() if s.strip()]
    if len(lines) == 1:
        lines = lines[0].split(",")
    return [s.strip() for s in lines if s.strip()]


# ----------------------------------------------------------------------------- answers

def clean_text(raw: Any, limit: int, what: str) -> str:
    if not isinstance(raw, str):
        raise Refused(f"{what} is text.")
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs"))
    if not text:
        raise Refused(f"{what} is empty.")
    if len(text) > limit:
        raise Refused(f"{what} has {len(text)} characters; at most {limit} are taken.")
    return text


def check_answer(q: Question, raw: Any, blocklist: frozenset[str] = frozenset()):
    """The answer as stored (float, option text, tuple of options, cleaned words), or Refused with the reason."""
    if q.kind == "number":
        if isinstance(raw, bool):
            raise Refused("The answer is a number.")
        try:
            x = float(raw)
        except (TypeError, ValueError):
            raise Refused("The answer is a number.") from None
        if not math.isfinite(x) or not q.lo <= x <= q.hi:
            raise Refused(f"The answer is a number from {q.lo:g} to {q.hi:g}.")
        return x
    if q.kind in ("choice", "scale"):
        if raw not in q.options:
            raise Refused("Pick one of the options.")
        return raw
    if q.kind == "order":
        order = tuple(raw) if isinstance(raw, (list, tuple)) else None
        if order is None or len(order) != len(q.options) or set(order) != set(q.options):
            raise Refused(f"Put all {len(q.options)} in an order, each once.")
        return order
    text = clean_text(raw, MAX_WORDS, "The answer")
    if abusive(text, blocklist):
        raise Refused("That answer was not taken: it contains a word this room does not show.")
    return text


@dataclass(frozen=True)
class Result:
    """What a question's answers add up to (see `summarize`)."""
    n: int
    table: pd.DataFrame
    median: float | None = None
    tolerance: float | None = None  # ± of "within 10 %"
    within: int | None = None  # number answers within the tolerance of the truth
    right: int | None = None  # choice/order answers equal to the truth
    first_right: int | None = None  # order answers with the true first
    extra: dict = field(default_factory=dict)


def _edges(q: Question, bins: int = HIST_BINS) -> list[float]:
    """At most `bins` equal bins from lo to hi, each a whole number of steps wide (the last one cut at hi)."""
    width = q.step * math.ceil(round((q.hi - q.lo) / (bins * q.step), 9))
    n = math.ceil(round((q.hi - q.lo) / width, 9))
    return [q.lo + i * width for i in range(n)] + [q.hi]


def summarize(q: Question, answers: Sequence) -> Result:
    """The distribution of `answers` (already checked by check_answer) for the reveal and the export."""
    n = len(answers)
    if q.kind == "number":
        edges = _edges(q)
        counts = [0] * (len(edges) - 1)
        for x in answers:
            i = min(int(round((x - q.lo) / (edges[1] - edges[0]), 9)), len(edges) - 2)
            counts[i] += 1
        table = pd.DataFrame({"lo": edges[:-1], "hi": edges[1:], "count": counts})
        median = float(statistics.median(answers)) if n else None
        tol = within = None
        if q.truth is not None:
            tol = WITHIN * abs(float(q.truth))
            within = sum(1 for x in answers if abs(x - float(q.truth)) <= tol + 1e-12)
        return Result(n, table, median=median, tolerance=tol, within=within)
    if q.kind in ("choice", "scale"):
        c = Counter(answers)
        table = pd.DataFrame({"option": list(q.options), "count": [c.get(o, 0) for o in q.options]})
        table["share"] = table["count"] / n if n else 0.0
        table["true"] = table["option"] == q.truth if q.truth is not None else False
        right = c.get(q.truth, 0) if q.truth is not None else None
        if q.kind == "scale" and n:
            median = float(statistics.median(int(a) for a in answers))
        else:
            median = None
        return Result(n, table, median=median, right=right)
    if q.kind == "order":
        c = Counter(tuple(a) for a in answers)
        rows = [{"order": " > ".join(o), "count": k, "true": o == q.truth} for o, k in c.most_common()]
        if q.truth is not None and q.truth not in c:
            rows.append({"order": " > ".join(q.truth), "count": 0, "true": True})
        table = pd.DataFrame(rows, columns=["order", "count", "true"])
        right = c.get(q.truth, 0) if q.truth is not None else None
        first = sum(k for o, k in c.items() if q.truth is not None and o[0] == q.truth[0]) if q.truth else None
        return Result(n, table, right=right, first_right=first)
    c = Counter(a.casefold() for a in answers)
    shown: dict[str, str] = {}
    for a in answers:  # each word shown as it was first typed
        shown.setdefault(a.casefold(), a)
    rows = [{"answer": shown[k], "count": v} for k, v in c.most_common(TOP_WORDS)]
    return Result(n, pd.DataFrame(rows, columns=["answer", "count"]), extra={"distinct": len(c)})


def truth_text(q: Question, unit: bool = True) -> str:
    if q.truth is None:
        return ""
    if q.kind == "number":
        return f"{_num(float(q.truth), q.step)}{q.unit if unit else ''}"
    if q.kind == "order":
        return " > ".join(q.truth)
    return str(q.truth)


def _num(x: float, step: float) -> str:
    digits = 0 if step >= 1 else min(4, max(1, -math.floor(math.log10(step))))
    return f"{x:.{digits}f}"


def result_line(q: Question, r: Result) -> str:
    """One plain sentence of the result (no Markdown): the screen's caption, the handout, the CSV."""
    people = f"{r.n} answer" + ("" if r.n == 1 else "s")
    if not r.n:
        return "No answers yet." if q.truth is None else f"No answers; the true value is {truth_text(q)}."
    if q.kind == "number":
        line = f"{people}; median guess {_num(r.median, q.step)}{q.unit}"
        if q.truth is not None:
            line += (f"; true value {truth_text(q)}; {r.within} of {r.n} within 10 % "
                     f"(±{_num(r.tolerance, q.step / 10)}{q.unit})")
        return line + "."
    if q.kind in ("choice", "order") and q.truth is not None:
        line = f"{people}; {r.right} of {r.n} right ({truth_text(q)})"
        if q.kind == "order":
            line += f"; {r.first_right} of {r.n} had {q.truth[0]} first"
        return line + "."
    if q.kind == "words":
        return f"{people}, {r.extra.get('distinct', 0)} different."
    top = r.table.sort_values("count", ascending=False).iloc[0]
    line = f"{people}; most chose {top['option']} ({int(top['count'])})"
    return line + (f"; median {r.median:g}." if r.median is not None else ".")


def distribution_text(q: Question, r: Result) -> str:
    """The distribution in one cell: 'lo–hi: n' per bin, 'option: n' per option, 'order: n' per order."""
    if q.kind == "number":
        return "; ".join(f"{_num(a, q.step)}–{_num(b, q.step)}: {int(c)}" for a, b, c in
                         r.table[["lo", "hi", "count"]].itertuples(index=False) if c)
    col = {"choice": "option", "scale": "option", "order": "order", "words": "answer"}[q.kind]
    return "; ".join(f"{o}: {int(c)}" for o, c in r.table[[col, "count"]].itertuples(index=False) if c)


def results_frame(items: Sequence[tuple[Question, Sequence, str]]) -> pd.DataFrame:
    """One row per question closed or open in a room: (question, its answers, its state) → the export's table
    (question, kind, answers, distribution, median, within_10pct, true_value, true_value_source, result)."""
    rows = []
    for q, answers, status in items:
        r = summarize(q, answers)
        rows.append({"question": q.prompt, "kind": q.kind, "status": status, "answers": r.n,
                     "distribution": distribution_text(q, r),
                     "median": r.median if r.median is not None else "",
                     "within_10pct": r.within if r.within is not None else "",
                     "right": r.right if r.right is not None else "",
                     "true_value": truth_text(q), "true_value_source": q.truth_note,
                     "result": result_line(q, r)})
    return pd.DataFrame(rows, columns=["question", "kind", "status", "answers", "distribution", "median",
                                       "within_10pct", "right", "true_value", "true_value_source", "result"])


# ----------------------------------------------------------------------------- questions from the room

@dataclass
class Ask:
    """A question from the room: its text, who upvoted it (follower ids, never shown), answered or hidden."""
    aid: int
    text: str
    t: float
    voters: set = field(default_factory=set)
    answered: bool = False
    hidden: bool = False

    @property
    def votes(self) -> int:
        return len(self.voters)


def ranked_asks(asks: Iterable[Ask], *, hidden: bool = False) -> list[Ask]:
    """Open questions first, by votes (most first), then oldest first; answered ones after; hidden ones last and only
    when asked for (the speaker view)."""
    items = [a for a in asks if hidden or not a.hidden]
    return sorted(items, key=lambda a: (a.hidden, a.answered, -a.votes, a.t, a.aid))


def check_ask(raw: Any, blocklist: frozenset[str]) -> str:
    text = clean_text(raw, MAX_ASK, "The question")
    if abusive(text, blocklist):
        raise Refused("That question was not taken: it contains a word this room does not show.")
    return text


# ----------------------------------------------------------------------------- the abuse filter

_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"})


def parse_blocklist(text: str) -> frozenset[str]:
    """data/blocklist.txt: one word or phrase per line, `#` starts a comment; compared case-insensitively."""
    words = set()
    for line in text.splitlines():
        w = line.split("#", 1)[0].strip().casefold()
        if w:
            words.add(" ".join(w.split()))
    return frozenset(words)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.translate(_LEET)


def abusive(text: str, blocklist: frozenset[str]) -> bool:
    """True when a listed word or phrase is a word of `text` (case, accents, common digit-for-letter swaps,
    letters stretched by repeats and separators inside a word such as "f.o.o" all fold away). A listed word inside a
    longer word does not count ("class" is not "ass")."""
    if not blocklist:
        return False
    folded = _fold(text)
    tokens = re.findall(r"[a-z]+", folded)
    squeezed = [re.sub(r"(.)\1+", r"\1", t) for t in tokens]
    joined = re.sub(r"(?<=\b[a-z])[\W_]+(?=[a-z]\b)", "", folded)  # "f.o.o" -> "foo"
    singles = re.findall(r"[a-z]+", joined)
    words = set(tokens) | set(squeezed) | set(singles)
    phrase = " " + " ".join(tokens) + " "
    for w in blocklist:
        if " " in w:
            if f" {w} " in phrase:
                return True
        elif w in words:
            return True
    return False


# ----------------------------------------------------------------------------- rate limits

class RateLimit:
    """At most `limit` actions per `per` seconds for each key (a sliding window); not thread-safe (the live store
    calls it under its lock). Keys idle for longer than `per` are forgotten, so it stays bounded."""

    def __init__(self, limit: int, per: float) -> None:
        if limit < 1 or per <= 0:
            raise ValueError("a rate limit needs limit >= 1 and per > 0")
        self.limit, self.per = int(limit), float(per)
        self._seen: dict[Any, deque] = {}

    def wait(self, key: Any, now: float) -> float:
        """Seconds until `key` may act again (0: now)."""
        q = self._seen.get(key)
        if not q:
            return 0.0
        while q and now - q[0] >= self.per:
            q.popleft()
        return 0.0 if len(q) < self.limit else self.per - (now - q[0])

    def take(self, key: Any, now: float) -> float:
        """Record an action if allowed: 0.0 when taken, else the seconds to wait (nothing recorded)."""
        w = self.wait(key, now)
        if w > 0:
            return w
        self._seen.setdefault(key, deque()).append(now)
        if len(self._seen) > 10_000:
            self._seen = {k: q for k, q in self._seen.items() if q and now - q[-1] < self.per}
        return 0.0
