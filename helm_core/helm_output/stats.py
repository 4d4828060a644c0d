"""HELM's `stats.json`: Stat objects (name, split, sub_split, perturbation, count, sum, min, max, mean) and
HELM's `Stat.merge` over runs."""
from __future__ import annotations

import math
from array import array
from typing import Any, Callable, Iterable, NamedTuple

from .fields import _expect, _num, _opt_str

# ----------------------------------------------------------------------------- stats


class _Stat(NamedTuple):
    name: str
    split: str
    sub_split: str
    perturbation: str  # perturbation name, "" for none
    computed_on: str
    count: float
    sum: float
    min: float
    max: float
    mean: float
    stddev: float


def _parse_stat(item: Any, where: str) -> _Stat:
    _expect(item, dict, where, "an object with 'name' and 'count'")
    name = _expect(item.get("name"), dict, f"{where}.name", "an object {name, split, perturbation}")
    mname = _expect(name.get("name"), str, f"{where}.name.name", "text")
    split = _opt_str(name.get("split"), f"{where}.name.split")
    sub = _opt_str(name.get("sub_split"), f"{where}.name.sub_split")
    pert = name.get("perturbation")
    pname, computed = "", ""
    if pert is not None:
        _expect(pert, dict, f"{where}.name.perturbation", "an object or null")
        pname = _opt_str(pert.get("name"), f"{where}.name.perturbation.name")
        computed = _opt_str(pert.get("computed_on"), f"{where}.name.perturbation.computed_on")
    count = _num(item.get("count", 0), f"{where}.count", allow_none=False)
    total = _num(item.get("sum", 0), f"{where}.sum", allow_none=False)
    mean = _num(item.get("mean"), f"{where}.mean")
    if math.isnan(mean) and count > 0:
        mean = total / count
    return _Stat(mname, split, sub, pname, computed, count, total, _num(item.get("min"), f"{where}.min"),
                 _num(item.get("max"), f"{where}.max"), mean, _num(item.get("stddev"), f"{where}.stddev"))


_NUM = (int, float)


def _fast_stat(item: Any) -> _Stat | None:
    """The common case, a well-formed stat, without building error locations; None sends it to the checked
    path (`_parse_stat`), which names the problem. Same result as `_parse_stat` for every input it accepts."""
    if type(item) is not dict:
        return None
    name = item.get("name")
    if type(name) is not dict:
        return None
    mname, split, sub, pert = name.get("name"), name.get("split"), name.get("sub_split"), name.get("perturbation")
    if type(mname) is not str or (split is not None and type(split) is not str) or (
            sub is not None and type(sub) is not str):
        return None
    pname = computed = ""
    if pert is not None:
        if type(pert) is not dict:
            return None
        pname, computed = pert.get("name"), pert.get("computed_on")
        if (pname is not None and type(pname) is not str) or (computed is not None and type(computed) is not str):
            return None
        pname, computed = pname or "", computed or ""
    count, total = item.get("count", 0), item.get("sum", 0)
    mean, lo, hi, sd = item.get("mean"), item.get("min"), item.get("max"), item.get("stddev")
    for v in (count, total):
        if type(v) not in _NUM:
            return None
    for v in (mean, lo, hi, sd):
        if v is not None and type(v) not in _NUM:
            return None
    nan = math.nan
    mean = float(mean) if mean is not None else nan
    if mean != mean and count > 0:  # NaN
        mean = total / count
    return _Stat(mname, split or "", sub or "", pname, computed, float(count), float(total),
                 float(lo) if lo is not None else nan, float(hi) if hi is not None else nan, mean,
                 float(sd) if sd is not None else nan)


def _parse_stats(obj: Any, where: str) -> list[_Stat]:
    _expect(obj, list, where, "a list of stats")
    out = []
    for i, s in enumerate(obj):
        st = _fast_stat(s)
        out.append(st if st is not None else _parse_stat(s, f"{where}: stat {i + 1}"))
    return out


def _match(stats: Iterable[_Stat], name: str, split: str, perturbation: str = "") -> _Stat | None:
    for s in stats:
        if s.name != name or s.split != split or s.sub_split:
            continue
        if perturbation:
            if s.perturbation == perturbation and s.computed_on in ("", "worst"):
                return s
        elif not s.perturbation:
            return s
    return None


def _merge(stats: list[_Stat]) -> tuple[float, float, float, float]:
    """HELM's Stat.merge over runs: (mean, count, min, max); NaN mean when the merged count is 0."""
    stats = [s for s in stats if s.count > 0]
    if not stats:
        return (float("nan"),) * 4
    count = sum(s.count for s in stats)
    total = sum(s.sum for s in stats)
    mins = [s.min for s in stats if not math.isnan(s.min)]
    maxs = [s.max for s in stats if not math.isnan(s.max)]
    mean = total / count
    return (mean, count, min(mins) if mins else mean, max(maxs) if maxs else mean)


STAT_TEXT = ("name", "split", "sub_split", "perturbation", "computed_on")
STAT_NUMBERS = ("count", "sum", "min", "max", "mean", "stddev")
_NONE = type(None)


def _stat_columns(obj: Any, where: str, names: dict[str, str]) -> dict[str, Any]:
    """A stats.json as columns (text columns as lists of shared strings, numbers as arrays of doubles): the
    compact form kept for every stat of every run (`names` collects the distinct texts). Same values as
    `_parse_stats`; a file that is not the common well-formed shape goes through `_parse_stats`, which names
    the problem."""
    _expect(obj, list, where, "a list of stats")
    try:
        if obj and set(map(type, obj)) != {dict}:
            raise TypeError
        nm = [it["name"] for it in obj]
        if nm and set(map(type, nm)) != {dict}:
            raise TypeError
        text = {"name": [n.get("name") for n in nm], "split": [n.get("split") for n in nm],
                "sub_split": [n.get("sub_split") for n in nm]}
        pert = [n.get("perturbation") for n in nm]
        if not set(map(type, pert)) <= {dict, _NONE} or set(map(type, text["name"])) - {str}:
            raise TypeError
        text["perturbation"] = [p.get("name") if p is not None else None for p in pert]
        text["computed_on"] = [p.get("computed_on") if p is not None else None for p in pert]
        for k in STAT_TEXT[1:]:
            if not set(map(type, text[k])) <= {str, _NONE}:
                raise TypeError
        nums = {"count": [it.get("count", 0) for it in obj], "sum": [it.get("sum", 0) for it in obj]}
        for k in ("min", "max", "mean", "stddev"):
            nums[k] = [it.get(k) for it in obj]
        for k in ("count", "sum"):
            if not set(map(type, nums[k])) <= {int, float}:
                raise TypeError
        for k in ("min", "max", "mean", "stddev"):
            if not set(map(type, nums[k])) <= {int, float, _NONE}:
                raise TypeError
    except (TypeError, KeyError):
        stats = _parse_stats(obj, where)
        text = {k: [getattr(st, k) for st in stats] for k in STAT_TEXT}
        nums = {k: [getattr(st, k) for st in stats] for k in STAT_NUMBERS}
    nan = math.nan
    share = names.setdefault  # the same text in every run is one shared string
    out: dict[str, Any] = {k: [share(v, v) if v else "" for v in text[k]] for k in STAT_TEXT}
    for k in STAT_NUMBERS:
        vals = nums[k]
        out[k] = array("d", vals if None not in vals else [nan if v is None else v for v in vals])
    mean, count, total = out["mean"], out["count"], out["sum"]
    if None in nums["mean"] or any(m != m for m in mean):  # a NaN mean: sum / count, as _parse_stat
        for i, m in enumerate(mean):
            if m != m and count[i] > 0:
                mean[i] = total[i] / count[i]
    return out


def _stats_from_columns(cols: dict[str, Any], keep: Callable[[str], bool]) -> list[_Stat]:
    """The _Stat rows of the columns whose name `keep` accepts, in file order."""
    names = cols["name"]
    return [_Stat(names[i], cols["split"][i], cols["sub_split"][i], cols["perturbation"][i], cols["computed_on"][i],
                  cols["count"][i], cols["sum"][i], cols["min"][i], cols["max"][i], cols["mean"][i],
                  cols["stddev"][i]) for i in range(len(names)) if keep(names[i])]
