"""Capability against cost, harm and size: one tidy row per model, and the Pareto front.

capability: the accuracy group's mean win rate (HELM's published values for the full bundled model set,
            recomputed otherwise; see win_rates.shown_group_win_rates) or the mean of the scenarios' main
            accuracy metric;
cost:       mean inference time (HELM's efficiency cell, seconds per request: denoised in classic,
            observed in Lite and in a helm-summarize suite; cost_label names it);
harm:       mean toxic fraction, or a bias metric (HELM's "Representation (gender)", as in the paper's plots),
            or the share of head-to-head toxicity comparisons lost (1 − toxicity win rate);
size:       parameters, with sizes HELM marks as speculative and undisclosed sizes flagged.

Means over scenarios use *comparable ground* where there is enough of it: the scenarios every measured
model in the set has. With fewer than `MIN_SHARED` such scenarios each model's own measured scenarios are
used and the basis says so, because averaging different scenarios compares different things.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
import pandas as pd

from .data import Release, select_models
from .win_rates import shown_group_win_rates

MIN_SHARED = 3

CAPABILITY_MEASURES: dict[str, str] = {
    "win_rate": "Accuracy win rate",
    "mean_accuracy": "Mean accuracy (main metric)",
}
COST_MEASURES: dict[str, str] = {
    "runtime": "Mean inference time (s)",  # cost_label names the release's own metric
    "params": "Parameters",
}
# token -> (metric group, metric or None for a win rate, label)
HARM_MEASURES: dict[str, tuple[str, str | None, str]] = {
    "toxic_frac": ("toxicity", "Toxic fraction", "Mean toxic fraction"),
    "gender_repr": ("bias", "Representation (gender)", "Gender representation bias"),
    "toxic_losses": ("toxicity", None, "Toxicity comparisons lost (1 − win rate)"),
}


def efficiency_metrics(release: Release) -> list[str]:
    """The efficiency metric names the release has values for, as its schema names them (classic: "Denoised
    inference time (s)"; Lite or a helm-summarize suite: "Observed inference time (s)")."""
    r = release.results
    r = r[(r["metric_group"] == "efficiency") & r["value"].notna()]
    return list(dict.fromkeys(r["metric"]))


def cost_label(release: Release, cost: str) -> str:
    """The y axis title for a cost measure, naming the release's own efficiency metric: "Mean observed inference
    time (s)" for a suite whose schema says so, never classic's "denoised" unless the data is denoised."""
    if cost != "runtime":
        return COST_MEASURES[cost]
    names = efficiency_metrics(release)
    if len(names) == 1:
        return "Mean " + names[0][:1].lower() + names[0][1:]
    if names:
        return "Mean inference time (s): " + ", ".join(names)
    return "Mean inference time (s)"


@dataclass(frozen=True)
class Frontier:
    """The per-model frame and how its columns were computed."""

    frame: pd.DataFrame  # one row per model (see frontier_frame)
    capability: str  # token of CAPABILITY_MEASURES
    capability_kind: str  # "published" / "recomputed" win rates, or "mean accuracy"
    harm: str  # token of HARM_MEASURES
    cost_basis: str  # "shared" or "own"
    cost_scenarios: tuple[str, ...]  # the shared scenarios when cost_basis == "shared"
    harm_basis: str
    harm_scenarios: tuple[str, ...]
    capability_basis: str
    capability_scenarios: tuple[str, ...]


def _metric_table(release: Release, group: str, metric: str | None = None) -> pd.DataFrame:
    r = release.results
    r = r[r["metric_group"] == group]
    if metric is not None:
        r = r[r["metric"] == metric]
    t = r.pivot_table(index="model", columns="scenario", values="value", aggfunc="first", dropna=False)
    cols = [s for s in release.taxonomy.scenario_names if s in t.columns]
    return t.reindex(index=release.model_names, columns=cols)


def shared_mean(table: pd.DataFrame, min_shared: int = MIN_SHARED) -> tuple[pd.Series, pd.Series, str, tuple[str, ...]]:
    """Mean per row over the columns every row with any value has (basis "shared"); with fewer than
    `min_shared` such columns, over each row's own columns (basis "own").
    Returns (mean, number of columns used per row, basis, shared columns)."""
    has_any = table.notna().any(axis=1)
    measured = table[has_any]
    shared = tuple(c for c in table.columns if len(measured) and measured[c].notna().all())
    if len(shared) >= min_shared:
        sub = table[list(shared)]
        mean = sub.mean(axis=1, skipna=False).where(has_any)
        n = sub.notna().sum(axis=1).where(has_any, 0)
        return mean, n.astype(int), "shared", shared
    return table.mean(axis=1, skipna=True), table.notna().sum(axis=1).astype(int), "own", shared


def frontier_frame(release: Release, models: Iterable[str] | None = None, capability: str = "win_rate",
                   harm: str = "toxic_frac") -> Frontier:
    """One row per model: capability, cost (runtime), harm, size and what is missing.

    Columns: model, organization, access, paper_cohort, capability, runtime_s, n_runtime, harm, n_harm, params,
    params_speculative, size_disclosed, runtime_note, size_note.
    """
    if capability not in CAPABILITY_MEASURES:
        raise ValueError(f"unknown capability measure {capability!r}; expected one of {', '.join(CAPABILITY_MEASURES)}")
    if harm not in HARM_MEASURES:
        raise ValueError(f"unknown harm measure {harm!r}; expected one of {', '.join(HARM_MEASURES)}")
    selected = list(dict.fromkeys(models)) if models is not None else release.model_names
    rel = select_models(release, selected) if models is not None else release
    meta = rel.models.set_index("model")
    names = rel.model_names

    need_wr = capability == "win_rate" or HARM_MEASURES[harm][1] is None
    wr, kind = shown_group_win_rates(release, names) if need_wr else (pd.DataFrame(index=names), "")
    if capability == "win_rate":
        cap = wr["accuracy"] if "accuracy" in wr.columns else pd.Series(np.nan, index=names)
        cap_kind, cap_basis, cap_scen = kind, "win rate", ()
        cap = cap.reindex(names)
    else:
        cap, _, cap_basis, cap_scen = shared_mean(_metric_table(rel, "accuracy"))
        cap_kind = "mean accuracy"

    runtime, n_rt, rt_basis, rt_scen = shared_mean(_metric_table(rel, "efficiency"))

    group, metric, _ = HARM_MEASURES[harm]
    if metric is None:
        tox = wr[group] if group in wr.columns else pd.Series(np.nan, index=names)
        harm_v = 1.0 - tox.reindex(names)
        n_harm = harm_v.notna().astype(int)
        h_basis, h_scen = "win rate", ()
    else:
        harm_v, n_harm, h_basis, h_scen = shared_mean(_metric_table(rel, group, metric))

    params = meta["params"].reindex(names).astype(float)
    spec = meta["params_speculative"].reindex(names).fillna(False).astype(bool) \
        if "params_speculative" in meta.columns else pd.Series(False, index=names)
    paper = meta["paper_cohort"].reindex(names).fillna(False).astype(bool)
    has_rt = runtime.notna()
    any_eff = _metric_table(rel, "efficiency").notna().any(axis=1)
    runtime_note = pd.Series("", index=names, dtype=object)
    runtime_note[~any_eff] = "every efficiency cell is blank in this release"
    runtime_note[any_eff & ~has_rt] = "no runtime on the shared scenarios"
    runtime_note[~any_eff & ~paper] = "every efficiency cell is blank in this release; added after the 2022 paper"
    size_note = pd.Series("", index=names, dtype=object)
    size_note[params.isna()] = "size not disclosed"
    size_note[spec & params.notna()] = "size speculative (HELM marks it *)"

    frame = pd.DataFrame(
        {
            "model": names,
            "organization": meta["organization"].reindex(names).to_numpy(),
            "access": meta["access"].reindex(names).to_numpy(),
            "paper_cohort": paper.to_numpy(),
            "capability": cap.reindex(names).to_numpy(dtype=float),
            "runtime_s": runtime.reindex(names).to_numpy(dtype=float),
            "n_runtime": n_rt.reindex(names).to_numpy(dtype=int),
            "harm": harm_v.reindex(names).to_numpy(dtype=float),
            "n_harm": n_harm.reindex(names).to_numpy(dtype=int),
            "params": params.to_numpy(),
            "params_speculative": spec.to_numpy(),
            "size_disclosed": params.notna().to_numpy(),
            "runtime_note": runtime_note.to_numpy(),
            "size_note": size_note.to_numpy(),
        }
    )
    return Frontier(frame=frame, capability=capability, capability_kind=cap_kind, harm=harm,
                    cost_basis=rt_basis, cost_scenarios=rt_scen, harm_basis=h_basis, harm_scenarios=h_scen,
                    capability_basis=cap_basis, capability_scenarios=cap_scen)


COST_COLUMNS = {"runtime": "runtime_s", "params": "params"}
# What the band below a capability × cost chart holds: models with a capability value but no cost value.
BAND_LABELS = {"runtime_s": "no runtime in HELM", "params": "size undisclosed"}


def pareto_front(frame: pd.DataFrame, x: str = "capability", y: str = "runtime_s",
                 maximize_x: bool = True, minimize_y: bool = True) -> pd.Series:
    """True for the rows no other row dominates (at least as good on both x and y, better on one).
    "Good" is more x and less y by default. Rows with a missing x or y are never on the front."""
    for c in (x, y):
        if c not in frame.columns:
            raise ValueError(f"column {c!r} is not in the frame (columns: {', '.join(map(str, frame.columns))})")
    xv = frame[x].to_numpy(dtype=float) * (1.0 if maximize_x else -1.0)
    yv = frame[y].to_numpy(dtype=float) * (1.0 if minimize_y else -1.0)
    ok = ~(np.isnan(xv) | np.isnan(yv))
    front = np.zeros(len(frame), dtype=bool)
    if ok.any():
        xo, yo = xv[ok], yv[ok]
        # dom[i, j]: row i dominates row j
        dom = (xo[:, None] >= xo[None, :]) & (yo[:, None] <= yo[None, :]) & \
              ((xo[:, None] > xo[None, :]) | (yo[:, None] < yo[None, :]))
        front[np.flatnonzero(ok)] = ~dom.any(axis=0)
    return pd.Series(front, index=frame.index, name="pareto")


def left_out(frame: pd.DataFrame, cost: str = "runtime") -> pd.DataFrame:
    """The models a capability × cost chart cannot place, and why (model, reason)."""
    if cost not in COST_COLUMNS:
        raise ValueError(f"unknown cost measure {cost!r}; expected one of {', '.join(COST_COLUMNS)}")
    col = COST_COLUMNS[cost]
    rows = []
    for r in frame.itertuples(index=False):
        reasons = []
        if np.isnan(r.capability):
            reasons.append("no capability value")
        if np.isnan(getattr(r, col)):
            reasons.append(r.runtime_note if cost == "runtime" else r.size_note)
        if reasons:
            rows.append({"model": r.model, "access": r.access, "reason": "; ".join(x for x in reasons if x)})
    return pd.DataFrame(rows, columns=["model", "access", "reason"])


# ----------------------------------------------------------------------------- checks of the paper's claims


def _spearman(a: pd.Series, b: pd.Series) -> float:
    ok = a.notna() & b.notna()
    if ok.sum() < 3:
        return float("nan")
    ra, rb = a[ok].rank(), b[ok].rank()
    if ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def scale_counterexamples(frame: pd.DataFrame, win_rate_above: float = 0.55,
                          params_below: float = 50e9) -> pd.DataFrame:
    """Models with capability above `win_rate_above` and a disclosed size below `params_below`
    (the paper's finding 25 says there are none among its models)."""
    f = frame[(frame["capability"] > win_rate_above) & frame["params"].notna() & (frame["params"] < params_below)]
    return f[["model", "capability", "params", "params_speculative", "paper_cohort"]] \
        .sort_values("capability", ascending=False).reset_index(drop=True)


def best_by_access(frame: pd.DataFrame) -> pd.DataFrame:
    """The most capable model of each access level and its rank on capability among all models."""
    f = frame[frame["capability"].notna()].copy()
    f["rank"] = f["capability"].rank(ascending=False, method="min")
    rows = []
    for level, g in f.groupby("access", sort=False):
        top = g.sort_values(["capability", "model"], ascending=[False, True]).iloc[0]
        rows.append({"access": level, "model": top["model"], "capability": float(top["capability"]),
                     "rank": int(top["rank"]), "models": len(g)})
    return pd.DataFrame(rows, columns=["access", "model", "capability", "rank", "models"]) \
        .sort_values("rank").reset_index(drop=True)


def tradeoff(frame: pd.DataFrame, min_models: int = 3) -> tuple[float, int, pd.DataFrame]:
    """Rank correlation of capability with runtime over all models with both, and within each organization
    (a rough stand-in for a model family) with at least `min_models` such models: params vs capability and
    params vs runtime. Returns (overall rho, n, per-organization frame)."""
    f = frame[frame["capability"].notna() & frame["runtime_s"].notna()]
    overall = _spearman(f["capability"], f["runtime_s"])
    rows = []
    for org, g in f.groupby("organization", sort=True):
        g = g[g["params"].notna()]
        if len(g) < min_models:
            continue
        rows.append({"organization": org, "models": len(g),
                     "rho_params_capability": _spearman(g["params"], g["capability"]),
                     "rho_params_runtime": _spearman(g["params"], g["runtime_s"])})
    cols = ["organization", "models", "rho_params_capability", "rho_params_runtime"]
    return overall, len(f), pd.DataFrame(rows, columns=cols)


# ----------------------------------------------------------------------------- one bundle per page state


@dataclass(frozen=True)
class CostView:
    """What the Capability vs Cost page shows for one cohort and choice of axes."""

    frontier: Frontier  # frame gains a boolean 'pareto' column (for the chosen cost)
    cost: str  # token of COST_MEASURES
    y: str  # the frame column used as cost
    left_out: pd.DataFrame  # model, access, reason
    scale_check: pd.DataFrame  # scale_counterexamples on the accuracy win rate
    access_check: pd.DataFrame  # best_by_access on the accuracy win rate
    tradeoff_rho: float  # rank correlation of accuracy win rate with runtime
    tradeoff_n: int
    tradeoff_orgs: pd.DataFrame
    win_rate_kind: str  # kind of the accuracy win rates used by the checks


def cost_view(release: Release, models: Iterable[str] | None = None, capability: str = "win_rate",
              harm: str = "toxic_frac", cost: str = "runtime") -> CostView:
    if cost not in COST_COLUMNS:
        raise ValueError(f"unknown cost measure {cost!r}; expected one of {', '.join(COST_COLUMNS)}")
    fr = frontier_frame(release, models, capability, harm)
    y = COST_COLUMNS[cost]
    frame = fr.frame.copy()
    frame["pareto"] = pareto_front(frame, "capability", y).to_numpy()
    fr = Frontier(**{**fr.__dict__, "frame": frame})
    wr = fr if capability == "win_rate" else frontier_frame(release, models, "win_rate", harm)
    rho, n, orgs = tradeoff(wr.frame)
    return CostView(frontier=fr, cost=cost, y=y, left_out=left_out(frame, cost),
                    scale_check=scale_counterexamples(wr.frame), access_check=best_by_access(wr.frame),
                    tradeoff_rho=rho, tradeoff_n=n, tradeoff_orgs=orgs, win_rate_kind=wr.capability_kind)
