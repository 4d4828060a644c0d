"""helm_core.release_facts: what a release holds, read from the release. The bundled numbers are recomputed here with
plain pandas from data/ (no helm_core); small releases cover the branches."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helm_core.data import Release, Taxonomy, cohort_models, load_bundled
from helm_core.release_facts import (Fact, ReleaseFacts, in_context_by_scenario, organization_models,
                                     rank_correlation, release_facts, scenarios_by_model)

DATA = Path(__file__).resolve().parents[2] / "data"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _tidy(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    base = DATA if name == "classic" else DATA / "releases" / name
    return pd.read_csv(base / "results.csv"), pd.read_csv(base / "models.csv")


def _cohort(models: pd.DataFrame, cohort: str) -> list[str]:
    return models.loc[models["paper_cohort"], "model"].tolist() if cohort == "paper" else models["model"].tolist()


@pytest.fixture(scope="module")
def bundled():
    return {n: load_bundled(n) for n in ("classic", "lite", "capabilities")}


def facts(bundled, name, cohort="all") -> ReleaseFacts:
    rel = bundled[name]
    return release_facts(rel, cohort_models(rel, cohort))


# ----------------------------------------------------------------------------- the bundled releases, recomputed


@pytest.mark.parametrize("name,cohort,lacking,of", [
    ("classic", "all", 37, 67), ("classic", "paper", 6, 28), ("lite", "all", 1, 91), ("capabilities", "all", 0, 68),
])
def test_models_lacking_a_scenario(bundled, name, cohort, lacking, of):
    res, models = _tidy(name)
    names = _cohort(models, cohort)
    acc = res[(res["metric_group"] == "accuracy") & res["value"].notna() & res["model"].isin(names)]
    n_scen = res["scenario"].nunique()
    per = acc.groupby("model")["scenario"].nunique().reindex(names).fillna(0)
    assert (int((per < n_scen).sum()), len(names)) == (lacking, of)
    f = facts(bundled, name, cohort)
    assert (len(f.models_lacking.value), f.n_models) == (lacking, of)
    assert set(f.models_lacking.value) == set(per.index[per < n_scen])
    assert f.scenarios_by_model.to_dict() == per.astype(int).to_dict()


@pytest.mark.parametrize("name,cohort,by_trials,source", [
    ("classic", "all", {1: 25, 3: 42}, "data"), ("classic", "paper", {3: 28}, "data"),
    ("lite", "all", {1: 91}, "fact_sheet"), ("capabilities", "all", {1: 68}, "data"),
])
def test_seeds_per_model(bundled, name, cohort, by_trials, source):
    res, models = _tidy(name)
    names = _cohort(models, cohort)
    f = facts(bundled, name, cohort)
    assert {k: len(v) for k, v in f.models_by_trials.items()} == by_trials
    assert f.trials.value == tuple(sorted(by_trials)) and f.trials.source == source
    trials = res[(res["metric"] == "# trials") & res["value"].notna() & res["model"].isin(names)]
    if name == "classic":  # recomputed: each model's largest "# trials"
        per = np.ceil(trials.groupby("model")["value"].max()).astype(int)
        assert per.value_counts().to_dict() == by_trials
        assert set(f.models_by_trials[1] if 1 in by_trials else ()) == set(per.index[per == 1])
    else:  # later releases record no "# trials"
        assert trials.empty
    if name == "lite":
        assert f.trials.confidence == "verified" and "BLOG-LITE" in f.trials.detail
    if name == "capabilities":  # zero-shot, one run per accuracy cell
        acc = res[res["metric_group"] == "accuracy"]
        assert (acc["n_runs"] == 1).all() and (res.loc[res["metric"] == "# train", "value"] == 0).all()


@pytest.mark.parametrize("name,in_context,zero_shot", [
    ("classic", 5, ("HellaSwag", "OpenbookQA")), ("lite", 8, ()),
    ("capabilities", 0, ("MMLU-Pro", "GPQA", "IFEval", "WildBench", "Omni-MATH")),
])
def test_in_context_examples(bundled, name, in_context, zero_shot):
    res, _ = _tidy(name)
    train = res[(res["metric"] == "# train") & res["value"].notna()]
    assert round(train["value"].max()) == in_context
    per = train.groupby("scenario")["value"].max()
    assert set(per.index[per == 0]) == set(zero_shot)
    f = facts(bundled, name)
    assert f.in_context.value == in_context and f.zero_shot_scenarios.value == zero_shot
    assert in_context_by_scenario(bundled[name]).to_dict() == per.round().astype(int).to_dict()


@pytest.mark.parametrize("name,cohort,groups,perturbations,toxicity", [
    ("classic", "all", ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency"),
     ("robustness", "fairness"), 460),
    ("classic", "paper", ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency"),
     ("robustness", "fairness"), 252),
    ("lite", "all", ("accuracy", "efficiency"), (), 0), ("capabilities", "all", ("accuracy", "efficiency"), (), 0),
])
def test_groups_perturbations_and_toxicity(bundled, name, cohort, groups, perturbations, toxicity):
    res, models = _tidy(name)
    names = _cohort(models, cohort)
    have = res[res["value"].notna() & res["model"].isin(names)]
    assert set(have["metric_group"]) & set(groups) == set(groups)
    tox = have[have["metric_group"] == "toxicity"].drop_duplicates(["model", "scenario"])
    assert len(tox) == toxicity
    f = facts(bundled, name, cohort)
    assert f.metric_groups.value == groups and f.perturbations.value == perturbations
    assert f.toxicity_cells.value == toxicity


@pytest.mark.parametrize("name,cohort,speculative", [
    ("classic", "all", ("text-ada-001", "text-babbage-001", "text-curie-001", "text-davinci-002")),
    ("classic", "paper", ("text-ada-001", "text-babbage-001", "text-curie-001", "text-davinci-002")),
    ("lite", "all", ()), ("capabilities", "all", ()),
])
def test_speculative_parameter_counts(bundled, name, cohort, speculative):
    _, models = _tidy(name)
    names = set(_cohort(models, cohort))
    marked = models[models["params_speculative"] & models["model"].isin(names)]["model"]
    assert tuple(sorted(marked)) == speculative
    assert tuple(sorted(facts(bundled, name, cohort).speculative_params.value)) == speculative


@pytest.mark.parametrize("name,org,present,n", [
    ("classic", "OpenAI", True, 11), ("classic", "openai", True, 11), ("classic", "Yandex", True, 1),
    ("lite", "OpenAI", True, 9), ("lite", "Yandex", False, 0), ("capabilities", "BigScience", False, 0),
])
def test_organizations(bundled, name, org, present, n):
    _, models = _tidy(name)
    f = facts(bundled, name)
    assert f.has_organization(org) is present
    assert len(organization_models(bundled[name], None, org)) == n
    assert n == int((models["organization"].str.lower() == org.lower()).sum())


def test_limited_functionality_models_by_helm_id(bundled):
    f = facts(bundled, "classic", "paper")
    assert f.limited_functionality.value == ("GLM (130B)", "T0pp (11B)", "T5 (11B)", "UL2 (20B)", "YaLM (100B)")
    assert f.limited_functionality.source == "fact_sheet" and f.limited_functionality.confidence == "verified"
    assert facts(bundled, "lite").limited_functionality.value == ()


@pytest.mark.parametrize("name,efficiency,aggregate,source", [
    ("classic", ("Denoised inference time (s)",), "Mean win rate", "meta"),
    ("lite", ("Observed inference time (s)",), "Mean win rate", "meta"),
    ("capabilities", ("Observed inference time (s)",), "Mean score", "meta"),
])
def test_efficiency_metric_and_aggregate(bundled, name, efficiency, aggregate, source):
    f = facts(bundled, name)
    assert f.efficiency_metric.value == efficiency
    assert (f.aggregate.value, f.aggregate.source) == (aggregate, source)
    meta = json.loads(((DATA if name == "classic" else DATA / "releases" / name) / "meta.json").read_text())
    assert meta["published_aggregate"]["name"] == aggregate


# ----------------------------------------------------------------------------- small releases: every branch


def small(rows, models=("m1", "m2"), release_id="", meta=None, helm_ids=None) -> Release:
    """rows: (model, scenario, group, metric, value[, n_runs])."""
    res = pd.DataFrame([(*r, 1.0)[:6] for r in rows], columns=["model", "scenario", "metric_group", "metric", "value",
                                                              "n_runs"])
    res["lower_is_better"] = pd.array([None] * len(res), dtype="boolean")
    res["note"] = ""
    scen = list(dict.fromkeys(res["scenario"]))
    mods = pd.DataFrame({"model": list(models), "helm_id": list(helm_ids or [f"org/{m}" for m in models]),
                         "organization": ["Org"] * len(models), "access": ["open"] * len(models),
                         "params": [np.nan] * len(models), "release_date": ["2023-01-01"] * len(models),
                         "paper_cohort": [False] * len(models), "params_speculative": [False] * len(models)})
    tax = Taxonomy(scenarios=pd.DataFrame({"scenario": scen, "main_metric": ["EM"] * len(scen)}),
                   metric_groups=pd.DataFrame(columns=["metric_group", "definition"]),
                   design_grid=pd.DataFrame(columns=["scenario", "metric_group", "in_schema"]))
    return Release(results=res, models=mods, taxonomy=tax, meta={"release": "small", "release_id": release_id,
                                                                   **(meta or {})})


ACC = [("m1", "S", "accuracy", "EM", 0.5), ("m2", "S", "accuracy", "EM", 0.6)]


@pytest.mark.parametrize("rows,runs,trials,source,ctx,ctx_source", [
    # "# trials" and "# train" in the tables
    (ACC + [("m1", "S", "general_information", "# trials", 3.0), ("m2", "S", "general_information", "# trials", 1.0),
            ("m1", "S", "general_information", "# train", 5.0)], None, (1, 3), "data", 5, "data"),
    # fractional trial counts (runs averaged) round per model
    (ACC + [("m1", "S", "general_information", "# trials", 2.714), ("m2", "S", "general_information", "# trials", 2.5)],
     None, (3,), "data", None, "data"),
    # zero-shot with one run per cell: one
    (ACC + [("m1", "S", "general_information", "# train", 0.0), ("m2", "S", "general_information", "# train", 0.0)],
     None, (1,), "data", 0, "data"),
    # nothing recorded: unknown, said so
    (ACC, None, (), "data", None, "data"),
    # a user's suite: run_spec adapter specs win over the tables
    (ACC + [("m1", "S", "general_information", "# trials", 1.0)],
     pd.DataFrame({"model": ["m1", "m2"], "scenario": ["S", "S"], "num_train_trials": [3.0, 2.0],
                   "adapter_spec": [json.dumps({"max_train_instances": 4}), json.dumps({"max_train_instances": 0})]}),
     (2, 3), "run_spec", 4, "run_spec"),
])
def test_trials_and_in_context_sources(rows, runs, trials, source, ctx, ctx_source):
    f = release_facts(small(rows), runs=runs)
    assert f.trials.value == trials and f.trials.source == source
    assert f.in_context.value == ctx and f.in_context.source == ctx_source
    assert f.trials.citation.startswith(("computed from", "the suite's"))


def test_a_user_suite_from_its_run_specs():
    from helm_core.helm_output import read_helm_output

    out = read_helm_output(FIXTURES / "helm_run_examples")
    f = release_facts(out.release, runs=out.runs)
    specs = [json.loads(a) for a in out.runs["adapter_spec"]]
    assert f.trials.source == "run_spec" and f.trials.value == tuple(sorted({int(s.get("num_train_trials", 1))
                                                                             for s in specs}))
    assert f.in_context.value == max(s["max_train_instances"] for s in specs)
    assert f.aggregate.value is None and f.release_id == ""
    assert release_facts(out.release).trials.source == "data"  # without the run index: HELM's "# trials" stats


@pytest.mark.parametrize("kwargs,error", [
    ({"value": 1, "source": "blog", "detail": "x"}, "unknown source kind"),
    ({"value": 1, "source": "data", "detail": "x", "confidence": "sure"}, "unknown confidence"),
])
def test_fact_validates_its_source(kwargs, error):
    with pytest.raises(ValueError, match=error):
        Fact(**kwargs)


@pytest.mark.parametrize("x,y,expected", [
    ([1, 2, 3, 4], [10, 20, 30, 40], 1.0), ([1, 2, 3, 4], [4, 3, 2, 1], -1.0), ([1, 2, 3], [1, 1, 1], np.nan),
    ([1, 2], [2, 1], np.nan), ([1, 2, 3, np.nan], [1, 2, 3, 9], 1.0), ([1, 2, 2, 3], [1, 3, 2, 4], 0.949),
])
def test_rank_correlation(x, y, expected):
    got = rank_correlation(pd.Series(x, dtype=float), pd.Series(y, dtype=float))
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        ranks = pd.DataFrame({"x": x, "y": y}).dropna().rank()
        assert got == pytest.approx(expected, abs=0.001)
        assert got == pytest.approx(ranks["x"].corr(ranks["y"]))


def test_scenarios_by_model_follows_the_cohort(bundled):
    rel = bundled["classic"]
    per = scenarios_by_model(rel, ["text-davinci-002", "T5 (11B)", "not a model"])
    assert per.to_dict() == {"text-davinci-002": 16, "T5 (11B)": 12}
    assert list(per.index) == [m for m in rel.model_names if m in ("text-davinci-002", "T5 (11B)")]  # release order
