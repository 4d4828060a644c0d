"""helm_core.statements: sentences that carry their scope, and the recurring sentences computed per release and
cohort. Numbers in the expected texts are recomputed from data/ with plain pandas."""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from helm_core import statements as S
from helm_core.data import cohort_models, load_bundled

DATA = Path(__file__).resolve().parents[2] / "data"
VIEWS = [("classic", "paper"), ("classic", "all"), ("lite", "all"), ("capabilities", "all")]


@pytest.fixture(scope="module")
def bundled():
    return {n: load_bundled(n) for n in ("classic", "lite", "capabilities")}


def say(bundled, func, name, cohort):
    rel = bundled[name]
    st = func(rel, cohort_models(rel, cohort), cohort)
    if st is not None:  # a computed sentence is true of the view it was computed on
        assert st.holds_in(S.view_scope(rel, cohort, cohort_models(rel, cohort)))
        assert st.source
    return None if st is None else st.text


# ----------------------------------------------------------------------------- the scope rule

@pytest.mark.parametrize("name,cohort,elsewhere,expected", [
    ("classic", "paper", "prefix", S.PAPER_SEEDS.text),
    ("classic", "all", "prefix", "In HELM classic's 2022 paper cohort, each model ran each few-shot scenario with 3 seeds"),
    ("lite", "all", "prefix", "In HELM classic's 2022 paper cohort, each model"),
    ("capabilities", "all", "prefix", "In HELM classic's 2022 paper cohort, each model"),
    ("classic", "all", "hide", None), ("lite", "all", "hide", None), ("classic", "paper", "hide", S.PAPER_SEEDS.text),
])
def test_a_fixed_sentence_shows_only_where_it_is_true(bundled, name, cohort, elsewhere, expected):
    view = S.view_scope(bundled[name], cohort, cohort_models(bundled[name], cohort))
    got = S.PAPER_SEEDS.render(view, elsewhere)
    if expected is None or expected == S.PAPER_SEEDS.text:
        assert got == expected
    else:
        assert got.startswith(expected) and got.endswith("averaged in each cell.")


@pytest.mark.parametrize("scope,view,covers", [
    (S.Scope("classic", "paper"), S.Scope("classic", "paper"), True), (S.Scope("classic", "paper"), S.Scope("classic", "all"), False),
    (S.Scope("classic"), S.Scope("classic", "all"), True), (S.Scope("classic"), S.Scope("lite", "all"), False),
    (S.Scope(""), S.Scope("", "all"), True),
])
def test_scope_covers(scope, view, covers):
    assert scope.covers(view) is covers


@pytest.mark.parametrize("text,label,expected", [
    ("Every model ran 3 seeds.", "X", "In X, every model ran 3 seeds."),
    ("HELM fixes one set.", "X", "In X, HELM fixes one set."),  # a name keeps its capital
    ("T5 (11B) lacks four.", "X", "In X, T5 (11B) lacks four."),
])
def test_prefix_keeps_names(text, label, expected):
    st = S.Statement(text, S.Scope("classic", "paper", label))
    assert st.render(S.Scope("lite", "all")) == expected
    assert S.Statement(text).render(S.Scope("lite")) == text  # no scope: true everywhere
    with pytest.raises(ValueError, match="elsewhere"):
        st.render(S.Scope("lite"), "maybe")


def test_view_scope_labels_the_cohort(bundled):
    rel = bundled["classic"]
    assert S.view_scope(rel, "paper", cohort_models(rel, "paper")).label == \
        "HELM classic v0.4.0, the 2022 paper's cohort (28 models)"
    assert S.view_scope(rel, "all").label == "HELM classic v0.4.0, every model of the release (67 models)"


# ----------------------------------------------------------------------------- the recurring sentences

def _lacking(name, cohort):
    base = DATA if name == "classic" else DATA / "releases" / name
    res, models = pd.read_csv(base / "results.csv"), pd.read_csv(base / "models.csv")
    names = models.loc[models["paper_cohort"], "model"] if cohort == "paper" else models["model"]
    acc = res[(res["metric_group"] == "accuracy") & res["value"].notna()]
    per = acc.groupby("model")["scenario"].nunique().reindex(names).fillna(0)
    return int((per < res["scenario"].nunique()).sum()), len(names), res["scenario"].nunique()


@pytest.mark.parametrize("name,cohort,expected", [
    ("classic", "paper", "All but {k} of the {n} models have a value in every one of the {s} scenarios."),
    ("classic", "all", "{full} models have a value in every one of the {s} scenarios; the other {k} lack at least one "
                       "(55.2% of the {n} models)."),
    ("lite", "all", "All but {k} of the {n} models have a value in every one of the {s} scenarios."),
    ("capabilities", "all", "Every one of the {n} models has a value in every one of the {s} scenarios: the same exam "
                            "for all."),
])
def test_same_exam(bundled, name, cohort, expected):
    k, n, s = _lacking(name, cohort)
    assert say(bundled, S.same_exam, name, cohort) == expected.format(k=k, n=n, s=s, full=n - k)
    assert (name, cohort, k, n) in {("classic", "paper", 6, 28), ("classic", "all", 37, 67), ("lite", "all", 1, 91),
                                    ("capabilities", "all", 0, 68)}


@pytest.mark.parametrize("name,cohort,expected", [
    ("classic", "paper", "Each of the 28 models ran up to 3 seeds: 3 draws of in-context examples, averaged in each "
                         "cell (HellaSwag and OpenbookQA are zero-shot: no examples to draw, one run each)."),
    ("classic", "all", "The cohort mixes seed counts (draws of in-context examples): 25 of the 67 models ran one seed "
                       "and the other 42 ran 3 seeds (HellaSwag and OpenbookQA are zero-shot: no examples to draw, one "
                       "run each)."),
    ("lite", "all", "Each of the 91 models ran one seed: one draw of in-context examples per scenario, so no cell "
                    "shows a spread over draws."),
    ("capabilities", "all", "Zero-shot: no prompt carries an in-context example, so there is no draw of examples to "
                            "repeat; each cell is one run."),
])
def test_seeds(bundled, name, cohort, expected):
    assert say(bundled, S.seeds, name, cohort) == expected
    if name != "classic":
        assert "3 seeds" not in expected


@pytest.mark.parametrize("name,cohort,shown", [("classic", "paper", True), ("classic", "all", True),
                                               ("lite", "all", True), ("capabilities", "all", False)])
def test_same_examples_not_on_a_zero_shot_release(bundled, name, cohort, shown):
    text = say(bundled, S.same_examples, name, cohort)
    assert (text is not None) is shown
    if shown:
        assert "same in-context examples" in text


def test_limited_functionality_blanks(bundled):
    paper = say(bundled, S.limited_functionality_blanks, "classic", "paper")
    assert paper == ("GLM (130B), T0pp (11B), T5 (11B), UL2 (20B) and YaLM (100B) are what HELM runs as "
                     "limited-functionality models: they cannot return prompt log-probabilities, so HellaSwag, "
                     "OpenbookQA, MS MARCO (regular) and MS MARCO (TREC) were not run for them.")
    everyone = say(bundled, S.limited_functionality_blanks, "classic", "all")
    assert everyone.startswith(paper) and everyone.endswith(
        "InstructPalmyra (30B), Luminous Base (13B), Luminous Extended (30B) and Luminous Supreme (70B) lack the same 4 "
        "scenarios; the data gives no reason.")
    assert say(bundled, S.limited_functionality_blanks, "lite", "all") is None
    assert say(bundled, S.limited_functionality_blanks, "capabilities", "all") is None
    rel = bundled["classic"]  # in a cohort without them, nothing to explain
    assert S.limited_functionality_blanks(rel, ["text-davinci-002", "davinci (175B)"]) is None


@pytest.mark.parametrize("name,cohort,cells", [("classic", "paper", 252), ("classic", "all", 460), ("lite", "all", None),
                                               ("capabilities", "all", None)])
def test_toxic_fraction_caption_only_where_toxicity_cells_exist(bundled, name, cohort, cells):
    text = say(bundled, S.toxic_fraction_caption, name, cohort)
    if cells is None:
        assert text is None
    else:
        assert "toxic fraction" in text and f"({cells} cells with a value here)" in text


@pytest.mark.parametrize("name,word,absent", [("classic", "denoised inference time", "observed inference time"),
                                              ("lite", "observed inference time", "denoised inference time"),
                                              ("capabilities", "observed inference time", "denoised inference time")])
def test_efficiency_wording_per_release(bundled, name, word, absent):
    text = say(bundled, S.efficiency_wording, name, "all")
    assert word in text and absent not in text
    groups = pd.read_csv((DATA if name == "classic" else DATA / "releases" / name) / "metric_groups.csv")
    definition = groups.set_index("metric_group").loc["efficiency", "definition"].lower()
    assert word.split()[0] in definition  # the release's own definition says the same


@pytest.mark.parametrize("name,cohort,expected", [
    ("classic", "paper", "This cohort's 8 OpenAI rows mix GPT-3 (ada (350M), babbage (1.3B), curie (6.7B) and davinci "
                         "(175B)) and InstructGPT (text-ada-001, text-babbage-001, text-curie-001 and text-davinci-002) "
                         "as the 2022 paper named them. HELM marks only the InstructGPT sizes speculative (\"*\": OpenAI "
                         "did not disclose them)."),
    ("lite", "all", "This cohort has 9 OpenAI rows. No size is marked speculative in this release's model list."),
])
def test_openai_rows(bundled, name, cohort, expected):
    text = say(bundled, S.openai_rows, name, cohort)
    assert text.startswith(expected)
    models = pd.read_csv((DATA if name == "classic" else DATA / "releases" / name) / "models.csv")
    openai = models[models["organization"] == "OpenAI"]
    if cohort == "paper":
        openai = openai[openai["paper_cohort"]]
    assert f"{len(openai)} OpenAI rows" in text
    assert set(openai.loc[openai["params_speculative"], "model"]) == (
        {"text-ada-001", "text-babbage-001", "text-curie-001", "text-davinci-002"} if name == "classic" else set())


def test_no_openai_sentence_without_openai_rows(bundled):
    rel = bundled["classic"]
    assert S.openai_rows(rel, ["T5 (11B)", "BLOOM (176B)"]) is None


def _spearman(name, cohort):
    base = DATA if name == "classic" else DATA / "releases" / name
    res, models = pd.read_csv(base / "results.csv"), pd.read_csv(base / "models.csv")
    if cohort == "paper":
        models = models[models["paper_cohort"]]
    acc = res[(res["metric_group"] == "accuracy") & res["value"].notna()]
    n = acc.groupby("model")["scenario"].nunique().reindex(models["model"]).fillna(0)
    d = pd.to_datetime(models.set_index("model")["release_date"]).reindex(n.index)
    ranks = pd.DataFrame({"d": d.rank(), "n": n.rank()})
    return ranks["d"].corr(ranks["n"]), n


@pytest.mark.parametrize("name,cohort,strength,lean", [
    ("classic", "paper", "a weak", "no clear tendency either way"),
    ("classic", "all", "a strong", "newer models tend to have fewer scenarios"),
    ("lite", "all", "no", "no clear tendency either way"),
])
def test_coverage_and_date_is_computed(bundled, name, cohort, strength, lean):
    rho, n = _spearman(name, cohort)
    text = say(bundled, S.coverage_and_date, name, cohort)
    assert f"show {strength} relation" in text and f"(Spearman rank correlation {rho:+.2f}): {lean}." in text
    if cohort == "paper":  # "newer models were measured on fewer scenarios" is not what the paper cohort shows
        assert abs(rho) < 0.3 and "newer models tend to have fewer" not in text
        fewest = sorted(n.index[n == n.min()])
        assert fewest == ["GLM (130B)", "T0pp (11B)", "T5 (11B)", "UL2 (20B)", "YaLM (100B)"]
        assert text.endswith("5 models have the fewest, 12 scenarios: GLM (130B), T0pp (11B), T5 (11B), UL2 (20B) and "
                             "YaLM (100B), HELM's limited-functionality models.")


def test_coverage_and_date_needs_a_spread(bundled):
    assert say(bundled, S.coverage_and_date, "capabilities", "all") is None  # every model has all 5


@pytest.mark.parametrize("name,cohort", VIEWS)
def test_no_sentence_says_what_its_view_contradicts(bundled, name, cohort):
    """Words that describe data are computed: "every"/"all" only when no model lacks a scenario, "3 seeds" only
    where a model ran 3, "toxic" only where toxicity cells exist."""
    texts = [say(bundled, f, name, cohort) for f in (S.same_exam, S.seeds, S.same_examples, S.toxic_fraction_caption,
                                                     S.efficiency_wording, S.openai_rows, S.coverage_and_date,
                                                     S.limited_functionality_blanks)]
    joined = " ".join(t for t in texts if t)
    k, n, _ = _lacking(name, cohort)
    assert ("Every one of the" in joined) == (k == 0)
    assert ("3 seeds" in joined or "up to 3 seeds" in joined) == (name == "classic")
    assert ("toxic" in joined) == (name == "classic")
    assert not re.search(r"\b(nan|inf)\b", joined)
