"""Prompt sensitivity: how far a model's main metric moves across HELM's in-context-example seeds.

HELM runs most core scenarios with 3 training trials (seeds): each seed fixes one set of in-context
examples for every test instance. The results table keeps, per (model, scenario), the mean of the main
metric and the min and max over the runs behind the cell (`run_min`, `run_max`, `n_runs`), and the
general-information metric '# trials' gives the number of seeds per run (a mean over runs).

Careful: `n_runs` counts runs, not seeds. MMLU has 5 subjects × seeds, RAFT 11 sub-tasks × seeds,
CivilComments demographic splits × seeds, so their min and max are over sub-tasks as well as seeds. The spread
is over seeds alone only when the number of runs equals the number of trials (and is above 1). Each row is
labelled with its `kind`:

- "seeds":  min/max over seeds only (n_runs == # trials > 1);
- "runs":   min/max over several runs (sub-tasks, subjects or settings, each with its seeds), not seeds alone;
- "single": one run with one seed, so there is no spread;
- "unknown": the release does not say how many runs, or how many seeds per run, are behind the value.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from .data import Release, select_models

TRIALS_METRIC = "# trials"
KINDS: dict[str, str] = {
    "seeds": "min and max over the in-context-example seeds",
    "runs": "min and max over several runs (sub-tasks or subjects, each with its seeds), not over seeds alone",
    "single": "one run with one seed: no spread",
    "unknown": "the release does not say how many runs, or seeds per run, are behind the value",
}
SPREAD_COLUMNS = ["model", "metric", "mean", "min", "max", "range", "n_runs", "n_trials", "kind",
                  "rank_mean", "rank_best", "rank_worst"]


def _lower_is_better(rows: pd.DataFrame) -> bool | None:
    """The main metric's direction; None when the release gives it none (then no model ranks best or worst)."""
    v = rows["lower_is_better"].dropna()
    return bool(v.iloc[0]) if len(v) else None


def _kind(n_runs: float, trials: float) -> str:
    if not np.isfinite(n_runs):
        return "unknown"
    if round(n_runs) <= 1:
        return "single"
    if not np.isfinite(trials):
        return "unknown"  # several runs, but the release does not say how many seeds each had
    if abs(trials - round(trials)) < 1e-9 and round(trials) > 1 and round(n_runs) == round(trials):
        return "seeds"
    return "runs"


def _accuracy_and_trials(release: Release) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The main-metric rows with a value, and the seeds per run (model, scenario, value).

    Seeds per run: the '# trials' column where the release has one; for a loaded suite without it, its runs'
    own num_train_trials (meta "run_trials"). A run that carries its trials inside (per-trial values of the main
    metric from per_instance_stats.json, meta "trial_values") while its stats.json holds a single value gets its
    min and max over those trials (n_runs = the trials)."""
    res = release.results
    grp = res["metric_group"]
    acc = res[(grp == "accuracy") & res["value"].notna()]
    trials = res.loc[(grp == "general_information") & (res["metric"] == TRIALS_METRIC), ["model", "scenario", "value"]]
    meta = release.meta if isinstance(release.meta, dict) else {}
    runs = meta.get("run_trials")
    if isinstance(runs, pd.DataFrame) and len(runs):
        have = set(zip(trials.loc[trials["value"].notna(), "model"], trials.loc[trials["value"].notna(), "scenario"]))
        own = runs[[(m, s) not in have for m, s in zip(runs["model"], runs["scenario"])]]
        trials = pd.concat([trials.dropna(subset=["value"]),
                            own[["model", "scenario"]].assign(value=own["trials"].astype(float))], ignore_index=True)
    inside = meta.get("trial_values")
    if isinstance(inside, pd.DataFrame) and len(inside) and len(acc):
        per = inside.groupby(["model", "scenario"]).agg(lo=("value", "min"), hi=("value", "max"),
                                                         n=("trial", "nunique"), runs=("run", "nunique"))
        per = per[(per["runs"] == 1) & (per["n"] > 1)]
        key = pd.MultiIndex.from_frame(acc[["model", "scenario"]])
        hit = key.isin(per.index) & ~(acc["n_runs"].to_numpy(float) > 1)
        if hit.any():
            acc = acc.copy()
            got = per.reindex(key[hit])
            acc.loc[hit, "run_min"] = got["lo"].to_numpy()
            acc.loc[hit, "run_max"] = got["hi"].to_numpy()
            acc.loc[hit, "n_runs"] = got["n"].to_numpy(float)
    return acc, trials


def _spread(acc: pd.DataFrame, trials: pd.Series) -> pd.DataFrame:
    acc = acc.drop_duplicates("model")
    if acc.empty:
        return pd.DataFrame({c: pd.Series(dtype=object if c in ("model", "metric", "kind") else float)
                             for c in SPREAD_COLUMNS})
    lower = _lower_is_better(acc)
    higher_better = not lower
    mean = acc["value"].to_numpy(float)
    lo = acc["run_min"].to_numpy(float)
    hi = acc["run_max"].to_numpy(float)
    n_runs = acc["n_runs"].to_numpy(float)
    # A value without min/max (e.g. a loaded release that lacks them) is a single point.
    lo = np.where(np.isfinite(lo), lo, mean)
    hi = np.where(np.isfinite(hi), hi, mean)
    # The cell text is rounded to 3 decimals: keep min <= mean <= max exactly.
    lo = np.minimum(lo, mean)
    hi = np.maximum(hi, mean)
    n_trials = acc["model"].map(trials).to_numpy(float)
    kinds = np.array([_kind(r, t) for r, t in zip(n_runs, n_trials)], dtype=object)
    best = hi if higher_better else lo
    worst = lo if higher_better else hi
    out = pd.DataFrame({
        "model": acc["model"].to_numpy(), "metric": acc["metric"].to_numpy(), "mean": mean, "min": lo, "max": hi,
        "range": hi - lo, "n_runs": n_runs, "n_trials": n_trials, "kind": kinds,
    })
    order_vals = -mean if higher_better else mean
    out["rank_mean"] = pd.Series(order_vals).rank(method="min").to_numpy()
    # Rank of one value against every *other* model's mean: 1 + the number of other means strictly better.
    s_mean = np.sort(mean)
    if higher_better:
        better_b = len(mean) - np.searchsorted(s_mean, best, side="right")
        better_w = len(mean) - np.searchsorted(s_mean, worst, side="right")
        # the model's own mean is counted when it is strictly better than the value; take it out again
        self_b, self_w = mean > best, mean > worst
    else:
        better_b = np.searchsorted(s_mean, best, side="left")
        better_w = np.searchsorted(s_mean, worst, side="left")
        self_b, self_w = mean < best, mean < worst
    rb = 1 + better_b - self_b.astype(int)
    rw = 1 + better_w - self_w.astype(int)
    seedlike = np.isin(kinds, ["seeds", "single"])
    out["rank_best"] = np.where(seedlike, rb, np.nan)
    out["rank_worst"] = np.where(seedlike, rw, np.nan)
    if lower is None:  # the metric has no direction: nothing ranks best or worst
        out[["rank_mean", "rank_best", "rank_worst"]] = np.nan
        return out.sort_values(["mean", "model"], ascending=[False, True]).reset_index(drop=True)[SPREAD_COLUMNS]
    return out.sort_values(["rank_mean", "model"]).reset_index(drop=True)[SPREAD_COLUMNS]


def seed_spread(release: Release, scenario: str, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Per model with a value on `scenario`: the main metric's `mean`, `min`, `max` and `range` over the runs
    behind HELM's cell, `n_runs`, `n_trials` (seeds per run), the `kind` of spread (see module doc), and ranks
    (1 = best): `rank_mean` among all listed models by mean; `rank_best` / `rank_worst`: the model's rank if
    it alone had been reported with its best / worst seed while every other model keeps its mean (only for
    kind "seeds" and "single"; NaN where min/max are not over seeds). Sorted by mean, best first."""
    rel = select_models(release, models) if models is not None else release
    acc, trials = _accuracy_and_trials(rel)
    t = trials[trials["scenario"] == scenario].drop_duplicates("model").set_index("model")["value"]
    return _spread(acc[acc["scenario"] == scenario], t)


SORTS = ("mean", "spread")


def order_spread(spread: pd.DataFrame, sort: str) -> pd.DataFrame:
    """seed_spread rows in display order: by mean (best first, ties by name), or by spread (widest range first,
    ties by the better mean). Raises ValueError for another `sort`."""
    if sort == "mean":
        return spread.sort_values(["mean", "model"], ascending=[False, True], kind="mergesort")
    if sort == "spread":
        return spread.sort_values(["range", "mean", "model"], ascending=[False, False, True], kind="mergesort")
    raise ValueError(f"unknown sort {sort!r}; expected one of {SORTS}")


def spread_kind(spread: pd.DataFrame) -> str:
    """The scenario-level kind: "seeds" when any model's spread is over seeds alone, else "runs" when any
    is over several described runs, else "unknown" when any value's runs are not described, else "single"."""
    kinds = set(spread["kind"]) if len(spread) else set()
    for k in ("seeds", "runs", "unknown", "single"):
        if k in kinds:
            return k
    return "unknown"


FLIP_COLUMNS = ["model", "mean", "best", "worst", "rank_mean", "rank_if_best", "rank_if_worst", "change",
                "pos_if_best", "pos_if_worst"]


def rank_flips(release: Release, scenario: str, models: Iterable[str] | None = None) -> pd.DataFrame:
    """How the ranking of `scenario` changes if every model had been reported with its best seed, or with
    its worst seed. Only models whose spread is over seeds alone (kind "seeds") take part, since a min or max
    over sub-tasks is not a seed that could have been reported. Columns: model, mean, best, worst, rank_mean,
    rank_if_best, rank_if_worst (1 = best; ties share the better rank) and change = rank_if_best -
    rank_if_worst (positive: the model climbs when everyone is reported at their worst seed), and
    pos_if_best / pos_if_worst, the 1..n positions with ties broken by model name (for drawing). Sorted by
    rank_if_best."""
    sp = seed_spread(release, scenario, models)
    sp = sp[sp["kind"] == "seeds"].reset_index(drop=True)
    if sp.empty:
        return pd.DataFrame({c: pd.Series(dtype=object if c == "model" else float) for c in FLIP_COLUMNS})
    rel = select_models(release, models) if models is not None else release
    acc = rel.results[(rel.results["metric_group"] == "accuracy") & (rel.results["scenario"] == scenario)]
    if _lower_is_better(acc) is None:  # no direction: no best or worst seed to report
        return pd.DataFrame({c: pd.Series(dtype=object if c == "model" else float) for c in FLIP_COLUMNS})
    higher_better = not _lower_is_better(acc)
    best = sp["max"] if higher_better else sp["min"]
    worst = sp["min"] if higher_better else sp["max"]
    sign = -1.0 if higher_better else 1.0
    out = pd.DataFrame({
        "model": sp["model"], "mean": sp["mean"], "best": best, "worst": worst,
        "rank_mean": (sign * sp["mean"]).rank(method="min"),
        "rank_if_best": (sign * best).rank(method="min"),
        "rank_if_worst": (sign * worst).rank(method="min"),
    })
    out["change"] = out["rank_if_best"] - out["rank_if_worst"]
    # Ordinal positions for drawing (ties broken by model name), 1 = top.
    for col, pos in (("rank_if_best", "pos_if_best"), ("rank_if_worst", "pos_if_worst")):
        ordered = out.sort_values([col, "model"]).index
        out.loc[ordered, pos] = np.arange(1, len(out) + 1, dtype=float)
    return out.sort_values(["rank_if_best", "model"]).reset_index(drop=True)[FLIP_COLUMNS]


def flip_summary(flips: pd.DataFrame) -> dict:
    """n models, how many change rank between the best-seed and worst-seed rankings, the largest move,
    and the number of model pairs whose order flips (discordant pairs, ties not counted)."""
    n = int(len(flips))
    if n == 0:
        return {"n": 0, "moved": 0, "max_move": 0, "pairs": 0, "flipped_pairs": 0, "top_same": True}
    b = flips["rank_if_best"].to_numpy(float)
    w = flips["rank_if_worst"].to_numpy(float)
    db = np.sign(b[:, None] - b[None, :])
    dw = np.sign(w[:, None] - w[None, :])
    iu = np.triu_indices(n, 1)
    flipped = int(np.sum((db * dw)[iu] < 0))
    top_b = set(flips.loc[flips["rank_if_best"] == 1, "model"])
    top_w = set(flips.loc[flips["rank_if_worst"] == 1, "model"])
    return {"n": n, "moved": int(np.sum(b != w)), "max_move": int(np.max(np.abs(b - w))),
            "pairs": n * (n - 1) // 2, "flipped_pairs": flipped, "top_same": top_b == top_w}


MEDIAN_COLUMNS = ["scenario", "metric", "kind", "n_models", "n_seeded", "median_range", "max_range", "widest_model"]


def median_spread(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Per scenario of the taxonomy (all of them, in order): the median and largest range of the main
    metric across models. The median is over models whose spread is over seeds alone when there are any
    (kind "seeds"), else over models with several runs (kind "runs", labelled so), else over models whose
    runs are not described (kind "unknown"), else NaN (kind "single": one run only, or "none": no value)."""
    rel = select_models(release, models) if models is not None else release
    acc, trials = _accuracy_and_trials(rel)
    acc_by = dict(tuple(acc.groupby("scenario", sort=False)))
    trials_by = {k: g.drop_duplicates("model").set_index("model")["value"]
                 for k, g in trials.groupby("scenario", sort=False)}
    empty_t = pd.Series(dtype=float)
    rows = []
    for s in release.taxonomy.scenario_names:
        sp = _spread(acc_by.get(s, acc.iloc[0:0]), trials_by.get(s, empty_t))
        metric = str(sp["metric"].iloc[0]) if len(sp) else ""
        seeded = sp[sp["kind"] == "seeds"]
        multi = sp[sp["kind"] == "runs"]
        unknown = sp[(sp["kind"] == "unknown") & (sp["range"] > 0)]
        if len(seeded):
            use, kind = seeded, "seeds"
        elif len(multi):
            use, kind = multi, "runs"
        elif len(unknown):
            use, kind = unknown, "unknown"
        else:
            use, kind = sp.iloc[0:0], ("single" if len(sp) else "none")
        widest = str(use.loc[use["range"].idxmax(), "model"]) if len(use) else ""
        rows.append({
            "scenario": s, "metric": metric, "kind": kind, "n_models": int(len(sp)), "n_seeded": int(len(seeded)),
            "median_range": float(use["range"].median()) if len(use) else float("nan"),
            "max_range": float(use["range"].max()) if len(use) else float("nan"),
            "widest_model": widest,
        })
    return pd.DataFrame(rows, columns=MEDIAN_COLUMNS)


def spread_scenarios(release: Release) -> list[str]:
    """Scenarios (taxonomy order) where some model has a main-metric value."""
    acc = release.results[(release.results["metric_group"] == "accuracy") & release.results["value"].notna()]
    have = set(acc["scenario"])
    return [s for s in release.taxonomy.scenario_names if s in have]


def compare_range(spread: pd.DataFrame, model: str, low: float, high: float, tol: float = 0.005) -> dict | None:
    """Check a claimed seed range [low, high] for `model` against a `seed_spread` frame: the model's min, mean
    and max, and whether the data's range reaches both claimed ends (within `tol`). None when the model has no
    row with a spread over seeds."""
    hit = spread[(spread["model"] == model) & (spread["kind"] == "seeds")]
    if hit.empty:
        return None
    r = hit.iloc[0]
    agrees = bool(r["min"] <= low + tol and r["max"] >= high - tol)
    return {"model": model, "min": float(r["min"]), "mean": float(r["mean"]), "max": float(r["max"]),
            "claimed_low": float(low), "claimed_high": float(high), "agrees": agrees}


def median_seed_range(spread: pd.DataFrame) -> tuple[float, int]:
    """Median range over the models whose spread is over seeds alone, and how many there are (NaN, 0 if none)."""
    seeded = spread[spread["kind"] == "seeds"]
    return (float(seeded["range"].median()) if len(seeded) else float("nan")), int(len(seeded))
