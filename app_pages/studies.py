"""Targeted Studies As Microscopes: the seven targeted evaluations (data/studies.toml) and the findings that carry
numbers, drawn as the paper's claims; each study's scenarios, metrics and one key finding; and why narrow studies
see what the broad grid blurs, shown on one grid cell of the data. One section at a time (ui.components.sections)."""
from __future__ import annotations

import streamlit as st

from helm_core import content, limits_evidence
from helm_core.data import DataError
from ui import cache, charts_critique, components, presenter, state

load_studies = st.cache_resource(show_spinner=False)(content.load_studies)


@st.cache_resource(show_spinner=False)
def findings_figure(_findings, claims_key: tuple[str, ...]):
    """The small multiples of the paper's numbers; static content, so built once (st.plotly_chart only reads it)."""
    return charts_critique.paper_findings(_findings)

top_models = cache.on_release(limits_evidence.top_models)
core_cells = cache.on_release(limits_evidence.core_cells)

DEFAULT_STUDY = "reasoning"
BLUR_MODEL, BLUR_SCENARIO = "OPT (175B)", "CivilComments"  # the model and scenario of claim study_civilcomments_split

components.page_header("studies")
rel = cache.active_release()
models = cache.active_models()
claims = cache.claims()
try:
    studies = load_studies()
    overview = content.studies_table(studies, claims)
    findings = content.numeric_findings_frame(studies, claims)
except DataError as exc:
    st.error(f"The studies' content could not be loaded: {components.text(exc)}")
    st.stop()

evaluations = studies.evaluations
n_new = int(overview["new_scenarios"].sum())


def _findings() -> None:
    """The headline, the studies in one line each, and the paper's numbers: the page's main chart."""
    main_slot = presenter.main_slot()
    components.claim("headline_targeted")
    st.markdown(
        f"Besides the 16 core scenarios, HELM ran **{len(evaluations)} targeted evaluations**, each built to answer "
        f"one question. This file lists **{n_new} new targeted scenarios** in all: "
        + ", ".join(f"{components.text(r.study)} {r.new_scenarios}" for r in overview.itertuples())
        + ". The last group is not one of the seven evaluations; HELM's website lists it with them."
    )
    st.subheader("The findings that carry numbers")
    st.markdown(
        "**These are the paper's numbers, not this app's data.** Each panel is one claim from `data/claims.toml`, "
        "drawn with hatched bars and labelled with its confidence; none of them can be recomputed from release "
        "v0.4.0."
    )
    if findings.empty:
        st.info("No finding with numbers is listed in data/studies.toml.")
        return
    alt = "; ".join(
        f"{t}: " + ", ".join(f"{lab} {v:g}" for lab, v in zip(part["label"], part["value"]))
        + f" {part['unit'].iloc[0]} (paper claim, {part['confidence'].iloc[0]})"
        for t, part in findings.groupby("title", sort=False)
    )
    fig = findings_figure(findings, tuple(f"{c}={claims[c].values}" for c in dict.fromkeys(findings["claim"])))
    with presenter.into(main_slot):
        components.chart(fig, key="studies_paper_numbers", main=True,
                         alt=f"The paper's numbers, not this app's data. {alt}.", data=findings,
                         data_name="paper_numeric_findings")
        if main_slot is not None:
            st.caption("The paper's numbers, not this app's data: each panel is one claim, with its confidence.")
    for cid in dict.fromkeys(findings["claim"]):
        components.claim(cid, compact=True)


def _studies() -> None:
    """Every study in one table, then one study zoomed in: its scenarios, metrics, finding and core data."""
    st.subheader("The studies at a glance")
    components.table(
        overview[["study", "section", "new_scenarios", "reused_core", "metrics", "finding", "confidence"]],
        labels={"new_scenarios": "new scenarios", "reused_core": "reused core scenarios",
                "finding": "key finding (paper claim)", "confidence": "claim confidence"},
    )
    st.caption("Scenario membership follows HELM v0.1.0's website grouping; section numbers come from study notes, "
               "not checked against the PDF. The results of these studies are not in this app's data (release "
               "v0.4.0 holds the core scenarios only), so every finding here is the paper's, shown as a claim.")

    st.subheader("Zoom into one study")
    ids = [s.id for s in evaluations]
    state.allow("study", set(ids))
    default = DEFAULT_STUDY if DEFAULT_STUDY in ids else ids[0]
    choice = st.segmented_control("Study", ids, default=default, required=True, key="study", bind="query-params",
                                  help="The study's scenarios, metrics and key finding.")
    study = studies.by_id(choice if choice in ids else default)
    with st.container(border=True):
        st.markdown(f"#### {components.text(study.name)} · paper {components.text(study.section)}")
        st.markdown(components.text(study.summary))
        left, right = st.columns([3, 2])
        with left:
            components.table(
                [{"scenario": s.name, "main metric": s.metric,
                  "in HELM": "new targeted scenario" if s.new else "reused core scenario"} for s in study.scenarios])
            st.markdown("**Metrics:** " + ", ".join(components.text(m) for m in study.metrics))
        with right:
            st.markdown("**Key finding**")
            components.claim(study.claim)
            for cid in study.more_claims:
                components.claim(cid, compact=True)
        reused = [s.name for s in study.reused_scenarios]
        if reused:
            top = top_models(tuple(reused), models=models, n=3)
            if top.empty:
                st.info(f"None of this study's reused core scenarios ({', '.join(reused)}) has values for the "
                        f"sidebar's cohort in {rel.name}.")
            else:
                st.markdown(f"**The reused core scenarios in the data** ({rel.name}, best three of the cohort):")
                components.table(top)
                st.caption("These are the core-grid numbers of release v0.4.0, not the paper's targeted analysis, "
                           "which also ran WikiFact.")


def _why_narrow() -> None:
    st.subheader("Why narrow studies see what the broad grid blurs")
    st.markdown(studies.why_narrow)
    cells = core_cells(BLUR_MODEL, BLUR_SCENARIO, models=models)
    if cells.empty or cells["value"].isna().all():
        st.info(f"{BLUR_MODEL} on {BLUR_SCENARIO} is not in the sidebar's cohort or in {rel.name}, so the grid cell "
                "behind the example cannot be shown.")
    else:
        st.markdown(f"**What the grid holds** for {BLUR_MODEL} on {BLUR_SCENARIO} in {rel.name}:")
        components.table(cells, labels={"value": "HELM's value", "run_min": "lowest run", "run_max": "highest run",
                                        "n_runs": "runs averaged"})
        acc = cells.iloc[0]
        st.markdown(
            f"One number per metric group: accuracy **{acc['value']:.3f}**, the mean of {int(acc['n_runs']):,} runs "
            f"(HELM's subsets and seeds) that range from {acc['run_min']:.3f} to {acc['run_max']:.3f}. The grid shows "
            "the average; only the split by group shows who the classifier fails."
        )


components.sections("studies_section", {
    "Findings in numbers": _findings,
    "The studies": _studies,
    "Why narrow studies": _why_narrow,
}, keep=["study"])
components.onward("studies")
