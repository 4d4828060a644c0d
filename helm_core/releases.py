"""Release-level summaries: HELM classic beside its successors (Lite, Capabilities), computed from the data.

Pure functions on `Release` objects (see helm_core.data.load_bundled). Models are matched across releases by
HELM id (the models tables' `helm_id`), never by display name; scenarios by HELM's display name (the same
run-group name, e.g. "NarrativeQA", in both releases' tables).
"""
from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .data import CORE_GROUPS, STRONG_CONTAMINATION_MARK, Release

SUMMARY_COLUMNS = ["release", "name", "models", "scenarios", "groups_measured", "groups", "grid_cells",
                   "grid_cells_measured", "grid_coverage", "core_group_share", "newest_model_date"]


def measured_groups(release: Release) -> list[str]:
    """The seven classic metric groups (in their order) for which the release has at least one value."""
    res = release.results
    have = set(res.loc[res["value"].notna(), "metric_group"])
    return [g for g in CORE_GROUPS if g in have]


def release_summary(releases: Mapping[str, Release]) -> pd.DataFrame:
    """One row per release (in the mapping's order): models, scenarios, classic metric groups with a value,
    the design grid (scenarios × the seven groups) and how much of it holds a value, the share of the seven
    groups that remain, and the release date of the newest model."""
    rows = []
    for key, rel in releases.items():
        res = rel.results
        core = res[res["value"].notna() & res["metric_group"].isin(CORE_GROUPS)
                   & res["scenario"].isin(rel.taxonomy.scenario_names)]
        cells = int(core[["scenario", "metric_group"]].drop_duplicates().shape[0])
        n_cells = len(rel.taxonomy.scenario_names) * len(CORE_GROUPS)
        groups = measured_groups(rel)
        dates = pd.to_datetime(rel.models["release_date"].replace("", None), errors="coerce")
        newest = dates.max()
        rows.append({
            "release": key, "name": rel.name, "models": int(rel.models.shape[0]),
            "scenarios": len(rel.taxonomy.scenario_names), "groups_measured": len(groups), "groups": groups,
            "grid_cells": n_cells, "grid_cells_measured": cells,
            "grid_coverage": cells / n_cells if n_cells else float("nan"),
            "core_group_share": len(groups) / len(CORE_GROUPS),
            "newest_model_date": "" if pd.isna(newest) else newest.date().isoformat(),
        })
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def group_presence(releases: Mapping[str, Release]) -> pd.DataFrame:
    """Releases × the seven classic metric groups: True where the release has at least one value."""
    rows = {key: [g in set(measured_groups(rel)) for g in CORE_GROUPS] for key, rel in releases.items()}
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(CORE_GROUPS)).rename_axis("release")


def shared_scenarios(a: Release, b: Release) -> list[str]:
    """Scenarios (by HELM display name) that both releases list, in `a`'s order."""
    other = set(b.taxonomy.scenario_names)
    return [s for s in a.taxonomy.scenario_names if s in other]


def shared_models(a: Release, b: Release) -> pd.DataFrame:
    """Models in both releases, matched by HELM id: helm_id, model_a, model_b (each release's display name),
    in `a`'s model order."""
    left = a.models[["helm_id", "model"]].rename(columns={"model": "model_a"})
    right = b.models[["helm_id", "model"]].rename(columns={"model": "model_b"})
    left = left[left["helm_id"].fillna("").ne("")]
    out = left.merge(right, on="helm_id", how="inner", validate="one_to_one")
    return out.reset_index(drop=True)


def model_turnover(a: Release, b: Release) -> dict[str, int]:
    """How the model field changed from `a` to `b`: models in `a`, in `b`, in both, only in `a`, only in `b`."""
    both = len(shared_models(a, b))
    na, nb = int(a.models.shape[0]), int(b.models.shape[0])
    return {"models_a": na, "models_b": nb, "kept": both, "dropped": na - both, "added": nb - both}


def _accuracy(rel: Release) -> pd.DataFrame:
    """model, scenario, metric, value of the accuracy group, one metric per scenario: the taxonomy's main metric
    when the results hold it, else the first the results list."""
    r = rel.results
    r = r[(r["metric_group"] == "accuracy") & r["value"].notna()]
    tax = rel.taxonomy.scenarios
    main = dict(zip(tax["scenario"], tax["main_metric_display"] if "main_metric_display" in tax else tax["main_metric"]))
    chosen = {}
    for s, metrics in r.groupby("scenario", sort=False)["metric"]:
        names = list(dict.fromkeys(metrics))
        chosen[s] = main[s] if main.get(s) in names else names[0]
    r = r[r["metric"].to_numpy() == r["scenario"].map(chosen).to_numpy()]
    return r.drop_duplicates(["model", "scenario"])[["model", "scenario", "metric", "value", "n_runs", "note"]]


def shared_values(a: Release, b: Release) -> pd.DataFrame:
    """Per model in both releases (by HELM id) and scenario in both: the accuracy value in each release.
    Columns: helm_id, model_a, model_b, scenario, metric_a, value_a, n_runs_a, metric_b, value_b, n_runs_b,
    change (b − a); n_runs is how many runs HELM averaged in the cell (seeds × sub-tasks). Rows only where both
    releases have a value."""
    pairs = shared_models(a, b)
    scen = shared_scenarios(a, b)
    cols = ["helm_id", "model_a", "model_b", "scenario", "metric_a", "value_a", "n_runs_a", "metric_b", "value_b",
            "n_runs_b", "change"]
    if pairs.empty or not scen:
        return pd.DataFrame(columns=cols)
    va = _accuracy(a).drop(columns="note").rename(columns={"model": "model_a", "metric": "metric_a", "value": "value_a",
                                                           "n_runs": "n_runs_a"})
    vb = _accuracy(b).drop(columns="note").rename(columns={"model": "model_b", "metric": "metric_b", "value": "value_b",
                                                           "n_runs": "n_runs_b"})
    out = pairs.merge(va[va["scenario"].isin(scen)], on="model_a").merge(vb, on=["model_b", "scenario"])
    out["change"] = out["value_b"] - out["value_a"]
    order = {s: i for i, s in enumerate(scen)}
    out = out.assign(_s=out["scenario"].map(order)).sort_values(["model_a", "_s"], kind="mergesort")
    return out[cols].reset_index(drop=True)


def shared_value_counts(a: Release, b: Release) -> dict[str, int]:
    """The counts behind `shared_values`, so a sentence never multiplies what it should count: models in both
    releases (by HELM id), scenarios in both, the possible model × scenario pairs (their product), the pairs with a
    value in both releases, the models with at least one such pair, and the pairs whose cells average a different
    number of runs. Classic and Lite: 15 models × 5 scenarios = 75 possible pairs, of which 64 have both values."""
    v = shared_values(a, b)
    n_models, n_scen = len(shared_models(a, b)), len(shared_scenarios(a, b))
    return {"models": n_models, "scenarios": n_scen, "possible": n_models * n_scen, "pairs": int(len(v)),
            "models_with_pairs": int(v["helm_id"].nunique()) if len(v) else 0,
            "different_runs": int((v["n_runs_a"] != v["n_runs_b"]).sum()) if len(v) else 0}


def best_scores(releases: Mapping[str, Release], scenarios: list[str]) -> pd.DataFrame:
    """Per scenario and release: the best accuracy value (higher is better; all accuracy metrics here are),
    the model(s) reaching it, how many models have a value, and the median. Values HELM flags as strongly
    contaminated (☠) are left out, as in HELM's win rates. Releases without the scenario are left out."""
    rows = []
    accs = {key: _accuracy(rel) for key, rel in releases.items()}
    for s in scenarios:
        for key, rel in releases.items():
            acc = accs[key]
            acc = acc[(acc["scenario"] == s) & ~acc["note"].fillna("").str.startswith(STRONG_CONTAMINATION_MARK)]
            if acc.empty:
                continue
            top = acc["value"].max()
            best = sorted(acc.loc[acc["value"] == top, "model"])
            rows.append({"scenario": s, "release": key, "name": rel.name, "metric": acc["metric"].iloc[0],
                         "best": float(top), "model": best[0], "n_tied": len(best), "models": int(acc.shape[0]),
                         "median": float(acc["value"].median())})
    return pd.DataFrame(rows, columns=["scenario", "release", "name", "metric", "best", "model", "n_tied", "models",
                                       "median"])


def group_metric_names(release: Release, group: str) -> list[str]:
    """HELM's metric names in a metric group of the release, in the order the results list them (e.g.
    "Denoised inference time (s)" for classic's efficiency, "Observed inference time (s)" for Lite's)."""
    r = release.results
    return list(dict.fromkeys(r.loc[r["metric_group"] == group, "metric"]))


def run_counts(release: Release) -> dict:
    """How many runs stand behind the release's accuracy cells: cells with a value, how many come from a single run
    (n_runs = 1), and the scenarios (taxonomy order) where a cell averages several runs (seeds or sub-tasks)."""
    r = release.results
    r = r[(r["metric_group"] == "accuracy") & r["value"].notna()]
    several = set(r.loc[r["n_runs"] > 1, "scenario"])
    return {"cells": int(len(r)), "single": int((r["n_runs"] == 1).sum()),
            "combined": [s for s in release.taxonomy.scenario_names if s in several]}
