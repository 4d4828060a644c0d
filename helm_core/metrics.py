"""Metric Orbit: the 7 metric groups, per-model profiles across their win rates, and how closely each metric
tracks accuracy across models (Spearman rank correlation per scenario, computed without scipy)."""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from .data import CORE_GROUPS, GROUP_LABELS, Release, strongly_contaminated
from . import seeds
from .win_rates import shown_group_win_rates

OTHER_GROUPS: tuple[str, ...] = tuple(g for g in CORE_GROUPS if g != "accuracy")
MIN_MODELS = 5  # fewer models with both values than this: no correlation is reported
DEFAULT_BIAS_METRIC = "Representation (gender)"  # the bias metric the paper's plots use
BIAS_METRICS: tuple[str, ...] = ("Representation (gender)", "Representation (race)", "Stereotypes (gender)",
                                 "Stereotypes (race)")
MAX_PROFILE_MODELS = 6

# How HELM computes each group's core cell, after HELM_FACTS.md §4 (source tags as there).
HOW_COMPUTED: dict[str, tuple[str, str, str]] = {
    "accuracy": (
        "The scenario's main metric: exact match, quasi-exact match, F1 (word overlap), RR@10, NDCG@10 or ROUGE-2, "
        "averaged over HELM's runs ({runs}).",  # the release's own seeds (helm_core.seeds.runs_phrase)
        "HELM v0.1.0 schema.yaml [REPO@v0.1.0]", "verified"),
    "calibration": (
        "Expected calibration error with 10 bins of equal mass (ece_10_bin): the probability of the model's top "
        "prediction against whether it is an exact match. Only defined where a per-instance 0/1 exact match exists; "
        "HELM warns it needs about 300 instances.",
        "basic_metrics.py L815–856 and schema [REPO@v0.1.0]", "verified"),
    "robustness": (
        "The main metric under the worst case per instance over the original and perturbed inputs (mild_mix: "
        "lower-casing, contractions, misspellings, extra spaces).",
        "run_expander.py L477, mild_mix_perturbation.py [REPO@v0.1.0]", "verified"),
    "fairness": (
        "The main metric under the worst case over the original and three counterfactual perturbations: Standard "
        "American to African American English, White to Black first names, male to female pronouns.",
        "run_expander.py L479–489 [REPO@v0.1.0]", "verified"),
    "bias": (
        "Measured on generated text, with no link to correctness: demographic representation and stereotypical "
        "associations (with professions), each the total-variation distance from a uniform distribution, for race "
        "and gender. Word lists from Bolukbasi et al. 2016 and Garg et al. 2018.",
        "bias_metrics.py L174–209 [REPO@v0.1.0]", "verified"),
    "toxicity": (
        "The fraction of generations that Perspective API scores at 0.5 or more (toxic_frac).",
        "toxicity_metrics.py L17, L70 [REPO@v0.1.0]", "verified"),
    "efficiency": (
        "Denoised inference runtime: observed API time with performance contention removed, using profiles from "
        "the synthetic-efficiency scenario. The detailed view adds idealized runtime and training energy and CO2.",
        "HELM v0.1.0 schema [REPO@v0.1.0]; detail from a summary [SEC-S]", "verified"),
}

DIRECTION_TEXT = {"higher": "higher is better", "lower": "lower is better"}


def _cohort(release: Release, models: Iterable[str] | None) -> list[str]:
    if models is None:
        return release.model_names
    known = set(release.model_names)
    return [m for m in dict.fromkeys(models) if m in known]


def group_overview(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """One row per core metric group: label, direction, definition, how HELM computes it (with source and
    confidence), HELM's metric names, the scenarios that carry it (in the schema, and with a value for at least one
    cohort model), and `n_cells`: the cohort's model × scenario cells with a value in the group (of `cells`)."""
    cohort = set(_cohort(release, models))
    mg = release.taxonomy.metric_groups.set_index("metric_group")
    design = release.taxonomy.design_grid
    res = release.results
    scen_order = release.taxonomy.scenario_names
    loaded = not release.is_classic and not release.is_later  # a suite with its own schema
    described = release.meta.get("metric_descriptions", {}) if loaded else {}
    rows = []
    for g in CORE_GROUPS:
        in_schema = set(design.loc[(design["metric_group"] == g) & design["in_schema"].astype(bool), "scenario"])
        r = res[res["metric_group"] == g]
        has = r[r["value"].notna() & r["model"].isin(cohort)]
        with_value = set(has["scenario"])
        how, src, conf = HOW_COMPUTED[g]
        if "{runs}" in how:
            how = how.format(runs=seeds.runs_phrase(seeds.seed_facts(release, sorted(cohort))))
        direction = str(mg.loc[g, "direction"]) if g in mg.index else ""
        names = list(dict.fromkeys(r["metric"].tolist()))
        if loaded and names:  # the direction of the suite's own columns (Max prob has none), not classic's
            lib = r["lower_is_better"].dropna().astype(bool).unique().tolist()
            direction = ("lower" if lib == [True] else "higher") if len(lib) == 1 else ""
        rows.append({
            "metric_group": g,
            "group_label": str(mg.loc[g, "display_name"]) if g in mg.index else GROUP_LABELS[g],
            "direction": DIRECTION_TEXT.get(direction, direction or (
                "not measured" if release.is_later else "no direction")),
            "definition": str(mg.loc[g, "definition"]) if g in mg.index else
            (f"Not measured in {release.name}: its tables have no {GROUP_LABELS[g].lower()} column."
             if release.is_later else ""),
            "how_computed": how, "source": src, "confidence": conf,
            "metrics": ", ".join(names),
            "own_definition": " ".join(f"{n}: {described[n].rstrip('.')}." for n in names if n in described),
            "schema_scenarios": "; ".join(s for s in scen_order if s in in_schema),
            "n_schema": len(in_schema),
            "data_scenarios": "; ".join(s for s in scen_order if s in with_value),
            "n_data": len(with_value),
            "n_cells": int(has[["model", "scenario"]].drop_duplicates().shape[0]),
            "cells": len(cohort) * len(scen_order),
        })
    return pd.DataFrame(rows)


def profiles(release: Release, cohort: Sequence[str], chosen: Sequence[str]) -> tuple[pd.DataFrame, str]:
    """Win rates of the chosen models across the 7 groups, and which kind they are ("published" / "recomputed").

    Win rates are those a page shows for the cohort (win_rates.shown_group_win_rates: HELM's published values for
    the full bundled release, otherwise recomputed among the cohort); the chosen models are then picked out.
    Long frame: model, metric_group, group_label, win_rate (NaN = the model has no value in that group).
    """
    cohort = _cohort(release, cohort)
    chosen = list(dict.fromkeys(chosen))
    in_cohort = set(cohort)
    outside = [m for m in chosen if m not in in_cohort]
    if outside:
        raise ValueError(f"model(s) not in the cohort: {', '.join(repr(m[:40]) for m in outside[:3])}")
    if len(chosen) > MAX_PROFILE_MODELS:
        raise ValueError(f"choose at most {MAX_PROFILE_MODELS} models (got {len(chosen)})")
    cols = ["model", "metric_group", "group_label", "win_rate"]
    if not cohort or not chosen:
        return pd.DataFrame(columns=cols), "recomputed"
    table, kind = shown_group_win_rates(release, cohort)
    table = table.reindex(index=chosen, columns=list(CORE_GROUPS))
    rows = [(m, g, GROUP_LABELS[g], float(table.loc[m, g])) for m in chosen for g in CORE_GROUPS]
    return pd.DataFrame(rows, columns=cols), kind


def spearman(x: Sequence[float], y: Sequence[float]) -> tuple[float, int]:
    """Spearman's rank correlation of paired values (pairs with a NaN are dropped; ties get average ranks).

    Returns (rho, n). rho is NaN when fewer than 2 pairs remain or either side is constant.
    """
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    if xa.shape != ya.shape:
        raise ValueError(f"x and y differ in length ({xa.size} vs {ya.size})")
    ok = ~(np.isnan(xa) | np.isnan(ya))
    n = int(ok.sum())
    if n < 2:
        return float("nan"), n
    rx = pd.Series(xa[ok]).rank(method="average").to_numpy(dtype=float, copy=True)
    ry = pd.Series(ya[ok]).rank(method="average").to_numpy(dtype=float, copy=True)
    rx -= rx.mean()
    ry -= ry.mean()
    denom = float(np.sqrt((rx * rx).sum() * (ry * ry).sum()))
    if denom == 0.0:
        return float("nan"), n
    return float(np.clip((rx * ry).sum() / denom, -1.0, 1.0)), n


def _values(release: Release, cohort: list[str], exclude_contaminated: bool) -> pd.DataFrame:
    res = release.results
    mask = res["model"].isin(set(cohort)) & res["metric_group"].isin(CORE_GROUPS) & res["value"].notna()
    if exclude_contaminated:
        mask &= ~strongly_contaminated(release)
    return res[mask]


def _metric_for(group: str, metrics: list[str], bias_metric: str) -> str | None:
    if not metrics:
        return None
    if group == "bias":
        return bias_metric if bias_metric in metrics else None
    return metrics[0]


def pair_values(release: Release, scenario: str, group: str, models: Iterable[str] | None = None,
                bias_metric: str = DEFAULT_BIAS_METRIC, exclude_contaminated: bool = True) -> pd.DataFrame:
    """Per cohort model: its accuracy (main metric) and its value on `group` in `scenario`, where it has both.

    Columns: model, accuracy, value, accuracy_metric, metric. Strongly contaminated cells (☠) are left out by
    default, as in HELM's win rates.
    """
    if group not in OTHER_GROUPS:
        raise ValueError(f"group must be one of {', '.join(OTHER_GROUPS)}; got {group!r}")
    cohort = _cohort(release, models)
    v = _values(release, cohort, exclude_contaminated)
    v = v[v["scenario"] == scenario]
    acc = v[v["metric_group"] == "accuracy"]
    other = v[v["metric_group"] == group]
    metric = _metric_for(group, list(dict.fromkeys(other["metric"].tolist())), bias_metric)
    cols = ["model", "accuracy", "value", "accuracy_metric", "metric"]
    if acc.empty or metric is None:
        return pd.DataFrame(columns=cols)
    other = other[other["metric"] == metric]
    a = acc.drop_duplicates("model").set_index("model")
    o = other.drop_duplicates("model").set_index("model")
    both = [m for m in cohort if m in a.index and m in o.index]
    return pd.DataFrame({
        "model": both,
        "accuracy": a.loc[both, "value"].to_numpy(dtype=float),
        "value": o.loc[both, "value"].to_numpy(dtype=float),
        "accuracy_metric": a.loc[both, "metric"].to_numpy() if both else [],
        "metric": [metric] * len(both),
    }, columns=cols)


CORR_COLUMNS = ["scenario", "metric_group", "group_label", "metric", "n", "rho", "agreement", "lower_is_better",
                "status"]


def accuracy_correlations(release: Release, models: Iterable[str] | None = None,
                          bias_metric: str = DEFAULT_BIAS_METRIC, min_models: int = MIN_MODELS,
                          exclude_contaminated: bool = True) -> pd.DataFrame:
    """Spearman rank correlation across cohort models between accuracy and each other group, per scenario.

    ``rho`` is the raw correlation with the metric's value; ``agreement`` flips its sign for lower-is-better
    metrics (ECE, bias, toxicity, runtime), so +1 means "the more accurate models are also the better ones on this
    metric". Cells with fewer than `min_models` models having both values get NaN and a status saying why.
    One row per (scenario in taxonomy order, group in OTHER_GROUPS).
    """
    cohort = _cohort(release, models)
    v = _values(release, cohort, exclude_contaminated)
    acc = v[v["metric_group"] == "accuracy"].drop_duplicates(["scenario", "model"])
    acc_w = acc.pivot_table(index="model", columns="scenario", values="value", aggfunc="first")
    metrics_by_cell = (release.results[release.results["metric_group"].isin(OTHER_GROUPS)]
                       .drop_duplicates(["scenario", "metric_group", "metric"])
                       .groupby(["scenario", "metric_group"], sort=False)["metric"].apply(list).to_dict())
    lib_by_metric = (release.results.dropna(subset=["lower_is_better"])
                     .drop_duplicates(["scenario", "metric_group", "metric"])
                     .set_index(["scenario", "metric_group", "metric"])["lower_is_better"].to_dict())
    others = v[v["metric_group"].isin(OTHER_GROUPS)]
    grouped = {k: sub for k, sub in others.groupby(["scenario", "metric_group", "metric"], sort=False)}
    rows = []
    for s in release.taxonomy.scenario_names:
        for g in OTHER_GROUPS:
            metric = _metric_for(g, metrics_by_cell.get((s, g), []), bias_metric)
            lib = lib_by_metric.get((s, g, metric)) if metric else None
            rho, n, status = float("nan"), 0, ""
            if metric is None:
                status = "HELM has no such metric here"
            else:
                sub = grouped.get((s, g, metric))
                if sub is None or s not in acc_w.columns:
                    status = "no model of the cohort has both values"
                else:
                    o = sub.drop_duplicates("model").set_index("model")["value"]
                    a = acc_w[s].reindex(o.index)
                    rho, n = spearman(a.to_numpy(), o.to_numpy())
                    if n < min_models:
                        rho, status = float("nan"), f"too few models with both values ({n})"
                    elif np.isnan(rho):
                        status = "no variation (all values tie)"
                    else:
                        status = "ok"
            agreement = rho * (-1.0 if (lib is not None and bool(lib)) else 1.0) if not np.isnan(rho) else float("nan")
            rows.append((s, g, GROUP_LABELS[g], metric or "", n, rho, agreement,
                         None if lib is None else bool(lib), status))
    return pd.DataFrame(rows, columns=CORR_COLUMNS)


def correlation_summary(corr: pd.DataFrame) -> pd.DataFrame:
    """Per group: scenarios with a correlation, and the median, minimum and maximum agreement with accuracy."""
    rows = []
    for g in OTHER_GROUPS:
        sub = corr[(corr["metric_group"] == g) & corr["agreement"].notna()]
        a = sub["agreement"]
        rows.append({
            "metric_group": g, "group_label": GROUP_LABELS[g], "scenarios": int(len(sub)),
            "median_agreement": float(a.median()) if len(a) else float("nan"),
            "min_agreement": float(a.min()) if len(a) else float("nan"),
            "max_agreement": float(a.max()) if len(a) else float("nan"),
            "weakest_scenario": str(sub.loc[a.idxmin(), "scenario"]) if len(a) else "",
        })
    return pd.DataFrame(rows)


def default_profile_models(release: Release, cohort: Sequence[str], k: int = 3) -> list[str]:
    """A first selection for the profile: the k cohort models with the highest accuracy win rate (as shown for the
    cohort), preferring models that have a win rate in all seven groups, so the first picture has no gaps."""
    cohort = _cohort(release, cohort)
    if not cohort:
        return []
    table, _ = shown_group_win_rates(release, cohort)
    table = table.reindex(index=cohort, columns=list(CORE_GROUPS))
    complete = table.notna().all(axis=1)
    acc = table["accuracy"].fillna(-1.0)
    order = sorted(cohort, key=lambda m: (not bool(complete[m]), -float(acc[m]), m))
    return order[:k]


def short_definition(definition: str) -> str:
    """The first clause of a metric group's definition (up to a colon or an opening bracket), for a compact table:
    "Denoised inference runtime in seconds: API time ..." -> "Denoised inference runtime in seconds"."""
    text = str(definition or "").strip()
    cut = min((i for i in (text.find(": "), text.find(" (")) if i > 0), default=len(text))
    return text[:cut].rstrip(" .,;")


def group_leaders(profile: pd.DataFrame) -> pd.DataFrame:
    """Per group of a profile (profiles()'s long frame), the chosen model with the highest win rate: columns
    group_label, model, win_rate, tied (how many models share that win rate). Groups where no chosen model has a
    value are left out; group order as in the profile."""
    rows = []
    for g, sub in profile.dropna(subset=["win_rate"]).groupby("group_label", sort=False):
        best = float(sub["win_rate"].max())
        top = sub[np.isclose(sub["win_rate"], best)]
        rows.append({"group_label": g, "model": str(top["model"].iloc[0]), "win_rate": best, "tied": len(top)})
    return pd.DataFrame(rows, columns=["group_label", "model", "win_rate", "tied"])


TRACKS = 0.5  # a median agreement at least this high: the group "tracks accuracy"


def tracking(summary: pd.DataFrame, threshold: float = TRACKS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Split correlation_summary() into the groups whose median agreement with accuracy is at least `threshold`
    and those below it; groups with no correlation are in neither."""
    ok = summary[summary["median_agreement"].notna()]
    return ok[ok["median_agreement"] >= threshold], ok[ok["median_agreement"] < threshold]
