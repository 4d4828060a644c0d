"""Evidence from the data for the critique pages (limits stepper, targeted studies). Pure pandas; no Streamlit.

Every function takes a Release and, where it makes sense, the models of the viewer's cohort, and returns a
tidy DataFrame (empty when the release lacks what is needed, so a page can say what is missing).
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from .data import CORE_GROUPS, GROUP_LABELS, STRONG_CONTAMINATION_MARK, Release, in_2022_paper, select_models
from .win_rates import group_win_rates

WEAK_CONTAMINATION_MARK = "⚠"
CONTAMINATION_LEVELS = {STRONG_CONTAMINATION_MARK: "strong", WEAK_CONTAMINATION_MARK: "weaker"}
# The paper's example of a large robustness drop (claim robustness_tracks_accuracy: 72.6% F1, 38.9% robustness),
# compared with the same cell in the release by `moving_target`.
MOVING_TARGET_EXAMPLE = {"model": "TNLG v2 (530B)", "scenario": "NarrativeQA", "claim": "robustness_tracks_accuracy",
                         "groups": ("accuracy", "robustness")}


def _subset(release: Release, models: Iterable[str] | None) -> Release:
    return select_models(release, models) if models is not None else release


# ----------------------------------------------------------------------------- blank cells


def blank_cells_by_group(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Per core metric group, how many model × scenario cells have a value, and why the others are blank:
    `by_design` (HELM's schema gives the scenario no such group) or `not_run` (the schema has it, the model has
    no value). Columns: metric_group, label, cells, measured, by_design, not_run, blank, blank_share."""
    rel = _subset(release, models)
    n_models = len(rel.models)
    scenarios = rel.taxonomy.scenario_names
    design = rel.taxonomy.design_grid
    res = rel.results[rel.results["value"].notna() & rel.results["metric_group"].isin(CORE_GROUPS)]
    measured = res.drop_duplicates(["model", "scenario", "metric_group"]).groupby("metric_group").size()
    rows = []
    for g in CORE_GROUPS:
        in_schema = set(design.loc[design["metric_group"].eq(g) & design["in_schema"], "scenario"])
        cells = n_models * len(scenarios)
        design_blank = n_models * sum(1 for s in scenarios if s not in in_schema)
        m = int(measured.get(g, 0))
        # a value in a cell the schema leaves out would count as measured, not as a design blank
        m_in_design = int(res[(res["metric_group"] == g) & res["scenario"].isin(in_schema)]
                          .drop_duplicates(["model", "scenario"]).shape[0])
        outside = m - m_in_design
        by_design = design_blank - outside
        not_run = cells - m - by_design
        rows.append({"metric_group": g, "label": GROUP_LABELS.get(g, g), "cells": cells, "measured": m,
                     "by_design": by_design, "not_run": not_run, "blank": cells - m,
                     "blank_share": (cells - m) / cells if cells else np.nan})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- model-set effect


def rival_sets(release: Release, model: str, cohort: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Named sets of rivals for `model`, each drawn from `cohort` and always including the model itself:
    the whole cohort, the 2022 paper's models (by HELM id in any release, helm_core.data.in_2022_paper), models with
    the same access level, models released up to the model's own release date. Empty sets and duplicates of an
    earlier set are left out."""
    cohort = [m for m in release.model_names if m in set(cohort)]
    info = release.models.set_index("model")
    if model not in info.index or model not in cohort:
        return {}
    me = info.loc[model]
    sub = info.loc[cohort]
    paper = in_2022_paper(release)
    candidates = {
        f"the whole cohort ({len(cohort)} models)": cohort,
        "the 2022 paper's models": [m for m in cohort if bool(paper.get(m, False))],
        f"models with {me['access']} access": sub.index[sub["access"] == me["access"]].tolist(),
    }
    dates = pd.to_datetime(sub["release_date"], errors="coerce")
    my_date = pd.to_datetime(me["release_date"], errors="coerce")
    if pd.notna(my_date):
        candidates[f"models released by {my_date.date().isoformat()}"] = sub.index[dates <= my_date].tolist()
    out: dict[str, tuple[str, ...]] = {}
    seen: set[frozenset] = set()
    for label, members in candidates.items():
        members = list(dict.fromkeys([*members, model]))
        key = frozenset(members)
        if len(members) < 2 or key in seen:
            continue
        seen.add(key)
        out[label] = tuple(m for m in cohort if m in key)
    return out


def model_set_effect(release: Release, model: str, cohort: Sequence[str], group: str = "accuracy") -> pd.DataFrame:
    """`model`'s mean win rate in one metric group, recomputed among each set of rivals of `rival_sets`.
    Columns: rivals, n_models, win_rate, rank (1 = best among models with a win rate), ranked (how many have one).
    Empty when the model is not in the cohort or the group is missing."""
    cols = ["rivals", "n_models", "win_rate", "rank", "ranked"]
    if not (release.results["metric_group"] == group).any():
        return pd.DataFrame(columns=cols)
    rows = []
    for label, members in rival_sets(release, model, cohort).items():
        wr = group_win_rates(release, members, groups=(group,))[group].dropna()
        if model not in wr.index:
            continue
        rank = int((wr > wr[model]).sum()) + 1
        rows.append({"rivals": label, "n_models": len(members), "win_rate": float(wr[model]),
                     "rank": rank, "ranked": int(len(wr))})
    return pd.DataFrame(rows, columns=cols)


# ----------------------------------------------------------------------------- seed spread


def seed_ranges(release: Release, models: Iterable[str] | None = None, top: int = 10) -> pd.DataFrame:
    """The accuracy cells with the widest min–max range over HELM's in-context-example seeds.

    Only cells whose runs are exactly the seeds are used: `n_runs` equals the cell's "# trials" and is at least 2
    (a cell that also averages subjects or subsets, as MMLU or CivilComments do, has more runs than seeds, and its
    min/max would mix the two). Columns: model, scenario, metric, seeds, min, mean, max, range; widest first."""
    rel = _subset(release, models)
    res = rel.results
    acc = res[(res["metric_group"] == "accuracy") & res["value"].notna()]
    trials = res[res["metric"] == "# trials"].set_index(["model", "scenario"])["value"]
    acc = acc.join(trials.rename("trials"), on=["model", "scenario"])
    ok = acc["n_runs"].ge(2) & np.isclose(acc["n_runs"], acc["trials"]) & acc["run_min"].notna() & acc["run_max"].notna()
    out = acc[ok].assign(range=lambda d: d["run_max"] - d["run_min"])
    out = out.rename(columns={"run_min": "min", "value": "mean", "run_max": "max", "n_runs": "seeds"})
    out = out.sort_values(["range", "model", "scenario"], ascending=[False, True, True]).head(max(int(top), 0))
    out["seeds"] = out["seeds"].astype(int)
    return out[["model", "scenario", "metric", "seeds", "min", "mean", "max", "range"]].reset_index(drop=True)


# ----------------------------------------------------------------------------- contamination


def contamination_cells(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """The (model, scenario) cells HELM flags in its tables: ☠ strong (the model was trained on that dataset;
    left out of win rates) and ⚠ weaker (a small reported overlap). One row per cell, with the main accuracy value.
    Columns: model, scenario, level, mark, metric, accuracy, in_win_rates, note; strong first."""
    cols = ["model", "scenario", "level", "mark", "metric", "accuracy", "in_win_rates", "note"]
    rel = _subset(release, models)
    res = rel.results
    note = res["note"].fillna("").astype(str).str.strip()
    flagged = res.assign(note=note)[note.str[:1].isin(list(CONTAMINATION_LEVELS))]
    if flagged.empty:
        return pd.DataFrame(columns=cols)
    # strongest mark per cell (a cell is flagged on all its metrics)
    flagged = flagged.assign(mark=flagged["note"].str[:1],
                             strength=flagged["note"].str[:1].eq(STRONG_CONTAMINATION_MARK).astype(int))
    cells = (flagged.sort_values("strength", ascending=False)
             .drop_duplicates(["model", "scenario"])[["model", "scenario", "mark", "note"]])
    acc = res[res["metric_group"] == "accuracy"].drop_duplicates(["model", "scenario"])
    acc = acc.set_index(["model", "scenario"])[["metric", "value"]]
    cells = cells.join(acc, on=["model", "scenario"]).rename(columns={"value": "accuracy"})
    cells["level"] = cells["mark"].map(CONTAMINATION_LEVELS)
    cells["in_win_rates"] = cells["mark"] != STRONG_CONTAMINATION_MARK
    cells["note"] = cells["note"].str[1:].str.strip()
    order = {m: i for i, m in enumerate(rel.model_names)}
    scen = {s: i for i, s in enumerate(rel.taxonomy.scenario_names)}
    cells = cells.assign(_s=cells["mark"].ne(STRONG_CONTAMINATION_MARK), _m=cells["model"].map(order),
                         _c=cells["scenario"].map(scen)).sort_values(["_s", "_m", "_c"])
    return cells[cols].reset_index(drop=True)


def contamination_counts(cells: pd.DataFrame) -> dict[str, int]:
    """Counts for a `contamination_cells` frame: cells and models per level."""
    out = {}
    for level in CONTAMINATION_LEVELS.values():
        part = cells[cells["level"] == level] if not cells.empty else cells
        out[f"{level}_cells"] = int(len(part))
        out[f"{level}_models"] = int(part["model"].nunique()) if len(part) else 0
    return out


# ----------------------------------------------------------------------------- moving targets


def moving_target(release: Release, model: str, scenario: str, paper_values: Sequence[float],
                  groups: Sequence[str] = ("accuracy", "robustness"), models: Iterable[str] | None = None) -> pd.DataFrame:
    """The paper's numbers for one cell beside this release's, in percent.

    `paper_values` are the paper's values (in %), one per metric group in `groups`. With `models`, the model
    must be among them (the viewer's cohort). Columns: metric_group, metric, paper, release, difference
    (release − paper, percentage points). Empty when the model or scenario is not in the release or cohort."""
    cols = ["metric_group", "metric", "paper", "release", "difference"]
    if len(paper_values) != len(groups):
        raise ValueError(f"{len(paper_values)} paper values for {len(groups)} metric groups")
    if models is not None and model not in set(models):
        return pd.DataFrame(columns=cols)
    res = release.results
    rows = []
    for g, p in zip(groups, paper_values):
        r = res[(res["model"] == model) & (res["scenario"] == scenario) & (res["metric_group"] == g)]
        if r.empty:
            continue
        v = r["value"].iloc[0]
        rel = float(v) * 100 if pd.notna(v) else np.nan
        rows.append({"metric_group": g, "metric": r["metric"].iloc[0], "paper": float(p), "release": rel,
                     "difference": rel - float(p)})
    return pd.DataFrame(rows, columns=cols)


# ----------------------------------------------------------------------------- targeted studies


def core_cells(release: Release, model: str, scenario: str,
               groups: Sequence[str] = ("accuracy", "robustness", "fairness"),
               models: Iterable[str] | None = None) -> pd.DataFrame:
    """What the core grid holds for one model and scenario: per metric group the value HELM shows and the
    spread of the runs averaged into it. Columns: metric_group, metric, value, run_min, run_max, n_runs."""
    cols = ["metric_group", "metric", "value", "run_min", "run_max", "n_runs"]
    if models is not None and model not in set(models):
        return pd.DataFrame(columns=cols)
    res = release.results
    r = res[(res["model"] == model) & (res["scenario"] == scenario) & res["metric_group"].isin(list(groups))]
    r = r.drop_duplicates("metric_group").set_index("metric_group").reindex([g for g in groups if g in set(r["metric_group"])])
    return r.reset_index()[cols]


def top_models(release: Release, scenarios: Sequence[str], models: Iterable[str] | None = None, n: int = 3) -> pd.DataFrame:
    """The best `n` models per scenario on the main accuracy metric (HELM's value), among `models`.
    Scenarios the release does not hold, or whose metric has no direction (nothing is best), are skipped.
    Columns: scenario, rank, model, metric, value."""
    cols = ["scenario", "rank", "model", "metric", "value"]
    rel = _subset(release, models)
    res = rel.results
    acc = res[(res["metric_group"] == "accuracy") & res["scenario"].isin(list(scenarios)) & res["value"].notna()]
    acc = acc.drop_duplicates(["model", "scenario"])
    rows = []
    for s in scenarios:
        part = acc[acc["scenario"] == s]
        if part.empty:
            continue
        direction = part["lower_is_better"].dropna()
        if direction.empty:
            continue
        lower = bool(direction.iloc[0])
        part = part.sort_values(["value", "model"], ascending=[lower, True]).head(max(int(n), 0))
        for i, (_, r) in enumerate(part.iterrows(), start=1):
            rows.append({"scenario": s, "rank": i, "model": r["model"], "metric": r["metric"], "value": float(r["value"])})
    return pd.DataFrame(rows, columns=cols)
