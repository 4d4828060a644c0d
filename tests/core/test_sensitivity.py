"""helm_core.sensitivity: the kind of spread behind each cell, seed ranges, ranks under best/worst seeds,
rank flips and the median spread per scenario — on small hand-made releases and on v0.4.0."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helm_core import sensitivity as sens
from helm_core.data import RESULT_COLUMNS


def _release(base, rows, trials=None, scenario="NaturalQuestions (open-book)", lower_is_better=False):
    """A copy of `base` whose results hold only `rows`: (model, mean, min, max, n_runs) on `scenario`,
    with '# trials' per model from `trials` (dict; missing = no trials row)."""
    recs = []
    for model, mean, lo, hi, n in rows:
        recs.append({"model": model, "scenario": scenario, "metric_group": "accuracy", "metric": "F1", "value": mean,
                     "lower_is_better": lower_is_better, "n_runs": n, "run_min": lo, "run_max": hi, "note": ""})
        if trials and model in trials:
            recs.append({"model": model, "scenario": scenario, "metric_group": "general_information",
                         "metric": "# trials", "value": trials[model], "lower_is_better": pd.NA, "n_runs": n,
                         "run_min": trials[model], "run_max": trials[model], "note": ""})
    res = pd.DataFrame(recs, columns=RESULT_COLUMNS)
    res["lower_is_better"] = res["lower_is_better"].astype("boolean")
    models = pd.DataFrame({"model": sorted({r[0] for r in rows})})
    return dataclasses.replace(base, results=res, models=base.models.iloc[0:0].merge(models, how="right"))


KIND_CASES = [
    # id, n_runs, trials, expected kind
    ("three_seeds", 3.0, 3.0, "seeds"),
    ("one_run", 1.0, 1.0, "single"),
    ("mmlu_subjects_x_seeds", 15.0, 3.0, "runs"),
    ("mmlu_subjects_one_seed", 5.0, 1.0, "runs"),
    ("raft_subtasks", 33.0, 3.0, "runs"),
    ("truthfulqa_mixed_trials", 4.0, 2.5, "runs"),
    ("no_trials_metric", 3.0, float("nan"), "unknown"),
    ("no_trials_one_run", 1.0, float("nan"), "single"),
    ("unknown_runs", float("nan"), 3.0, "unknown"),
]


@pytest.mark.parametrize("name,n_runs,trials,kind", KIND_CASES, ids=[c[0] for c in KIND_CASES])
def test_kind_of_spread(name, n_runs, trials, kind):
    assert sens._kind(n_runs, trials) == kind


SPREAD_CASES = [
    # id, rows (model, mean, min, max, n_runs), trials, expected per model: (range, kind, rank_mean, rank_best, rank_worst)
    ("no_overlap_no_move",
     [("A", 0.8, 0.79, 0.81, 3), ("B", 0.5, 0.49, 0.51, 3)], {"A": 3, "B": 3},
     {"A": (0.02, "seeds", 1, 1, 1), "B": (0.02, "seeds", 2, 2, 2)}),
    ("wide_model_jumps",
     [("A", 0.6, 0.40, 0.80, 3), ("B", 0.7, 0.69, 0.71, 3), ("C", 0.5, 0.49, 0.51, 3)], {"A": 3, "B": 3, "C": 3},
     {"A": (0.40, "seeds", 2, 1, 3), "B": (0.02, "seeds", 1, 1, 1), "C": (0.02, "seeds", 3, 3, 3)}),
    ("single_seed_model_has_no_spread",
     [("A", 0.6, 0.6, 0.6, 1), ("B", 0.7, 0.55, 0.75, 3)], {"A": 1, "B": 3},
     {"A": (0.0, "single", 2, 2, 2), "B": (0.20, "seeds", 1, 1, 2)}),
    ("subtasks_get_no_seed_ranks",
     [("A", 0.6, 0.2, 0.9, 15), ("B", 0.5, 0.4, 0.6, 3)], {"A": 3, "B": 3},
     {"A": (0.7, "runs", 1, None, None), "B": (0.2, "seeds", 2, 1, 2)}),
    ("tie_at_the_mean_shares_the_better_rank",
     [("A", 0.6, 0.5, 0.7, 3), ("B", 0.6, 0.6, 0.6, 1)], {"A": 3, "B": 1},
     {"A": (0.2, "seeds", 1, 1, 2), "B": (0.0, "single", 1, 1, 1)}),
]


@pytest.mark.parametrize("name,rows,trials,expected", SPREAD_CASES, ids=[c[0] for c in SPREAD_CASES])
def test_seed_spread_table(release, name, rows, trials, expected):
    rel = _release(release, rows, trials)
    sp = sens.seed_spread(rel, "NaturalQuestions (open-book)").set_index("model")
    assert list(sens.seed_spread(rel, "NaturalQuestions (open-book)").columns) == sens.SPREAD_COLUMNS
    for model, (rng, kind, rank_mean, rank_best, rank_worst) in expected.items():
        r = sp.loc[model]
        assert r["range"] == pytest.approx(rng)
        assert r["kind"] == kind
        assert r["rank_mean"] == rank_mean
        if rank_best is None:
            assert np.isnan(r["rank_best"]) and np.isnan(r["rank_worst"])
        else:
            assert (r["rank_best"], r["rank_worst"]) == (rank_best, rank_worst)


def test_lower_is_better_flips_best_and_worst(release):
    rel = _release(release, [("A", 0.3, 0.1, 0.5, 3), ("B", 0.2, 0.19, 0.21, 3)], {"A": 3, "B": 3},
                   lower_is_better=True)
    sp = sens.seed_spread(rel, "NaturalQuestions (open-book)").set_index("model")
    assert sp.loc["B", "rank_mean"] == 1 and sp.loc["A", "rank_mean"] == 2
    assert sp.loc["A", "rank_best"] == 1 and sp.loc["A", "rank_worst"] == 2  # its best is its minimum, 0.1
    flips = sens.rank_flips(rel, "NaturalQuestions (open-book)").set_index("model")
    assert flips.loc["A", "best"] == 0.1 and flips.loc["A", "worst"] == 0.5


def test_missing_min_max_become_a_point(release):
    rel = _release(release, [("A", 0.6, np.nan, np.nan, np.nan)])  # no n_runs, no trials
    r = sens.seed_spread(rel, "NaturalQuestions (open-book)").iloc[0]
    assert (r["min"], r["max"], r["range"], r["kind"]) == (0.6, 0.6, 0.0, "unknown")


def test_rounded_cells_keep_min_le_mean_le_max(release):
    rel = _release(release, [("A", 0.600, 0.601, 0.7, 3)], {"A": 3})  # min above mean after rounding
    r = sens.seed_spread(rel, "NaturalQuestions (open-book)").iloc[0]
    assert r["min"] <= r["mean"] <= r["max"]


def test_unknown_scenario_gives_an_empty_frame(release):
    sp = sens.seed_spread(release, "No such scenario")
    assert sp.empty and list(sp.columns) == sens.SPREAD_COLUMNS
    assert sens.rank_flips(release, "No such scenario").empty


# ----------------------------------------------------------------------------- v0.4.0

SCENARIO_KINDS = [
    ("NaturalQuestions (open-book)", "seeds", 41),
    ("BoolQ", "seeds", 42),
    ("MMLU", "runs", 0),
    ("RAFT", "runs", 0),
    ("CivilComments", "runs", 0),
    ("HellaSwag", "single", 0),
    ("OpenbookQA", "single", 0),
]


@pytest.mark.parametrize("scenario,kind,n_seeded", SCENARIO_KINDS, ids=[s[0] for s in SCENARIO_KINDS])
def test_v040_kind_per_scenario(release, scenario, kind, n_seeded):
    sp = sens.seed_spread(release, scenario)
    assert sens.spread_kind(sp) == kind
    assert int((sp["kind"] == "seeds").sum()) == n_seeded


@pytest.mark.parametrize("scenario", ["NaturalQuestions (open-book)", "MMLU", "RAFT", "TruthfulQA", "CNN/DailyMail",
                                      "MS MARCO (TREC)", "HellaSwag"])
def test_v040_seed_ranges_contain_the_mean(release, scenario):
    sp = sens.seed_spread(release, scenario)
    assert len(sp) > 0
    assert ((sp["min"] <= sp["mean"]) & (sp["mean"] <= sp["max"])).all()
    assert (sp["range"] >= 0).all()
    seeded = sp[sp["kind"] == "seeds"]
    assert (seeded["rank_best"] <= seeded["rank_mean"] + 1e-9).all()
    assert (seeded["rank_worst"] >= seeded["rank_best"]).all()


def test_v040_davinci_on_nq_open_book(release):
    sp = sens.seed_spread(release, "NaturalQuestions (open-book)")
    check = sens.compare_range(sp, "davinci (175B)", 0.376, 0.636)
    assert check is not None and check["agrees"] is False  # v0.4.0: 0.599 to 0.650, not 37.6% to 63.6%
    res = release.results
    row = res[(res["model"] == "davinci (175B)") & (res["scenario"] == "NaturalQuestions (open-book)")
              & (res["metric_group"] == "accuracy")].iloc[0]
    assert (check["min"], check["max"]) == (row["run_min"], row["run_max"])
    assert sens.compare_range(sp, "Mistral v0.1 (7B)", 0.1, 0.9) is None  # one seed only


def test_compare_range_can_agree(release):
    rel = _release(release, [("A", 0.5, 0.37, 0.64, 3)], {"A": 3})
    sp = sens.seed_spread(rel, "NaturalQuestions (open-book)")
    assert sens.compare_range(sp, "A", 0.376, 0.636)["agrees"] is True


def test_v040_median_spread_covers_every_scenario(release):
    ms = sens.median_spread(release)
    assert ms["scenario"].tolist() == release.taxonomy.scenario_names
    nq = ms.set_index("scenario").loc["NaturalQuestions (open-book)"]
    sp = sens.seed_spread(release, "NaturalQuestions (open-book)")
    assert nq["kind"] == "seeds" and nq["n_seeded"] == 41
    assert nq["median_range"] == pytest.approx(sp.loc[sp["kind"] == "seeds", "range"].median())
    assert sens.median_seed_range(sp) == (pytest.approx(nq["median_range"]), 41)
    kinds = ms.set_index("scenario")["kind"]
    assert kinds["MMLU"] == "runs" and kinds["HellaSwag"] == "single"
    assert ms.loc[ms["kind"] == "single", "median_range"].isna().all()


def test_median_spread_respects_the_cohort(release):
    cohort = ["text-davinci-002", "davinci (175B)", "T5 (11B)"]
    ms = sens.median_spread(release, cohort).set_index("scenario")
    sp = sens.seed_spread(release, "NaturalQuestions (open-book)", cohort)
    assert ms.loc["NaturalQuestions (open-book)", "n_models"] == 3
    assert ms.loc["NaturalQuestions (open-book)", "median_range"] == pytest.approx(sp["range"].median())


# ----------------------------------------------------------------------------- rank flips


def test_rank_flips_small_case(release):
    rel = _release(release, [("A", 0.6, 0.40, 0.80, 3), ("B", 0.7, 0.69, 0.71, 3), ("C", 0.5, 0.49, 0.51, 3),
                             ("D", 0.65, 0.65, 0.65, 1)], {"A": 3, "B": 3, "C": 3, "D": 1})
    f = sens.rank_flips(rel, "NaturalQuestions (open-book)").set_index("model")
    assert "D" not in f.index  # one seed: not part of the best/worst comparison
    assert f.loc["A", "rank_if_best"] == 1 and f.loc["A", "rank_if_worst"] == 3
    assert f.loc["B", "rank_if_best"] == 2 and f.loc["B", "rank_if_worst"] == 1
    assert f["change"].to_dict() == {"A": -2, "B": 1, "C": 1}
    s = sens.flip_summary(f.reset_index())
    assert s == {"n": 3, "moved": 3, "max_move": 2, "pairs": 3, "flipped_pairs": 2, "top_same": False}


def test_rank_flips_positions_break_ties(release):
    rel = _release(release, [("A", 0.6, 0.5, 0.7, 3), ("B", 0.6, 0.5, 0.7, 3)], {"A": 3, "B": 3})
    f = sens.rank_flips(rel, "NaturalQuestions (open-book)")
    assert f["rank_if_best"].tolist() == [1, 1]
    assert sorted(f["pos_if_best"]) == [1, 2] and sorted(f["pos_if_worst"]) == [1, 2]
    assert sens.flip_summary(f)["moved"] == 0


def test_flip_summary_empty():
    empty = pd.DataFrame(columns=sens.FLIP_COLUMNS)
    assert sens.flip_summary(empty)["n"] == 0


def test_v040_rank_flips_on_nq(release):
    f = sens.rank_flips(release, "NaturalQuestions (open-book)")
    sp = sens.seed_spread(release, "NaturalQuestions (open-book)")
    assert len(f) == int((sp["kind"] == "seeds").sum())
    assert f["rank_if_best"].is_monotonic_increasing and f["rank_if_best"].iloc[0] == 1
    assert set(f["pos_if_best"]) == set(range(1, len(f) + 1))
    s = sens.flip_summary(f)
    assert s["moved"] > 0 and s["flipped_pairs"] > 0 and s["max_move"] >= 1
    t5 = f.set_index("model").loc["T5 (11B)"]
    assert t5["change"] < 0  # its worst seed (0.278) is far below its best (0.588)


# ----------------------------------------------------------------------------- properties

rows = st.lists(
    st.tuples(st.floats(0, 1, allow_nan=False), st.floats(0, 0.3, allow_nan=False), st.floats(0, 0.3, allow_nan=False),
              st.sampled_from([1, 3, 15])),
    min_size=1, max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(data=rows)
def test_property_ranges_contain_the_mean_and_ranks_are_ordered(release, data):
    built = [(f"M{i}", m, max(0.0, m - a), min(1.0, m + b), n) for i, (m, a, b, n) in enumerate(data)]
    rel = _release(release, built, {f"M{i}": 3 for i in range(len(built))})
    sp = sens.seed_spread(rel, "NaturalQuestions (open-book)")
    assert len(sp) == len(built)
    assert ((sp["min"] <= sp["mean"]) & (sp["mean"] <= sp["max"])).all()
    seeded = sp[sp["kind"].isin(["seeds", "single"])]
    assert (seeded["rank_best"] <= seeded["rank_mean"]).all()
    assert (seeded["rank_mean"] <= seeded["rank_worst"]).all()
    assert (sp["rank_mean"] >= 1).all() and (sp["rank_mean"] <= len(sp)).all()
    f = sens.rank_flips(rel, "NaturalQuestions (open-book)")
    assert f["change"].sum() == pytest.approx(f["rank_if_best"].sum() - f["rank_if_worst"].sum())


@pytest.mark.parametrize("kinds,expected", [
    (["seeds", "single", "runs"], "seeds"), (["runs", "single"], "runs"), (["unknown", "single"], "unknown"),
    (["single"], "single"), ([], "unknown"),
])
def test_scenario_level_kind(kinds, expected):
    assert sens.spread_kind(pd.DataFrame({"kind": kinds})) == expected


ORDER_FRAME = pd.DataFrame({
    "model": ["b", "a", "c", "d"],
    "mean": [0.5, 0.5, 0.7, 0.6],
    "range": [0.1, 0.3, 0.1, 0.3],
})


@pytest.mark.parametrize("sort, expected", [
    ("mean", ["c", "d", "a", "b"]),    # best mean first; equal means by name
    ("spread", ["d", "a", "c", "b"]),  # widest range first; equal ranges by the better mean
])
def test_order_spread(sort, expected):
    assert list(sens.order_spread(ORDER_FRAME, sort)["model"]) == expected


def test_order_spread_rejects_an_unknown_sort():
    with pytest.raises(ValueError, match="unknown sort 'name'"):
        sens.order_spread(ORDER_FRAME, "name")
