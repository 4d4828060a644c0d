"""helm_core.releases and helm_core.data.load_bundled: table-driven cases on small releases, and the
moving-target comparisons recomputed from the tidy files in data/ (without helm_core)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helm_core import releases as R
from helm_core.data import (BUNDLED_RELEASES, CORE_GROUPS, DataError, Release, Taxonomy, load_bundled,
                            load_model_matches, load_release)

DATA = Path(__file__).resolve().parents[2] / "data"


def make(rows, models, scenarios, release_id="x") -> Release:
    """A small release: rows are (model, scenario, group, metric, value[, note])."""
    res = pd.DataFrame([(*r, "") if len(r) == 5 else r for r in rows],
                       columns=["model", "scenario", "metric_group", "metric", "value", "note"])
    res["lower_is_better"] = res["metric_group"].isin(["efficiency", "calibration", "bias", "toxicity"])
    res["n_runs"] = 1.0
    mods = pd.DataFrame({"model": [m for m, _ in models], "helm_id": [h for _, h in models],
                         "release_date": ["2023-01-0%d" % (i + 1) for i in range(len(models))]})
    tax = Taxonomy(scenarios=pd.DataFrame({"scenario": scenarios, "main_metric": [""] * len(scenarios)}),
                   metric_groups=pd.DataFrame(), design_grid=pd.DataFrame())
    return Release(results=res, models=mods, taxonomy=tax, meta={"release": release_id, "release_id": release_id})


A = make([("a1", "S1", "accuracy", "EM", 0.5), ("a1", "S1", "calibration", "ECE", 0.1),
          ("a2", "S1", "accuracy", "EM", 0.7), ("a2", "S2", "accuracy", "EM", np.nan),
          ("a2", "S2", "toxicity", "Toxic", np.nan), ("a1", "S2", "accuracy", "EM", 0.9, "☠ trained on it")],
         [("a1", "org/one"), ("a2", "org/two")], ["S1", "S2"], "old")
B = make([("b1", "S1", "accuracy", "F1", 0.8), ("b1", "S3", "accuracy", "F1", 0.6),
          ("b3", "S1", "accuracy", "F1", 0.95), ("b3", "S1", "efficiency", "Time", 2.0)],
         [("b1", "org/one"), ("b3", "org/three")], ["S1", "S3"], "new")


@pytest.mark.parametrize("rel,groups,cells,coverage", [
    (A, ["accuracy", "calibration"], 3, 3 / 14),  # S2 toxicity is blank; S2 accuracy holds a1's ☠ value
    (B, ["accuracy", "efficiency"], 3, 3 / 14),
])
def test_release_summary(rel, groups, cells, coverage):
    row = R.release_summary({"r": rel}).iloc[0]
    assert row["groups"] == groups and row["groups_measured"] == len(groups)
    assert row["grid_cells"] == 14 and row["grid_cells_measured"] == cells
    assert row["grid_coverage"] == pytest.approx(coverage)
    assert row["core_group_share"] == pytest.approx(len(groups) / 7)
    assert row["models"] == 2 and row["scenarios"] == 2


def test_summary_keeps_the_order_and_dates():
    s = R.release_summary({"new": B, "old": A})
    assert s["release"].tolist() == ["new", "old"]
    assert s["newest_model_date"].tolist() == ["2023-01-02", "2023-01-02"]


@pytest.mark.parametrize("a,b,scenarios", [(A, B, ["S1"]), (B, A, ["S1"]), (A, A, ["S1", "S2"])])
def test_shared_scenarios(a, b, scenarios):
    assert R.shared_scenarios(a, b) == scenarios


def test_shared_models_match_by_helm_id_not_name():
    pairs = R.shared_models(A, B)
    assert pairs.to_dict("records") == [{"helm_id": "org/one", "model_a": "a1", "model_b": "b1"}]
    assert R.model_turnover(A, B) == {"models_a": 2, "models_b": 2, "kept": 1, "dropped": 1, "added": 1}


@pytest.mark.parametrize("a,b,expected", [
    (A, B, [("a1", "b1", "S1", 0.5, 0.8)]),  # S2 is not in B; S3 is not in A
    (B, A, [("b1", "a1", "S1", 0.8, 0.5)]),
])
def test_shared_values(a, b, expected):
    v = R.shared_values(a, b)
    got = [(r.model_a, r.model_b, r.scenario, r.value_a, r.value_b) for r in v.itertuples()]
    assert got == expected
    assert v["change"].tolist() == pytest.approx([e[4] - e[3] for e in expected])


@pytest.mark.parametrize("name,combined", [
    ("lite", ["MMLU", "MATH", "LegalBench", "WMT 2014"]),  # subjects / subsets / language pairs, one seed each
    ("capabilities", []),
])
def test_run_counts_of_the_later_releases(name, combined):
    rel = load_bundled(name)
    rc = R.run_counts(rel)
    acc = rel.results[(rel.results["metric_group"] == "accuracy") & rel.results["value"].notna()]
    assert rc["cells"] == len(acc)
    assert rc["combined"] == combined
    assert rc["single"] == int((acc["n_runs"] == 1).sum()) == rc["cells"] - int(acc["scenario"].isin(combined).sum())


def test_group_metric_names():
    assert R.group_metric_names(A, "accuracy") == ["EM"]
    assert R.group_metric_names(B, "efficiency") == ["Time"]
    assert R.group_metric_names(B, "toxicity") == []


def test_best_scores_leave_out_strongly_contaminated_cells():
    best = R.best_scores({"old": A, "new": B}, ["S1", "S2"])
    got = {(r.scenario, r.release): (r.best, r.model, r.models) for r in best.itertuples()}
    assert got == {("S1", "old"): (0.7, "a2", 2), ("S1", "new"): (0.95, "b3", 2)}  # S2's only value is ☠


# ----------------------------------------------------------------------------- the bundled releases


@pytest.mark.parametrize("name,label,models,scenarios", [
    ("classic", "HELM classic v0.4.0", 67, 16),
    ("lite", "HELM Lite v1.13.0", 91, 10),
    ("capabilities", "HELM Capabilities v1.15.0", 68, 5),
])
def test_load_bundled(name, label, models, scenarios):
    rel = load_bundled(name)
    assert rel.name == label and rel.release_id == name and rel.is_bundled
    assert rel.is_classic == (name == "classic") and rel.is_later == (name != "classic")
    assert len(rel.models) == models and len(rel.taxonomy.scenario_names) == scenarios
    assert rel.models["helm_id"].is_unique


def test_load_bundled_default_is_classic_and_load_release_still_works():
    assert load_bundled().name == load_release().name == "HELM classic v0.4.0"
    assert load_release().release_id == "classic"


@pytest.mark.parametrize("name", ["", "Lite", "mmlu", "../data", "classic/"])
def test_load_bundled_rejects_unknown_names(name):
    with pytest.raises(DataError, match="unknown bundled release"):
        load_bundled(name)


@pytest.fixture(scope="module")
def bundled():
    return {n: load_bundled(n) for n in BUNDLED_RELEASES}


def test_bundled_summaries(bundled):
    s = R.release_summary(bundled).set_index("release")
    assert s.loc["classic", "groups_measured"] == 7
    for later in ("lite", "capabilities"):
        assert s.loc[later, "groups"] == ["accuracy", "efficiency"]
        assert s.loc[later, "core_group_share"] == pytest.approx(2 / 7)
    presence = R.group_presence(bundled)
    assert presence.loc["lite"].tolist() == [g in ("accuracy", "efficiency") for g in CORE_GROUPS]


def test_model_match_list_is_the_helm_id_join_of_the_models_tables(bundled):
    """data/releases/model_matches.csv: every id exists in each named release's models table under that
    display name, and the list is exactly the ids shared by two or more releases (no name-only guesses)."""
    m = load_model_matches()
    for r in m.itertuples():
        models = bundled[r.release].models
        assert models.loc[models["helm_id"] == r.helm_id, "model"].tolist() == [r.model], r
    ids = pd.concat([rel.models[["helm_id"]].assign(release=k) for k, rel in bundled.items()])
    counts = ids.groupby("helm_id")["release"].nunique()
    assert set(m["helm_id"]) == set(counts[counts > 1].index)
    assert not m.duplicated(["helm_id", "release"]).any()
    # Names differ across releases for the same id: the match is not by name.
    pairs = R.shared_models(bundled["classic"], bundled["lite"])
    assert (pairs["model_a"] != pairs["model_b"]).any()


# The four moving-target comparisons, recomputed from the tidy CSV files with plain pandas.

def _csv(*parts):
    return pd.read_csv(DATA.joinpath(*parts))


def _tidy(name):
    base = ("releases", name) if name != "classic" else ()
    return _csv(*base, "results.csv"), _csv(*base, "models.csv"), _csv(*base, "scenarios.csv")


def test_recomputed_metric_groups_and_counts(bundled):
    s = R.release_summary(bundled).set_index("release")
    for name in BUNDLED_RELEASES:
        res, models, scen = _tidy(name)
        groups = sorted(set(res.loc[res["value"].notna(), "metric_group"]) & set(CORE_GROUPS))
        assert sorted(s.loc[name, "groups"]) == groups
        assert s.loc[name, "models"] == models["model"].nunique() == res["model"].nunique()
        assert s.loc[name, "scenarios"] == len(scen)


def test_recomputed_model_turnover(bundled):
    _, cm, _ = _tidy("classic")
    _, lm, _ = _tidy("lite")
    kept = sorted(set(cm["helm_id"]) & set(lm["helm_id"]))
    t = R.model_turnover(bundled["classic"], bundled["lite"])
    assert t["kept"] == len(kept) == 15
    assert sorted(R.shared_models(bundled["classic"], bundled["lite"])["helm_id"]) == kept


def test_recomputed_saturation(bundled):
    shared = R.shared_scenarios(bundled["classic"], bundled["lite"])
    assert shared == ["MMLU", "NarrativeQA", "NaturalQuestions (closed-book)", "NaturalQuestions (open-book)",
                      "OpenbookQA"]
    best = R.best_scores({k: bundled[k] for k in ("classic", "lite")}, shared)
    for name in ("classic", "lite"):
        res, _, _ = _tidy(name)
        acc = res[(res["metric_group"] == "accuracy") & res["value"].notna()
                  & ~res["note"].fillna("").str.startswith("☠")]
        for s in shared:
            got = best[(best["release"] == name) & (best["scenario"] == s)]["best"].item()
            assert got == acc.loc[acc["scenario"] == s, "value"].max(), (name, s)


def test_recomputed_same_model_across_releases(bundled):
    v = R.shared_values(bundled["classic"], bundled["lite"])
    cres, cm, _ = _tidy("classic")
    lres, lm, _ = _tidy("lite")
    c = cres[cres["metric_group"] == "accuracy"].merge(cm[["model", "helm_id"]], on="model")
    lt = lres[lres["metric_group"] == "accuracy"].merge(lm[["model", "helm_id"]], on="model")
    j = c.merge(lt, on=["helm_id", "scenario"], suffixes=("_c", "_l")).dropna(subset=["value_c", "value_l"])
    assert len(v) == len(j) > 0
    got = v.set_index(["helm_id", "scenario"])[["value_a", "value_b", "n_runs_a", "n_runs_b"]].sort_index()
    want = j.set_index(["helm_id", "scenario"])[["value_c", "value_l", "n_runs_c", "n_runs_l"]].sort_index()
    assert np.allclose(got.to_numpy(dtype=float), want.to_numpy(dtype=float))
