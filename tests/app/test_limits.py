"""The limits stepper: Back/Next move one step, the picker jumps, ?step=N opens step N, bad values fall back to
step 1 with a notice, only the current step renders, and each step's evidence follows the cohort. Every step is a
slide with a visual (a chart, or the claims' table), on the presenter route wherever the loaded data can draw it;
PageDown walks every step there, with one Next on screen."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from .critique_helpers import open_at, page_links
from .helpers import open_story_page, tables, texts
from helm_core import claims, critique
from ui import nav

DATA = Path(__file__).resolve().parents[2] / "data"

PAGE = nav.spec_for("limits").file
STEPS = critique.load_steps()
N = len(STEPS)
CLAIMS = claims.load_claims()


def _heading(at) -> str:
    return at.subheader[0].value


def _assert_on_step(at, k: int) -> None:
    step = STEPS[k - 1]
    assert at.session_state["step"] == k
    assert at.selectbox(key="step").value == k
    assert _heading(at) == f"{k}. {step.title}"
    assert at.get("progress")[0].proto.text.startswith(f"Step {k} of {N}:")
    # only the current step is rendered
    others = [s.title for i, s in enumerate(STEPS, start=1) if i != k]
    assert not any(h.value.endswith(t) for h in at.subheader for t in others)


def test_next_and_back_walk_every_step():
    at = open_at(PAGE)
    _assert_on_step(at, 1)
    assert at.button(key="step_back").disabled
    for k in range(2, N + 1):
        at.button(key="step_next").click().run()
        _assert_on_step(at, k)
    assert at.button(key="step_next").disabled
    for k in range(N - 1, 0, -1):
        at.button(key="step_back").click().run()
        _assert_on_step(at, k)


def test_buttons_have_arrow_key_shortcuts():
    at = open_at(PAGE)
    assert at.button(key="step_back").proto.shortcut == "left"
    assert at.button(key="step_next").proto.shortcut == "right"


@pytest.mark.parametrize("k", range(1, N + 1))
def test_step_from_the_url_renders_that_step_with_its_claims(k):
    at = open_at(PAGE, {"step": str(k)})
    _assert_on_step(at, k)
    shown = texts(at)
    for cid in STEPS[k - 1].claims:
        assert CLAIMS[cid].statement in shown, cid
    assert not at.warning


@pytest.mark.parametrize("bad", ["0", str(N + 1), "abc", "-1", "2.5", "", "<script>", "1,2"])
def test_bad_step_falls_back_to_step_one_with_a_notice(bad):
    at = open_at(PAGE, {"step": bad})
    _assert_on_step(at, 1)
    assert any("showing step 1" in w.value for w in at.warning)


def test_picker_jumps_and_next_continues_from_there():
    at = open_at(PAGE)
    at.selectbox(key="step").set_value(6).run()
    _assert_on_step(at, 6)
    at.button(key="step_next").click().run()
    _assert_on_step(at, 7)


VISUALS = {"dense": "limits_dense", "blank_cells": "limits_blank_cells", "model_set": "limits_model_set",
           "seed_spread": "limits_seed_spread", "contamination": "limits_contamination",
           "moving_target": "limits_moving_target", "release_groups": "limits_successors"}


@pytest.mark.parametrize("k", range(1, N + 1))
def test_every_step_draws_its_visual(k):
    """A chart with its text alternative, or (a step of the paper's claims only) the claims as one table."""
    at = open_at(PAGE, {"step": str(k)})
    step = STEPS[k - 1]
    charts = at.get("plotly_chart")
    if step.evidence == "claims":
        assert not charts
        table = tables(at)[0]
        assert len(table) == len(step.claims)
        assert list(table["claim confidence"]) == [CLAIMS[c].confidence for c in step.claims]
        for cid, what, says in zip(step.claims, table["what"], table[table.columns[1]]):
            assert f"{what}: {says}".lower() == CLAIMS[cid].statement.lower()
    else:
        assert len(charts) == 1 and charts[0].proto.alt
        assert charts[0].proto.id.endswith(VISUALS[step.evidence])


def test_dense_step_sets_the_papers_numbers_beside_the_data():
    at = open_at(PAGE, {"step": "1", "cohort": "all"})
    alt = at.get("plotly_chart")[0].proto.alt
    before, paper = CLAIMS["coverage_jump"].values[:2]
    assert f"{before:.1f}% (paper claim)" in alt and f"{paper:.1f}% (paper claim)" in alt
    assert "HELM classic v0.4.0, 67 models of this cohort (data): 81.9% (data)" in alt
    assert "HELM classic v0.4.0 puts 67 models on one exam of 16 core scenarios: 81.9%" in texts(at)


def test_successor_step_counts_the_groups_each_release_measures():
    """Recomputed from each release's results file: the groups with a value, and those gone from both successors."""
    groups = ["accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency"]
    have = {}
    for name in ("classic", "lite", "capabilities"):
        res = pd.read_csv(DATA / "results.csv" if name == "classic" else DATA / "releases" / name / "results.csv")
        have[name] = [g for g in groups if g in set(res.loc[res["value"].notna(), "metric_group"])]
    k = next(i for i, s in enumerate(STEPS, start=1) if s.evidence == "release_groups")
    at = open_at(PAGE, {"step": str(k)})
    t = texts(at)
    assert len(have["lite"]) == len(have["capabilities"])
    assert (f"HELM Lite v1.13.0 and HELM Capabilities v1.15.0 each keep {len(have['lite'])} of the "
            f"{len(have['classic'])} metric groups HELM classic v0.4.0 measures.") in t
    gone = [g for g in have["classic"] if g not in have["lite"] and g not in have["capabilities"]]
    assert "Gone from every successor's tables: " + ", ".join(gone[:-1]) + f" and {gone[-1]}." in t


def test_model_set_step_changes_with_the_model():
    at = open_at(PAGE, {"cohort": "all", "step": "3"})
    before = texts(at)
    assert "Cohere xlarge v20220609 (52.4B)" == at.selectbox(key="rival_model").value
    assert "0.56" in before and "0.75" in before  # 67-model cohort vs the paper's 28
    at.selectbox(key="rival_model").set_value("OPT (175B)").run()
    after = texts(at)
    assert after != before and "0.61" in after


def test_model_from_the_url():
    at = open_at(PAGE, {"step": "3", "rival_model": "OPT (175B)"})
    assert at.selectbox(key="rival_model").value == "OPT (175B)"


def test_contamination_step_lists_flagged_cells():
    at = open_at(PAGE, {"cohort": "all", "step": "5"})
    m = {x.label: x.value for x in at.metric}
    assert m["☠ strongly contaminated cells"] == "4" and m["⚠ weaker flags"] == "54"
    table = at.dataframe[0].value
    assert set(table.loc[table["flag"].str.startswith("☠"), "model"]) == {"T0pp (11B)"}
    assert "T0++ is explicitly trained" in texts(at)


def test_contamination_step_follows_the_cohort():
    at = open_at(PAGE, {"step": "5", "cohort": "paper", "access": "closed"})
    assert any("No cell of this cohort carries a contamination flag" in i.value for i in at.info)


def test_moving_target_says_the_data_disagrees():
    at = open_at(PAGE, {"step": "7"})
    t = texts(at)
    assert "The data disagrees with the paper" in t
    assert "38.9% in the paper, 31.9% in HELM classic v0.4.0" in t


def test_moving_target_without_the_model_in_the_cohort():
    """The paper's numbers alone, as a chart of claims, saying why."""
    at = open_at(PAGE, {"step": "7", "access": "open"})
    assert "TNLG v2 (530B) on NarrativeQA is not in the sidebar's cohort, so only the paper's claim is shown" \
        in texts(at)
    assert CLAIMS["robustness_tracks_accuracy"].statement in texts(at)  # the claim still shows
    alt = at.get("plotly_chart")[0].proto.alt
    assert "72.6% (paper claim)" in alt and "38.9% (paper claim)" in alt and "classic" not in alt


@pytest.mark.parametrize("release,name", [("lite", "HELM Lite v1.13.0"), ("capabilities", "HELM Capabilities v1.15.0")])
def test_moving_target_on_a_release_without_the_model(release, name):
    at = open_story_page(PAGE, {"step": "7", "release": release})
    assert f"TNLG v2 (530B) on NarrativeQA is not in {name}, so only the paper's claim is shown" in texts(at)
    assert "This step's text is about HELM classic and its 2022 paper; the chart above shows the paper's numbers " \
           "only." in texts(at)


# ----------------------------------------------------------------------------- what each sentence is true of


@pytest.mark.parametrize("k,phrase", [
    (1, "the chart above is computed from HELM Lite v1.13.0"),
    (2, "the chart above is computed from HELM Lite v1.13.0"),
    (3, "the chart above is computed from HELM Lite v1.13.0"),
    (4, "HELM Lite v1.13.0 has nothing to draw for this step"),  # one seed: no seed spread
    (5, "HELM Lite v1.13.0 has nothing to draw for this step"),  # no contamination flag
    (6, "the table above lists the paper's own claims"),
    (8, "the chart above compares the three bundled releases"),
])
def test_on_a_later_release_the_text_says_what_it_is_true_of(k, phrase):
    at = open_story_page(PAGE, {"step": str(k), "release": "lite"})
    t = texts(at)
    assert f"This step's text is about HELM classic and its 2022 paper; {phrase}." in t
    assert "evidence below is computed" not in t


def test_on_classic_the_text_needs_no_such_note():
    at = open_at(PAGE, {"step": "2"})
    assert "This step's text is about HELM classic" not in texts(at)


# ----------------------------------------------------------------------------- presenter mode


def test_presenter_pagedown_walks_every_step():
    at = open_story_page(PAGE, {"present": "1", "step": "1"})
    assert "**Step " in texts(at)
    walked = [1]
    for k in range(2, N + 1):
        assert not [b for b in at.button if b.key in ("step_next", "step_back")]  # one Next on screen: the bar's
        at.button(key="present_next").click().run()
        assert at.session_state["step"] == k, walked
        walked.append(k)
        assert at.get("plotly_chart") or tables(at), k  # every step shows its visual
    assert walked == list(range(1, N + 1))


def test_presenter_route_skips_steps_a_later_release_cannot_draw():
    """Lite runs one seed and flags no contamination: PageDown goes from step 3 to step 6."""
    at = open_story_page(PAGE, {"present": "1", "step": "3", "release": "lite"})
    assert at.session_state["step"] == 3
    at.button(key="present_next").click().run()
    assert at.session_state["step"] == 6
    at.button(key="present_prev").click().run()
    assert at.session_state["step"] == 3


def test_small_cohort_recomputes_among_its_models():
    at = open_at(PAGE, {"step": "3", "access": "closed", "cohort": "paper"})
    assert at.selectbox(key="rival_model").options == ["Anthropic-LM v4-s3 (52B)", "TNLG v2 (530B)", "TNLG v2 (6.7B)"]
    assert "of 3" in at.get("plotly_chart")[0].proto.alt


@pytest.mark.parametrize("k", [1, 2, 4])
def test_small_cohort_data_steps(k):
    at = open_at(PAGE, {"step": str(k), "access": "closed", "cohort": "paper"})
    assert at.session_state["step"] == k and not at.info
    assert at.get("plotly_chart") or at.metric


def test_blank_cells_step_links_to_the_grid():
    at = open_at(PAGE, {"step": "2"})
    if any(p.url_path == "grid" for p in nav.available_pages()):
        assert any(page == "grid" for _, page, _ in page_links(at))
    else:
        assert "16 × 7 Core Grid, blank cells called out (that section is not in this build)" in texts(at)


@pytest.mark.parametrize("cohort,models,coverage", [("all", "67", "81.9%"), ("paper", "28", "95.3%")])
def test_dense_step_computes_coverage_for_the_cohort(cohort, models, coverage):
    at = open_at(PAGE, {"step": "1", "cohort": cohort})
    m = {x.label: x.value for x in at.metric}
    assert m["Models, same exam"] == models and m["Accuracy measured"] == coverage


@pytest.mark.parametrize("release", ["lite", "capabilities"])
def test_a_later_releases_blanks_are_not_called_by_design(release):
    """The grid page says a later release publishes no reason for its blank groups (its tables simply hold no such
    column); the walk's blank-cells step says the same, never "by design" with classic's schema as the reason."""
    step = next(s for s in STEPS if s.evidence == "blank_cells")
    at = open_story_page(PAGE, query={"release": release, "step": str(STEPS.index(step) + 1)})
    point = next(m.value for m in at.markdown if "model × scenario cell" in m.value)
    assert "by design" not in point and "not in the release's tables" in point
    assert "by design" not in at.get("plotly_chart")[0].proto.spec
