"""The limits stepper: Back/Next move one step, the picker jumps, ?step=N opens step N, bad values fall back to
step 1 with a notice, only the current step renders, and each step's evidence follows the cohort."""
from __future__ import annotations

import pytest

from helm_core import content
from ui import nav

from .critique_helpers import open_at, page_links
from .helpers import texts

PAGE = nav.spec_for("limits").file
STEPS = content.load_steps()
N = len(STEPS)
CLAIMS = content.load_claims()


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


@pytest.mark.parametrize("k,chart_key", [(2, "limits_blank_cells"), (3, "limits_model_set"),
                                         (4, "limits_seed_spread"), (7, "limits_moving_target")])
def test_data_steps_draw_their_chart(k, chart_key):
    at = open_at(PAGE, {"step": str(k)})
    charts = at.get("plotly_chart")
    assert len(charts) == 1 and charts[0].proto.alt, chart_key


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
    at = open_at(PAGE, {"step": "7", "access": "open"})
    assert any("TNLG v2 (530B) on NarrativeQA is not in the sidebar's cohort" in i.value for i in at.info)
    assert CLAIMS["robustness_tracks_accuracy"].statement in texts(at)  # the claim still shows


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
