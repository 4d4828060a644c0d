"""Targeted Studies As Microscopes: the seven targeted evaluations (data/studies.toml) and the findings that carry
numbers, drawn as the paper's claims; each study's scenarios, metrics and one key finding; and why narrow studies
see what the broad grid blurs, shown on one grid cell of the data.

Slides: the paper's numbers (small multiples of claims), the studies (scenarios per study, one study zoomed in
below), and one grid cell as the runs it averages (on the route where the loaded release and cohort hold it)."""
from __future__ import annotations

import streamlit as st

from helm_core import fmt, limits_evidence, studies as study_book
from helm_core.data import GROUP_LABELS, DataError
from ui import cache, charts_critique, components, slides, state
from ui.slides import Chart, Ctx, Slide, View

load_studies = st.cache_resource(show_spinner=False)(study_book.load_studies)
top_models = cache.on_release(limits_evidence.top_models)
core_cells = cache.on_release(limits_evidence.core_cells)

DEFAULT_STUDY = "reasoning"
BLUR_MODEL, BLUR_SCENARIO = "OPT (175B)", "CivilComments"  # the model and scenario of claim study_civilcomments_split
TEXT = components.text


def _content():
    """The studies, their overview table and the numeric findings (DataError when a content file is broken)."""
    studies = load_studies()
    claims = cache.claims()
    return studies, study_book.studies_table(studies, claims), study_book.numeric_findings_frame(studies, claims)


def _broken(exc: DataError) -> View:
    msg = f"The studies' content could not be loaded: {TEXT(exc)}"
    return View(point=msg, empty=msg, empty_kind="warning")


# ----------------------------------------------------------------------------- the paper's numbers


def findings_view(ctx: Ctx) -> View:
    try:
        studies, overview, findings = _content()
    except DataError as exc:
        return _broken(exc)
    evaluations = studies.evaluations
    n_new = int(overview["new_scenarios"].sum())
    talk = [f"Besides the 16 core scenarios, HELM ran **{len(evaluations)} targeted evaluations**, each built to "
            f"answer one question. This file lists **{n_new} new targeted scenarios** in all: "
            + ", ".join(f"{TEXT(r.study)} {r.new_scenarios}" for r in overview.itertuples())
            + ". The last group is not one of the seven evaluations; HELM's website lists it with them."]
    notes = ["**These are the paper's numbers, not this app's data.** Each panel is one claim from `data/claims.toml`, "
             "drawn with hatched bars and labelled with its confidence; none of them can be recomputed from release "
             "v0.4.0."]
    claim_ids = ["headline_targeted"] + list(dict.fromkeys(findings["claim"]))
    if findings.empty:
        return View(point=f"HELM ran {len(evaluations)} targeted evaluations; no finding with numbers is listed.",
                    empty="No finding with numbers is listed in data/studies.toml.", talk=talk, claims=claim_ids,
                    notes=notes)
    alt = "; ".join(
        f"{t}: " + ", ".join(f"{lab} {v:g}" for lab, v in zip(part["label"], part["value"]))
        + f" {part['unit'].iloc[0]} (paper claim, {part['confidence'].iloc[0]})"
        for t, part in findings.groupby("title", sort=False))
    chart = Chart(charts_critique.paper_findings(findings, ctx.mode), key="studies_paper_numbers",
                  alt=f"The paper's numbers, not this app's data. {alt}.", data=findings,
                  data_name="paper_numeric_findings")
    n_claims = findings["claim"].nunique()
    point = (f"HELM ran {len(evaluations)} targeted evaluations with {n_new} new scenarios; "
             f"{fmt.count(n_claims, 'finding')} carry numbers, drawn here as the paper's claims, not this app's data.")
    return View(point=point, visual=chart, talk=talk, claims=claim_ids, notes=notes,
                read="Hatched purple bars: the paper's numbers (claims), one panel per finding, with its unit and "
                     "how sure this app is of it.")


# ----------------------------------------------------------------------------- the studies, one zoomed in


def _study_ids(studies) -> list[str]:
    return [s.id for s in studies.evaluations]


def study_controls(ctx: Ctx) -> None:
    try:
        studies = load_studies()
    except DataError:
        return None
    ids = _study_ids(studies)
    state.allow("study", set(ids))
    default = DEFAULT_STUDY if DEFAULT_STUDY in ids else ids[0]
    st.segmented_control("Study", ids, default=default, required=True, key="study", bind="query-params",
                         help="The study's scenarios, metrics and key finding.")
    return None


def _chosen(ctx: Ctx, studies) -> str:
    ids = _study_ids(studies)
    default = DEFAULT_STUDY if DEFAULT_STUDY in ids else ids[0]
    return ctx.get("study", default, ids)


def studies_view(ctx: Ctx) -> View:
    try:
        studies, overview, _ = _content()
    except DataError as exc:
        return _broken(exc)
    chosen = _chosen(ctx, studies)
    study = studies.by_id(chosen)
    most = overview.loc[overview["new_scenarios"].idxmax()]
    chart = Chart(charts_critique.study_scenarios_bars(overview, chosen, ctx.mode), key="studies_scenarios",
                  alt="Scenarios per targeted study: " + "; ".join(
                      f"{r.study}: {r.new_scenarios} new, {r.reused_core} reused core" for r in overview.itertuples())
                      + f". Outlined: {study.name}.",
                  data=overview.drop(columns=["id"]), data_name="targeted_studies")
    zoom = ", zoomed in below" if most["id"] == chosen else f"; {TEXT(study.name)} is zoomed in below"
    point = (f"{fmt.count(len(studies.evaluations), 'targeted evaluation')}, "
             f"{fmt.count(int(overview['new_scenarios'].sum()), 'new scenario')}: {TEXT(most['study'])} adds the most "
             f"({most['new_scenarios']}){zoom}.")
    talk = [f"{TEXT(study.name)} (paper {TEXT(study.section)}): {fmt.count(len(study.new_scenarios), 'new scenario')}"
            f", {fmt.count(len(study.reused_scenarios), 'reused core scenario')}.",
            f"Key finding: {TEXT(study.finding)}"]
    return View(point=point, visual=chart, talk=talk,
                notes=["Scenario membership follows HELM v0.1.0's website grouping; section numbers come from study "
                       "notes, not checked against the PDF. The results of these studies are not in this app's data "
                       "(release v0.4.0 holds the core scenarios only), so every finding here is the paper's, shown "
                       "as a claim."],
                read="Blue: the new targeted scenarios a study built; grey: the core scenarios it reuses. The "
                     "outlined bar is the study zoomed in below (pick another with the Study control).")


def studies_details(ctx: Ctx, view: View, event) -> None:
    """Every study in one table, then one study zoomed in: its scenarios, metrics, finding and core data."""
    try:
        studies, overview, _ = _content()
    except DataError:
        return
    st.subheader("The studies at a glance")
    components.table(
        overview[["study", "section", "new_scenarios", "reused_core", "metrics", "finding", "confidence"]],
        labels={"new_scenarios": "new scenarios", "reused_core": "reused core scenarios",
                "finding": "key finding (paper claim)", "confidence": "claim confidence"})
    study = studies.by_id(_chosen(ctx, studies))
    st.subheader("Zoom into one study")
    with st.container(border=True):
        st.markdown(f"#### {TEXT(study.name)} · paper {TEXT(study.section)}")
        st.markdown(TEXT(study.summary))
        left, right = st.columns([3, 2])
        with left:
            components.table(
                [{"scenario": s.name, "main metric": s.metric,
                  "in HELM": "new targeted scenario" if s.new else "reused core scenario"} for s in study.scenarios])
            st.markdown("**Metrics:** " + ", ".join(TEXT(m) for m in study.metrics))
        with right:
            st.markdown("**Key finding**")
            components.claim(study.claim)
            for cid in study.more_claims:
                components.claim(cid, compact=True)
        reused = [s.name for s in study.reused_scenarios]
        if reused:
            top = top_models(tuple(reused), models=ctx.models, n=3)
            if top.empty:
                st.info(f"None of this study's reused core scenarios ({', '.join(reused)}) has values for the "
                        f"sidebar's cohort in {TEXT(ctx.rel.name)}.")
            else:
                st.markdown(f"**The reused core scenarios in the data** ({TEXT(ctx.rel.name)}, best three of the "
                            "cohort):")
                components.table(top)
                st.caption("These are the core-grid numbers of the loaded release, not the paper's targeted "
                           "analysis, which also ran WikiFact.")


# ----------------------------------------------------------------------------- why narrow studies: one grid cell


def _blur_cells(ctx: Ctx):
    return core_cells(BLUR_MODEL, BLUR_SCENARIO, models=ctx.models)


def _has_blur(ctx: Ctx) -> bool:
    cells = _blur_cells(ctx)
    return not (cells.empty or cells["value"].isna().all() or cells["run_min"].isna().all())


def narrow_view(ctx: Ctx) -> View:
    rel = ctx.rel
    cells = _blur_cells(ctx)
    if cells.empty or cells["value"].isna().all():
        held = BLUR_MODEL in set(rel.model_names) and BLUR_SCENARIO in set(rel.taxonomy.scenario_names)
        where = "the sidebar's cohort" if held else TEXT(rel.name)
        msg = f"{BLUR_MODEL} on {BLUR_SCENARIO} is not in {where}, so the grid cell behind the example cannot be shown."
        return View(point=f"A targeted study splits what one grid cell averages; {TEXT(rel.name)} and this cohort "
                          f"hold no {BLUR_MODEL} cell on {BLUR_SCENARIO} to show it.", empty=msg)
    acc = cells.iloc[0]
    chart = Chart(charts_critique.cell_runs(cells, ctx.mode), key="studies_blur",
                  alt=(f"{BLUR_MODEL} on {BLUR_SCENARIO} in {rel.name}: " + "; ".join(
                      f"{GROUP_LABELS.get(r.metric_group, r.metric_group)} {fmt.value(r.value)}, runs "
                      f"{fmt.value(r.run_min)} to {fmt.value(r.run_max)} ({fmt.count(r.n_runs, 'run')})"
                      for r in cells.itertuples()) + "."),
                  data=cells, data_name="grid_cell_runs")
    point = (f"The grid's one number for {BLUR_MODEL} on {BLUR_SCENARIO}: accuracy **{acc['value']:.3f}**, the mean "
             f"of {int(acc['n_runs']):,} runs from {acc['run_min']:.3f} to {acc['run_max']:.3f}.")
    talk = [f"One number per metric group: accuracy **{acc['value']:.3f}**, the mean of {int(acc['n_runs']):,} runs "
            f"(HELM's subsets and seeds) that range from {acc['run_min']:.3f} to {acc['run_max']:.3f}.",
            "The grid shows the average; only the split by group shows who the classifier fails."]
    return View(point=point, visual=chart, talk=talk, claims=["study_civilcomments_split"],
                notes=[f"What the grid holds for {BLUR_MODEL} on {BLUR_SCENARIO} in {TEXT(rel.name)}: HELM's value "
                       "and the lowest and highest of the runs averaged into it."],
                read="The dot is the value the grid shows; the line runs from the lowest run (▲ pointing left) to the "
                     "highest (▲ pointing right).")


def narrow_details(ctx: Ctx, view: View, event) -> None:
    try:
        studies = load_studies()
    except DataError:
        return
    st.markdown("**Why narrow studies see what the broad grid blurs**")
    st.markdown(studies.why_narrow)
    cells = _blur_cells(ctx)
    if not (cells.empty or cells["value"].isna().all()):
        components.table(cells, labels={"value": "HELM's value", "run_min": "lowest run", "run_max": "highest run",
                                        "n_runs": "runs averaged"})


def studies_slides(ctx: Ctx) -> list[Slide]:
    return [
        Slide("findings", "Findings in numbers", view=findings_view),
        Slide("studies", "The studies", view=studies_view, controls=study_controls, details=studies_details),
        Slide("narrow", "Why narrow studies", view=narrow_view, details=narrow_details, on_route=_has_blur(ctx)),
    ]


DECK = slides.Deck("studies", studies_slides, keep=["study"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
