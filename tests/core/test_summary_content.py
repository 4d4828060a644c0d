from __future__ import annotations

import pytest

from helm_core.content import DataError
from helm_core.claims import claims_for, load_claims
from helm_core.summary import exam_matrix, headline_counts
from helm_core.coverage import coverage_matrix, coverage_rate


def test_headline_counts(release):
    c = headline_counts(release)
    assert c["models"] == 67 and c["scenarios"] == 16 and c["metric_groups"] == 7
    assert c["core_cells"] == 67 * 16 * 7
    assert c["core_cells_measured"] + c["core_cells_blank"] == c["core_cells"]
    assert c["values"] + c["blank_values"] == len(release.results)


def test_headline_counts_for_a_subset(release):
    c = headline_counts(release, ["TNLG v2 (530B)", "OPT (175B)"])
    assert c["models"] == 2 and c["organizations"] == 2


def test_exam_matrix(release):
    e = exam_matrix(release)
    assert len(e) == 67 * 16
    assert e["measured"].sum() == coverage_matrix(release).to_numpy().sum()
    assert set(e.loc[e["scenario"] == "MS MARCO (TREC)", "metric"]) == {"NDCG@10"}


@pytest.mark.parametrize("models,expected", [(None, None), (["TNLG v2 (530B)"], 1.0)])
def test_coverage_rate(release, models, expected):
    rate = coverage_rate(release, models)
    assert 0 < rate <= 1
    if expected is not None:
        assert rate == expected


def test_claims_load_and_validate(tmp_path):
    claims = load_claims()
    assert claims["coverage_jump"].values == (17.9, 96.0)
    assert all(c.confidence in {"verified", "quoted", "unverified"} for c in claims.values())
    assert claims_for(claims, "grid")
    bad = tmp_path / "claims.toml"
    bad.write_text('[[claim]]\nid = "x"\nsection = "grid"\nstatement = "s"\nsource = "t"\nconfidence = "sure"\n')
    with pytest.raises(DataError, match="confidence"):
        load_claims(bad)
    bad.write_text('[[claim]]\nid = "x"\nsection = "grid"\nstatement = "s"\nconfidence = "verified"\n')
    with pytest.raises(DataError, match="source"):
        load_claims(bad)
    bad.write_text("[[claim]\n")
    with pytest.raises(DataError, match="TOML"):
        load_claims(bad)


@pytest.mark.parametrize("cohort,acc,listed,by_design,metrics,books", [
    # accuracy coverage 95.3% (paper) / 81.9% (all); schema-listed cells measured; "General information" apart
    ("paper", (427, 448), (2322, 2688), 448, (3151, 1049), (2562, 126)),
    ("all", (878, 1072), (4266, 6432), 1072, (5693, 4357), (5268, 1164)),
])
def test_headline_counts_keep_comparable_cells_and_bookkeeping_apart(release, cohort, acc, listed, by_design,
                                                                     metrics, books):
    from helm_core.data import cohort_models

    c = headline_counts(release, cohort_models(release, cohort))
    assert (c["accuracy_measured"], c["accuracy_cells"]) == acc
    assert (c["core_cells_listed_measured"], c["core_cells_listed"]) == listed
    assert c["core_cells_by_design"] == by_design
    assert c["core_cells_listed"] + c["core_cells_by_design"] == c["core_cells"]
    assert (c["metric_values"], c["metric_blank"]) == metrics and (c["bookkeeping_values"], c["bookkeeping_blank"]) == books
    assert c["metric_values"] + c["bookkeeping_values"] == c["values"]


@pytest.mark.parametrize("models,expected", [
    ("paper", "The 21 blank cells belong to 6 models, all in the 2022 paper's cohort: GLM (130B), T0pp (11B), "
              "T5 (11B), UL2 (20B) and YaLM (100B) with 4 each; Cohere small v20220720 (410M) with 1."),
    ("all", "The 194 blank cells belong to 37 models: 31 models not in the 2022 paper's cohort (173 blanks) and "
            "6 models in the 2022 paper's cohort (21 blanks)."),
    (["GLM (130B)"], "The 4 blank cells belong to 1 model, in the 2022 paper's cohort: GLM (130B) with 4."),
    (["Llama 2 (70B)", "GLM (130B)"], "The 10 blank cells belong to 2 models: 1 model not in the 2022 paper's "
                                      "cohort (6 blanks) and 1 model in the 2022 paper's cohort (4 blanks)"),
    (["davinci (175B)"], ""),
])
def test_blank_sentence_says_whose_blanks_from_the_data(release, models, expected):
    from helm_core.data import cohort_models
    from helm_core.summary import blank_owners, blank_sentence

    chosen = cohort_models(release, models) if isinstance(models, str) else models
    s = blank_sentence(release, chosen)
    assert (expected in s) if expected else s == ""
    owners = blank_owners(release, chosen)
    assert int(owners["blanks"].sum()) == int((~exam_matrix(release, chosen)["measured"]).sum())


def test_coverage_claim_logic_holds():
    c = load_claims()["coverage_why_not_100"]
    assert "448 of 480 cells (93.3%)" in c.statement and round(448 / 480 * 100, 1) == 93.3
    assert c.values == (448.0, 480.0, 93.3)


@pytest.mark.parametrize("claim_id,confidence,kind", [
    ("grid_98_of_112", "quoted", "claim"),          # the 98/112 count rests on study notes [SEC-X]
    ("contamination_unknown", "quoted", "claim"),   # "largely unknown" rests on study notes [SEC-Q]
    ("coverage_prior_per_model", "unverified", "note"),  # about this app's sources, not a paper claim
])
def test_claim_confidence_is_the_weakest_source_and_notes_are_not_claims(claim_id, confidence, kind):
    c = load_claims()[claim_id]
    assert (c.confidence, c.kind, c.is_paper_claim) == (confidence, kind, kind == "claim")


def test_unknown_claim_kind_is_rejected(tmp_path):
    p = tmp_path / "claims.toml"
    p.write_text('[[claim]]\nid = "x"\nsection = "any"\nstatement = "s"\nsource = "s"\nconfidence = "verified"\n'
                 'kind = "rumour"\n', encoding="utf-8")
    with pytest.raises(DataError, match="kind 'rumour'"):
        load_claims(p)


# ----------------------------------------------------------------------------- the home page on any release


@pytest.mark.parametrize("measured, total, text", [(7, 7, "7"), (3, 7, "3 of 7"), (0, 7, "0 of 7"),
                                                    (2, 2, "2")])
def test_metric_groups_text(measured, total, text):
    from helm_core import summary

    assert summary.metric_groups_text(measured, total) == text


def test_a_suite_of_its_own_says_whose_blanks_without_the_paper_cohort():
    from pathlib import Path

    from helm_core import helm_output as ho, summary

    rel = ho.read_helm_output(Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516").release
    sentence = summary.blank_sentence(rel)
    assert "blank cell" in sentence and "paper" not in sentence
    assert summary.bookkeeping_metrics(rel) == ["# eval", "# train", "truncated", "# prompt tokens",
                                                "# output tokens"]


def _release_and_runs(name):
    from pathlib import Path

    from helm_core import data, helm_output

    if name == "0516":
        out = helm_output.read_helm_output(Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516")
        return out.release, out.runs
    return data.load_bundled(name), None


@pytest.mark.parametrize("name, kinds", [("classic", {"core"}), ("lite", {"own"}), ("capabilities", {"own"}),
                                         ("0516", {"other"})])
def test_scenario_table_counts_each_scenario(name, kinds):
    """One row per scenario; its models with a value, classic metric groups with a value and loaded runs, each
    recounted here from the results and runs tables."""
    from helm_core.data import CORE_GROUPS
    from helm_core.summary import scenario_table

    rel, runs = _release_and_runs(name)
    t = scenario_table(rel, runs)
    assert sorted(t["scenario"]) == sorted(rel.taxonomy.scenario_names) and set(t["kind"]) == kinds
    res = rel.results[rel.results["value"].notna()]
    for r in t.itertuples(index=False):
        sub = res[res["scenario"] == r.scenario]
        assert r[2] == sub["model"].nunique()
        assert r[3] == f"{sub.loc[sub['metric_group'].isin(CORE_GROUPS), 'metric_group'].nunique()} of 7"
        assert r.runs == (0 if runs is None else int((runs["scenario"] == r.scenario).sum()))
    if runs is not None:
        assert t["runs"].sum() == len(runs)


# ----------------------------------------------------------------------------- the exam by pattern, its sentence

from helm_core import summary as S  # noqa: E402
from helm_core.data import cohort_models  # noqa: E402


@pytest.mark.parametrize("cohort,sizes,missing", [
    ("paper", [22, 5, 1], [(), ("HellaSwag", "OpenbookQA", "MS MARCO (regular)", "MS MARCO (TREC)"),
                           ("MS MARCO (regular)",)]),
    ("all", [30, 25, 9, 1, 1, 1], None),
])
def test_exam_patterns(release, cohort, sizes, missing):
    models = cohort_models(release, cohort)
    p = S.exam_patterns(release, models)
    assert list(p["n_models"]) == sizes and list(p["pattern"]) == list(range(len(sizes)))
    assert sorted(m for ms in p["models"] for m in ms) == sorted(models)
    assert (p["n_missing"] == p["missing"].map(len)).all()
    if missing is not None:
        assert list(p["missing"]) == missing
    exam = exam_matrix(release, models)
    assert int((p["n_models"] * p["n_missing"]).sum()) == int((~exam["measured"]).sum())


@pytest.mark.parametrize("complete,n,expected", [
    (28, 28, "all 28 models"), (22, 28, "all but 6 of the 28 models"), (30, 67, "30 of the 67 models"),
    (14, 28, "all but 14 of the 28 models"), (0, 3, "none of the 3 models"), (1, 1, "the one model"),
    (0, 1, "no model"), (90, 91, "all but 1 of the 91 models"),
])
def test_complete_phrase(complete, n, expected):
    assert S.complete_phrase(complete, n) == expected


@pytest.mark.parametrize("setup,expected", [
    ({"train_max": None}, "the same prompts"),
    ({"train_max": 0, "zero_shot": ("A",)}, "the same prompts, with no in-context examples (zero-shot: HELM's # train "
                                           "is 0 in every run)"),
    ({"train_max": 5, "zero_shot": ("HellaSwag", "OpenbookQA"), "fewer_for_some": False, "trials_max": 3},
     "the same prompts and in-context examples (up to 5 in-context examples per prompt; none on "
     "HellaSwag and OpenbookQA; the example sets drawn with up to 3 seeds)"),
    ({"train_max": 1, "zero_shot": (), "fewer_for_some": True, "trials_max": None},
     "the same prompts and in-context examples (up to 1 in-context example per prompt; fewer for "
     "some models (HELM's # train averages below that in some runs))"),
])
def test_setup_phrase(setup, expected):
    assert S.setup_phrase(setup) == expected


def test_exam_setup_reads_helms_bookkeeping_columns(release):
    got = S.exam_setup(release)
    assert got["train_max"] == 5 and got["trials_max"] == 3
    assert got["zero_shot"] == ("HellaSwag", "OpenbookQA") and got["fewer_for_some"]
    bare = release.results[release.results["metric"] != "# train"]
    from dataclasses import replace

    assert S.exam_setup(replace(release, results=bare))["train_max"] is None
