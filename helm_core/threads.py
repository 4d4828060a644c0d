"""The number each related thread (data/threads.toml) rests on, computed from a release and a cohort. Pure pandas.

A thread names the kind of number it rests on (`number = "<kind>"`, one of NUMBER_KINDS); `thread_number` computes
it for the loaded release and the viewer's models, as one short phrase with its figures, or None when the release
holds nothing to compute it from (say, no robustness group in a later release).
"""
from __future__ import annotations

from typing import Iterable

from . import fmt
from .data import Release, select_models
from .limits_evidence import blank_cells_by_group, seed_ranges
from .metrics import accuracy_correlations, correlation_summary

NUMBER_KINDS: dict[str, str] = {
    "robustness_accuracy": "how closely robustness tracks accuracy: the median rank correlation over the scenarios",
    "seed_spread": "the widest range of one cell over HELM's in-context-example seeds",
    "harm_blanks": "the share of bias and toxicity cells that hold no value",
    "efficiency_models": "how many models of the cohort have an efficiency value",
}


def _robustness_accuracy(release: Release, models: list[str]) -> str | None:
    summary = correlation_summary(accuracy_correlations(release, models)).set_index("metric_group")
    if "robustness" not in summary.index or int(summary.loc["robustness", "scenarios"]) == 0:
        return None
    r = summary.loc["robustness"]
    return (f"median rank correlation {fmt.value(r['median_agreement'], 2)} between robustness and accuracy over "
            f"{fmt.count(int(r['scenarios']), 'scenario')}")


def _seed_spread(release: Release, models: list[str]) -> str | None:
    top = seed_ranges(release, models, top=1)
    if top.empty:
        return None
    r = top.iloc[0]
    return (f"{fmt.value(r['min'])} to {fmt.value(r['max'])} {r['metric']} over {fmt.count(int(r['seeds']), 'seed')}: "
            f"{r['model']} on {r['scenario']}")


def _harm_blanks(release: Release, models: list[str]) -> str | None:
    df = blank_cells_by_group(release, models).set_index("metric_group")
    parts = [(df.loc[g, "label"].lower(), fmt.share(df.loc[g, "blank_share"], 0)) for g in ("bias", "toxicity")
             if g in df.index and df.loc[g, "cells"] > 0]
    if not parts:
        return None
    (first, share), rest = parts[0], parts[1:]
    return (f"{first} blank in {share}" + "".join(f" and {g} in {v}" for g, v in rest)
            + " of the model × scenario cells")


def _efficiency_models(release: Release, models: list[str]) -> str | None:
    res = release.results
    have = res.loc[(res["metric_group"] == "efficiency") & res["value"].notna(), "model"].nunique()
    n = len(release.models)
    if n == 0:
        return None
    return f"{fmt.count(int(have))} of {fmt.count(n, 'model')} have an efficiency value"


_COMPUTE = {"robustness_accuracy": _robustness_accuracy, "seed_spread": _seed_spread, "harm_blanks": _harm_blanks,
            "efficiency_models": _efficiency_models}


def thread_number(release: Release, models: Iterable[str] | None, kind: str) -> str | None:
    """The number a thread rests on (`kind`, one of NUMBER_KINDS), computed for `release` restricted to `models`:
    a short phrase with its figures, or None when the release and cohort hold nothing to compute it from.
    Raises KeyError for an unknown kind."""
    fn = _COMPUTE[kind]
    rel = select_models(release, models) if models is not None else release
    if len(rel.models) == 0:
        return None
    return fn(rel, list(rel.model_names))
