"""Head-to-head win rates, as HELM's summarize.py computes them, and how they depend on the field of models.

Per column a model's win rate is the share of the *other* models with a value that it beats;
ties count half; lower-is-better columns are inverted; columns with fewer than two values or
no direction are skipped; a model's mean win rate is the mean over the columns where it has a value.
Also here: the per-group tables these are computed from, HELM's published win rates and which of the two
a page shows, and the effect of the model set (`model_set_effect`, `rival_sets`): win rates are relative.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .data import CORE_GROUPS, Release, in_2022_paper, select_models, strongly_contaminated

WIN_RATE_GROUPS: tuple[str, ...] = CORE_GROUPS + ("summarization_metrics",)


def _directions(lower_is_better, columns: pd.Index) -> list[object]:
    """One direction per column: from a Series or any mapping keyed by column (a column it lacks has no
    direction, so it is skipped), or from a sequence in column order. Anything else is a TypeError: a dict
    is not read as a sequence of its keys, nor a string as a sequence of characters."""
    if isinstance(lower_is_better, pd.Series):
        lib = lower_is_better.reindex(columns)
        return [None if pd.isna(v) else bool(v) for v in lib]
    if isinstance(lower_is_better, Mapping):
        lib = [lower_is_better.get(c) for c in columns]
        return [None if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA else bool(v) for v in lib]
    if not isinstance(lower_is_better, (list, tuple, np.ndarray, pd.Index, pd.api.extensions.ExtensionArray)):
        raise TypeError("lower_is_better must be a Series or mapping keyed by column, or a list in column order; "
                        f"got {type(lower_is_better).__name__}")
    lib = list(lower_is_better)
    if len(lib) != len(columns):
        raise ValueError(f"lower_is_better has {len(lib)} entries for {len(columns)} columns")
    return [None if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA else bool(v) for v in lib]


def column_win_rates(table: pd.DataFrame,
                     lower_is_better: pd.Series | Mapping[object, object] | Sequence[object]) -> pd.DataFrame:
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


def win_rates(table: pd.DataFrame,
              lower_is_better: pd.Series | Mapping[object, object] | Sequence[object]) -> pd.Series:
    """Mean win rate per row (model) of a models × columns table; NaN for a model with no usable value."""
    per_col = column_win_rates(table, lower_is_better)
    return per_col.mean(axis=1, skipna=True).rename("win_rate")


def group_table(release: Release, group: str, exclude_contaminated: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """The models × (scenario, metric) table of one metric group and each column's direction.

    Rows follow release.models, columns the order in which (scenario, metric) first appears in the results.
    Where a (model, scenario, metric) appears more than once, the first value that is not blank is kept.
    """
    res = release.results
    mask = (res["metric_group"] == group).to_numpy()
    if exclude_contaminated:
        mask = mask & ~strongly_contaminated(release).to_numpy()
    r = res[mask]
    pairs = r[["scenario", "metric"]]
    first = ~pairs.duplicated()
    cols = pd.MultiIndex.from_frame(pairs[first].reset_index(drop=True))
    lib = pd.Series(r["lower_is_better"].to_numpy()[first.to_numpy()], index=cols, name="lower_is_better")
    models = release.model_names
    values = np.full((len(models), len(cols)), np.nan)
    if len(r):
        row = pd.Index(models).get_indexer(r["model"])
        col = cols.get_indexer(pd.MultiIndex.from_frame(pairs))
        v = r["value"].to_numpy(dtype=float)
        ok = (row >= 0) & ~np.isnan(v)
        # Assign in reverse so the first non-blank value of a duplicated cell wins.
        values[row[ok][::-1], col[ok][::-1]] = v[ok][::-1]
    table = pd.DataFrame(values, index=pd.Index(models, name="model"), columns=cols)
    return table, lib


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
    present = set(p["metric_group"])
    cols = [g for g in WIN_RATE_GROUPS if g in present]
    listed = set(p["model"])
    rows = [m for m in release.model_names if m in listed]
    values = np.full((len(rows), len(cols)), np.nan)
    r = pd.Index(rows).get_indexer(p["model"])
    c = pd.Index(cols).get_indexer(p["metric_group"])
    v = pd.to_numeric(p["win_rate"], errors="coerce").to_numpy(dtype=float)
    ok = (r >= 0) & (c >= 0) & ~np.isnan(v)
    # first non-blank value per (model, group) wins, as pivot_table(aggfunc="first") did
    values[r[ok][::-1], c[ok][::-1]] = v[ok][::-1]
    t = pd.DataFrame(values, index=pd.Index(rows, name="model"), columns=pd.Index(cols, name="metric_group"))
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


# ----------------------------------------------------------------------------- the model set matters


def model_set_effect(
    release: Release,
    models: Iterable[str],
    target: str,
    removed: Iterable[str],
    groups: Sequence[str] = CORE_GROUPS,
) -> pd.DataFrame:
    """A model's win rates among `models`, and among `models` without the rivals in `removed`.

    Win rates are relative: the same scores give a different win rate against a different field.
    Both sides are recomputed from the results (like with like). One row per group:
    win_rate_with, win_rate_without, change, rank_with, rank_without, n_with, n_without.
    """
    models = list(dict.fromkeys(models))
    if target not in models:
        raise ValueError(f"{target!r} is not among the chosen models")
    drop = {m for m in removed if m != target}
    rest = [m for m in models if m not in drop]
    a = group_win_rates(release, models, groups)
    b = group_win_rates(release, rest, groups)
    rows = []
    for g in groups:
        wa = a[g] if g in a.columns else pd.Series(dtype=float)
        wb = b[g] if g in b.columns else pd.Series(dtype=float)
        va = float(wa.get(target, np.nan))
        vb = float(wb.get(target, np.nan))
        rows.append(
            {
                "metric_group": g,
                "win_rate_with": va,
                "win_rate_without": vb,
                "change": vb - va,
                "rank_with": float(wa.rank(ascending=False, method="min").get(target, np.nan)),
                "rank_without": float(wb.rank(ascending=False, method="min").get(target, np.nan)),
                "n_with": int(wa.notna().sum()),
                "n_without": int(wb.notna().sum()),
            }
        )
    return pd.DataFrame(rows)


RIVAL_SETS: dict[str, str] = {
    "newer": "models added after the 2022 paper",
    "stronger": "models with a higher accuracy win rate",
    "weaker": "models with a lower accuracy win rate",
}


def rival_sets(release: Release, models: Iterable[str], target: str) -> dict[str, list[str]]:
    """Ready-made sets of rivals to remove in `model_set_effect`: the models that are not among the 2022 paper's
    (by HELM id in any release: Lite's GPT-3.5 (text-davinci-002) is the paper's model, not a newer one), and the
    models above / below `target` on accuracy win rate (recomputed among `models`)."""
    models = list(dict.fromkeys(models))
    if target not in models:
        raise ValueError(f"{target!r} is not among the chosen models")
    acc = group_win_rates(release, models, ("accuracy",))["accuracy"]
    t = acc.get(target, np.nan)
    others = [m for m in models if m != target]
    paper = in_2022_paper(release).reindex(others).fillna(False).astype(bool)
    return {
        "newer": [m for m in others if not paper[m]],
        "stronger": [m for m in others if pd.notna(t) and pd.notna(acc[m]) and acc[m] > t],
        "weaker": [m for m in others if pd.notna(t) and pd.notna(acc[m]) and acc[m] < t],
    }
