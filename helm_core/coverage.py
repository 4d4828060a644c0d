"""Which (model, scenario) pairs HELM measured, and the ground models share.

"Measured" means the scenario's main accuracy metric has a value. Comparable ground for a set of models is
the scenarios where every one of them has a value (DESIGN.md §4).
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from .data import Release, main_metric_table, select_models


def coverage_matrix(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Models × scenarios booleans: True where the main accuracy metric has a value."""
    rel = select_models(release, models) if models is not None else release
    return main_metric_table(rel, "accuracy").notna()


def coverage_rate(release: Release, models: Iterable[str] | None = None) -> float:
    """Share of (model, scenario) cells with a main-metric value; NaN for an empty cohort."""
    m = coverage_matrix(release, models)
    return float(m.to_numpy().mean()) if m.size else float("nan")


def _check_models(release: Release, models: Sequence[str]) -> list[str]:
    models = list(dict.fromkeys(models))
    known = set(release.model_names)
    unknown = [m for m in models if m not in known]
    if unknown:
        shown = ", ".join(repr(m[:40]) for m in unknown[:3])
        raise ValueError(f"unknown model(s) {shown}: not in {release.name}")
    return models


def comparable_ground(release: Release, models: Sequence[str]) -> list[str]:
    """The scenarios (in taxonomy order) where every one of `models` has a main-metric value.

    With no model every scenario is (vacuously) shared. Unknown model names raise ValueError.
    """
    models = _check_models(release, models)
    scen = release.taxonomy.scenario_names
    if not models:
        return list(scen)
    m = coverage_matrix(release).reindex(index=models)
    shared = m.all(axis=0)
    return [s for s in scen if bool(shared.get(s, False))]


def shared_ground_curve(release: Release, models: Sequence[str]) -> pd.DataFrame:
    """How the shared ground shrinks as models are added in the given order.

    One row per step: ``step`` (number of models so far, starting at 0 = no model), ``model`` added,
    ``shared`` (scenarios every model so far has), ``lost`` (scenarios dropped at this step, joined by "; ").
    """
    models = _check_models(release, models)
    scen = release.taxonomy.scenario_names
    cov = coverage_matrix(release)
    current = set(scen)
    rows = [{"step": 0, "model": "(no model yet)", "shared": len(current), "lost": ""}]
    for i, m in enumerate(models, start=1):
        has = {s for s in scen if bool(cov.loc[m, s])}
        lost = [s for s in scen if s in current and s not in has]
        current &= has
        rows.append({"step": i, "model": m, "shared": len(current), "lost": "; ".join(lost)})
    return pd.DataFrame(rows)


def pairwise_overlap(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Models × models: the number of scenarios both have a value on (the diagonal is a model's own count)."""
    m = coverage_matrix(release, models)
    a = m.to_numpy(dtype=np.int64)
    out = pd.DataFrame(a @ a.T, index=m.index, columns=m.index)
    out.index.name = "model"
    out.columns.name = "other"
    return out


def model_coverage(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Per model: scenarios measured, out of how many, the share, which are missing, and the model's metadata
    (release date, whether it is in the 2022 paper's cohort). Sorted by share (descending), then name."""
    rel = select_models(release, models) if models is not None else release
    m = coverage_matrix(rel)
    scen = list(m.columns)
    total = len(scen)
    meta = rel.models.set_index("model")
    rows = []
    for model, row in m.iterrows():
        miss = [s for s in scen if not bool(row[s])]
        rows.append({
            "model": model,
            "measured": total - len(miss),
            "total": total,
            "share": (total - len(miss)) / total if total else float("nan"),
            "missing": "; ".join(miss),
            "release_date": meta.loc[model, "release_date"] if model in meta.index else "",
            "paper_cohort": bool(meta.loc[model, "paper_cohort"]) if model in meta.index else False,
        })
    out = pd.DataFrame(rows, columns=["model", "measured", "total", "share", "missing", "release_date",
                                      "paper_cohort"])
    return out.sort_values(["share", "model"], ascending=[False, True], kind="mergesort").reset_index(drop=True)


COHORT_LABELS = {True: "in the 2022 paper's cohort", False: "added after the paper"}


def scenario_coverage(release: Release, models: Iterable[str] | None = None, split: bool = True) -> pd.DataFrame:
    """Per scenario (taxonomy order): models with a value, out of how many, and the share.

    With ``split`` the models of HELM classic are split into the 2022 paper's cohort and those added later (only
    groups that have models appear), which shows HellaSwag, OpenbookQA and MS MARCO thinning for newer models.
    Any other release (a later one, a loaded suite) is not split: the paper's cohort is a classic notion.
    Columns: scenario, group, measured, total, share.
    """
    rel = select_models(release, models) if models is not None else release
    m = coverage_matrix(rel)
    scen = list(m.columns)
    if split and release.is_classic:
        cohort = rel.models.set_index("model")["paper_cohort"].reindex(m.index).fillna(False).astype(bool)
        groups = [(COHORT_LABELS[flag], m[cohort.to_numpy() == flag]) for flag in (True, False)]
    else:
        groups = [("all models", m)]
    rows = []
    for label, sub in groups:
        if sub.empty:
            continue
        for s in scen:
            k = int(sub[s].sum())
            rows.append({"scenario": s, "group": label, "measured": k, "total": len(sub), "share": k / len(sub)})
    return pd.DataFrame(rows, columns=["scenario", "group", "measured", "total", "share"])


def coverage_summary(release: Release, cohorts: dict[str, Sequence[str]]) -> pd.DataFrame:
    """Coverage rate for named cohorts: name, models, cells, measured cells, rate (NaN for an empty cohort)."""
    rows = []
    n_scen = len(release.taxonomy.scenario_names)
    for name, models in cohorts.items():
        m = coverage_matrix(release, models)
        cells = int(m.size)
        k = int(m.to_numpy().sum())
        rows.append({"cohort": name, "models": int(m.shape[0]), "scenarios": n_scen, "cells": cells,
                     "measured": k, "rate": k / cells if cells else float("nan")})
    return pd.DataFrame(rows, columns=["cohort", "models", "scenarios", "cells", "measured", "rate"])


def overlap_pairs(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Every unordered pair of models with the number of scenarios both have a value on, fewest first.

    Columns: model_a, model_b, shared, total (scenarios in the release)."""
    ov = pairwise_overlap(release, models)
    names = list(ov.index)
    a = ov.to_numpy()
    iu, ju = np.triu_indices(len(names), k=1)
    out = pd.DataFrame({
        "model_a": [names[i] for i in iu], "model_b": [names[j] for j in ju],
        "shared": a[iu, ju].astype(int), "total": len(release.taxonomy.scenario_names),
    })
    return out.sort_values(["shared", "model_a", "model_b"], kind="mergesort").reset_index(drop=True)


def coverage_by_group(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Coverage of the 2022 paper's cohort and of the models added after it (HELM classic only: the paper's cohort is
    a classic notion; any other release is one group, "all models"), for the models given.

    Columns: group, models, complete (models with every scenario), cells, measured, rate. Groups with no model are
    left out."""
    mc = model_coverage(release, models)
    if release.is_classic:
        groups = [(COHORT_LABELS[flag], mc[mc["paper_cohort"] == flag]) for flag in (True, False)]
    else:
        groups = [("all models", mc)]
    rows = []
    for label, sub in groups:
        if sub.empty:
            continue
        cells = int(sub["total"].sum())
        k = int(sub["measured"].sum())
        rows.append({"group": label, "models": len(sub), "complete": int((sub["measured"] == sub["total"]).sum()),
                     "cells": cells, "measured": k, "rate": k / cells if cells else float("nan")})
    return pd.DataFrame(rows, columns=["group", "models", "complete", "cells", "measured", "rate"])


def coverage_counts(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """How many models were measured on how many scenarios, split like coverage_by_group: one row per (scenarios
    measured, group) with the number of models and their names ("; "-joined, release order). Fewest scenarios
    first."""
    mc = model_coverage(release, models)
    cols = ["measured", "total", "group", "n_models", "models"]
    if mc.empty:
        return pd.DataFrame(columns=cols)
    order = {m: i for i, m in enumerate(release.model_names)}
    mc = mc.assign(group=mc["paper_cohort"].map(COHORT_LABELS) if release.is_classic else "all models",
                   _o=mc["model"].map(order))
    rows = []
    for (measured, group), sub in mc.sort_values("_o").groupby(["measured", "group"], sort=True):
        rows.append({"measured": int(measured), "total": int(sub["total"].iloc[0]), "group": group,
                     "n_models": len(sub), "models": "; ".join(sub["model"])})
    return pd.DataFrame(rows, columns=cols)


def date_rank_correlation(release: Release, models: Iterable[str] | None = None) -> tuple[float, int]:
    """Spearman rank correlation between a model's release date (HELM metadata) and the scenarios it was measured
    on, over the models with a date: (rho, n); rho is NaN below 3 models or when either side is constant."""
    from .metrics import spearman

    mc = model_coverage(release, models)
    dates = pd.to_datetime(mc["release_date"], errors="coerce")
    ok = dates.notna()
    if int(ok.sum()) < 3:
        return float("nan"), int(ok.sum())
    days = (dates[ok] - dates[ok].min()).dt.days.to_numpy(dtype=float)
    return spearman(days, mc.loc[ok, "measured"].to_numpy(dtype=float))


def overlap_counts(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """How many pairs of models share how many scenarios (from overlap_pairs): columns shared, pairs, total."""
    pairs = overlap_pairs(release, models)
    if pairs.empty:
        return pd.DataFrame(columns=["shared", "pairs", "total"])
    out = pairs.groupby("shared").size().rename("pairs").reset_index()
    out["total"] = len(release.taxonomy.scenario_names)
    return out
