"""HELM's `stats.json`: Stat objects (name, split, sub_split, perturbation, count, sum, min, max, mean) and
HELM's `Stat.merge` over runs."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from .fields import _expect, _num, _opt_str

# ----------------------------------------------------------------------------- stats


@dataclass(frozen=True)
class _Stat:
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


def _parse_stats(obj: Any, where: str) -> list[_Stat]:
    _expect(obj, list, where, "a list of stats")
    return [_parse_stat(s, f"{where}: stat {i + 1}") for i, s in enumerate(obj)]


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
