"""Headline counts and the 'same exam' matrix of the plumbing page."""
from __future__ import annotations

from typing import Iterable

import pandas as pd

from .data import CORE_GROUPS, Release, main_metric_table, select_models


def headline_counts(release: Release, models: Iterable[str] | None = None) -> dict[str, int]:
    """Counts computed from the data: models, organizations, scenarios, metric groups, cells with and
    without values (all metrics, and the core model × scenario × group cells)."""
    rel = select_models(release, models) if models is not None else release
    res = rel.results
    core = res[res["metric_group"].isin(CORE_GROUPS) & res["value"].notna()]
    # A (model, scenario, group) cell is measured when any of its metrics has a value; the grid is
    # every model × scenario × core group, whether or not HELM's tables have a column for it.
    measured = int(core[["model", "scenario", "metric_group"]].drop_duplicates().shape[0])
    total = int(rel.models.shape[0] * len(rel.taxonomy.scenario_names) * len(CORE_GROUPS))
    return {
        "models": int(rel.models.shape[0]),
        "organizations": int(rel.models["organization"].nunique()),
        "scenarios": int(len(rel.taxonomy.scenario_names)),
        "metric_groups": int(len(CORE_GROUPS)),
        "metric_groups_measured": int(core["metric_group"].nunique()),
        "values": int(res["value"].notna().sum()),
        "blank_values": int(res["value"].isna().sum()),
        "core_cells": total,
        "core_cells_measured": measured,
        "core_cells_blank": total - measured,
    }


def exam_matrix(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Long frame for the 'same exam' dot matrix: one row per (model, scenario) with the main metric,
    its value (NaN = blank) and whether it is measured."""
    rel = select_models(release, models) if models is not None else release
    table = main_metric_table(rel, "accuracy")
    long = table.reset_index(names="model").melt(id_vars="model", var_name="scenario", value_name="value")
    metric = (
        rel.results[rel.results["metric_group"] == "accuracy"]
        .drop_duplicates("scenario")
        .set_index("scenario")["metric"]
    )
    long["metric"] = long["scenario"].map(metric).fillna("")
    long["measured"] = long["value"].notna()
    return long
