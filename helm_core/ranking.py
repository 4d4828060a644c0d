"""Head-to-head win rates, as HELM's summarize.py computes them.

Per column a model's win rate is the share of the *other* models with a value that it beats;
ties count half; lower-is-better columns are inverted; columns with fewer than two values or
no direction are skipped; a model's mean win rate is the mean over the columns where it has a value.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from .data import CORE_GROUPS, Release, select_models, strongly_contaminated

WIN_RATE_GROUPS: tuple[str, ...] = CORE_GROUPS + ("summarization_metrics",)


def _directions(lower_is_better, columns: pd.Index) -> list[object]:
    if isinstance(lower_is_better, pd.Series):
        lib = lower_is_better.reindex(columns)
        return [None if pd.isna(v) else bool(v) for v in lib]
    lib = list(lower_is_better)
    if len(lib) != len(columns):
        raise ValueError(f"lower_is_better has {len(lib)} entries for {len(columns)} columns")
    return [None if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA else bool(v) for v in lib]


def column_win_rates(table: pd.DataFrame, lower_is_better: pd.Series | Sequence[object]) -> pd.DataFrame:
    """Per-column win rates (same shape as `table`); NaN where a model has no value or the column is skipped."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError("table must be a DataFrame of models × columns")
    dirs = _directions(lower_is_better, table.columns)
    values = table.to_numpy(dtype=float, copy=True)
    keep = np.array([d is not None for d in dirs], dtype=bool)
    if values.size == 0 or not keep.any():
        return pd.DataFrame(np.nan, index=table.index, columns=table.columns)
    sign = np.array([(-1.0 if d else 1.0) if d is not None else 1.0 for d in dirs])
    oriented = values * sign  # higher is better everywhere now
    ranks = pd.DataFrame(oriented).rank(axis=0, method="average", na_option="keep").to_numpy()
    n = np.sum(~np.isnan(values), axis=0).astype(float)
    usable = keep & (n >= 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        wr = (ranks - 1.0) / (n - 1.0)
    wr[:, ~usable] = np.nan
    return pd.DataFrame(wr, index=table.index, columns=table.columns)


def win_rates(table: pd.DataFrame, lower_is_better: pd.Series | Sequence[object]) -> pd.Series:
    """Mean win rate per row (model) of a models × columns table; NaN for a model with no usable value."""
    per_col = column_win_rates(table, lower_is_better)
    return per_col.mean(axis=1, skipna=True).rename("win_rate")


def group_table(release: Release, group: str, exclude_contaminated: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """The models × (scenario, metric) table of one metric group and each column's direction."""
    res = release.results
    mask = res["metric_group"] == group
    if exclude_contaminated:
        mask &= ~strongly_contaminated(release)
    r = res[mask]
    cols = pd.MultiIndex.from_frame(r[["scenario", "metric"]].drop_duplicates())
    table = r.pivot_table(index="model", columns=["scenario", "metric"], values="value", aggfunc="first", dropna=False)
    table = table.reindex(index=release.model_names, columns=cols)
    lib = r.drop_duplicates(["scenario", "metric"]).set_index(["scenario", "metric"])["lower_is_better"]
    return table, lib.reindex(cols)


def group_win_rates(
    release: Release,
    models: Iterable[str] | None = None,
    groups: Sequence[str] = WIN_RATE_GROUPS,
    exclude_contaminated: bool = True,
) -> pd.DataFrame:
    """Models × metric groups mean win rates recomputed from the results.

    Cells HELM flags as strongly contaminated are left out (HELM does this since v0.2).
    With `models`, the win rates are computed among those models only.
    """
    rel = select_models(release, models) if models is not None else release
    out = {}
    for g in groups:
        if not (rel.results["metric_group"] == g).any():
            out[g] = pd.Series(np.nan, index=rel.model_names)
            continue
        table, lib = group_table(rel, g, exclude_contaminated)
        out[g] = win_rates(table, lib)
    df = pd.DataFrame(out, index=rel.model_names)
    df.index.name = "model"
    return df


def published_group_win_rates(release: Release) -> pd.DataFrame:
    """HELM's published per-group Mean win rate (models × groups); empty when the release has none."""
    p = release.published_win_rates
    if p is None or p.empty:
        return pd.DataFrame()
    t = p.pivot_table(index="model", columns="metric_group", values="win_rate", aggfunc="first", dropna=False)
    cols = [g for g in WIN_RATE_GROUPS if g in t.columns]
    t = t.reindex(index=[m for m in release.model_names if m in t.index], columns=cols)
    t.index.name = "model"
    return t


def shown_group_win_rates(release: Release, models: Iterable[str] | None = None) -> tuple[pd.DataFrame, str]:
    """The group win rates a page should show, and which kind they are.

    For a release that carries HELM's published win rates, and the full model set, those are shown
    (recomputing bias and toxicity from 3-decimal inputs creates ties HELM did not have).
    Otherwise (a sub-cohort, or loaded data) they are recomputed among the chosen models.
    """
    selected = list(models) if models is not None else release.model_names
    published = published_group_win_rates(release)
    if not published.empty and set(selected) == set(release.model_names) and len(published) == len(selected):
        return published.reindex(selected), "published"
    return group_win_rates(release, selected), "recomputed"
