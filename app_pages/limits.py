"""Where "Holistic" Still Breaks: a guided walk (data/limits.toml) from HELM's contribution to its blind spots.
Only the current step is rendered; its evidence comes from the data where the data can show it."""
from __future__ import annotations

import streamlit as st

from helm_core import content, fmt, limits_evidence, summary
from helm_core.data import DataError
from ui import cache, charts_critique, components, state, stepper

load_steps = st.cache_resource(show_spinner=False)(content.load_steps)
headline_counts = cache.on_release(summary.headline_counts)
blank_sentence = cache.on_release(summary.blank_sentence)
blank_cells = cache.on_release(limits_evidence.blank_cells_by_group)
model_set_effect = cache.on_release(limits_evidence.model_set_effect)
seed_ranges = cache.on_release(limits_evidence.seed_ranges)
contamination_cells = cache.on_release(limits_evidence.contamination_cells)
moving_target = cache.on_release(limits_evidence.moving_target)

RIVAL_KEY = "rival_model"
DEFAULT_RIVAL_MODEL = "Cohere xlarge v20220609 (52.4B)"

components.page_header("limits")
rel = cache.active_release()
models = cache.active_models()
try:
    steps = load_steps()
except DataError as exc:
    st.error(f"The stepper's content could not be loaded: {components.text(exc)}")
    st.stop()

# Declared on every run, whichever step shows, so a shared link's model survives until step 3 reads it.
state.allow(RIVAL_KEY, set(models))

NO_MODELS = "No model matches the sidebar's cohort and access filter, so there is nothing to compute here. Widen the filter."


def evidence_dense() -> None:
    if not models:
        st.info(NO_MODELS)
        return
    c = headline_counts(models)
    cols = st.columns(4)
    cols[0].metric("Models, same exam", fmt.count(c["models"]))
    cols[1].metric("Core scenarios" if rel.is_classic else "Scenarios", fmt.count(c["scenarios"]))
    cols[2].metric("Accuracy measured", fmt.ratio(c["accuracy_measured"], c["accuracy_cells"]),
                   help=summary.coverage_help(c))
    cols[3].metric("Schema cells measured", fmt.ratio(c["core_cells_listed_measured"], c["core_cells_listed"]),
                   help=f"{fmt.count(c['core_cells_listed_measured'])} of "
                        f"{fmt.count(c['core_cells_listed'], 'model × scenario × group cell')} that HELM's schema lists "
                        f"have a value; the {fmt.count(c['core_cells_by_design'], 'cell')} the schema leaves blank by "
                        "design are not counted.")
    if not rel.is_classic:
        tail = ". The paper's 96.0% is about HELM classic's models and scenarios, so compare on the classic release."
    elif cache.active_cohort() == "paper":
        tail = ", the models the paper's 96.0% is about; choose 'all' in the sidebar to add the models HELM ran later."
    else:
        tail = (". The paper's 96.0% is about its own models: choose the 'paper' cohort in the sidebar to compare like "
                "with like.")
    st.caption(f"Computed from {rel.name} for the {fmt.count(c['models'], 'model')} of the sidebar's cohort{tail}")


def evidence_blank_cells() -> None:
    if not models:
        st.info(NO_MODELS)
        return
    df = blank_cells(models)
    alt = "; ".join(f"{r.label}: {fmt.share(r.blank_share, 0)} blank ({fmt.count(r.by_design)} by design, {fmt.count(r.not_run)} not run)"
                    for r in df.itertuples())
    components.chart(charts_critique.blank_cells_bars(df), key="limits_blank_cells",
                     alt=f"Blank cells per metric group, {rel.name}: {alt}.", data=df, data_name="blank_cells_by_group")
    worst = df.sort_values("blank_share", ascending=False).iloc[0]
    st.caption(f"Computed from {rel.name}: {worst['label']} is blank in {fmt.share(worst['blank_share'], 0)} of the "
               f"{fmt.count(int(worst['cells']))} model × scenario cells of this cohort. Hatching separates the two kinds of blank.")
    sentence = blank_sentence(models)
    if sentence:
        st.caption(components.text(sentence))


def evidence_model_set() -> None:
    if len(models) < 2:
        st.info("Win rates need at least two models in the sidebar's cohort. Widen the filter.")
        return
    if not (rel.results["metric_group"] == "accuracy").any():
        st.info("The loaded data has no accuracy group, so there is no win rate to recompute.")
        return
    paper_first = sorted(models, key=lambda m: (m != DEFAULT_RIVAL_MODEL, m.lower()))
    model = st.selectbox("Model", paper_first, key=RIVAL_KEY, bind="query-params",
                         help="The model whose win rate is recomputed against each set of rivals.")
    df = model_set_effect(model, models)
    if df.empty:
        st.info(f"{components.text(model)} has no accuracy values to compare in {rel.name}.")
        return
    alt = "; ".join(f"against {r.rivals}: {fmt.value(r.win_rate, 2)}, rank {r.rank} of {r.ranked}" for r in df.itertuples())
    components.chart(charts_critique.rival_set_bars(df, model), key="limits_model_set",
                     alt=f"Accuracy win rate of {model}: {alt}.", data=df, data_name="win_rate_by_rivals")
    st.markdown(rival_sentence(df, model))
    st.caption(f"Recomputed from {rel.name} as HELM's summarize.py does (ties count half, cells flagged ☠ left out); "
               "these are recomputed win rates, not HELM's published column.")


def rival_sentence(df, model: str) -> str:
    """What the win rates against the sets of rivals show: the spread when they differ, and plainly when this
    cohort allows only one set, or every set gives the same number."""
    lo, hi = df.loc[df["win_rate"].idxmin()], df.loc[df["win_rate"].idxmax()]
    who = components.text(model)
    if len(df) == 1:
        return (f"This cohort allows one set of rivals only: {who} has a win rate of **{fmt.value(lo['win_rate'], 2)}** "
                f"(#{int(lo['rank'])} of {fmt.count(lo['ranked'])}) against {components.text(lo['rivals'])}. Widen "
                "the sidebar's cohort to see the same cells score differently against other fields.")
    if lo["win_rate"] == hi["win_rate"]:
        return (f"Here {who} has the same win rate, **{fmt.value(lo['win_rate'], 2)}**, against each of the "
                f"{fmt.count(len(df), 'set')} of rivals: its rank among them does not change with the field.")
    return (f"Same model, same cells: a win rate of **{fmt.value(lo['win_rate'], 2)}** against "
            f"{components.text(lo['rivals'])} and **{fmt.value(hi['win_rate'], 2)}** against "
            f"{components.text(hi['rivals'])}.")


def evidence_seed_spread() -> None:
    if not models:
        st.info(NO_MODELS)
        return
    df = seed_ranges(models, top=10)
    if df.empty:
        st.info(f"No accuracy cell of this cohort in {rel.name} records its seeds separately "
                "(a run count equal to the number of trials), so the seed spread cannot be shown.")
        return
    alt = "; ".join(f"{r.model} on {r.scenario}: {fmt.value(r.min)} to {fmt.value(r.max)}" for r in df.itertuples())
    components.chart(charts_critique.seed_dumbbell(df), key="limits_seed_spread",
                     alt=f"Widest ranges over in-context-example seeds, {rel.name}: {alt}.", data=df,
                     data_name="widest_seed_ranges")
    top = df.iloc[0]
    st.caption(f"Computed from {rel.name}: the widest is {components.text(top['model'])} on "
               f"{components.text(top['scenario'])}, from {fmt.value(top['min'])} to {fmt.value(top['max'])} {top['metric']} "
               f"over {int(top['seeds'])} seeds. Only cells whose runs are exactly the seeds are used.")


def evidence_contamination() -> None:
    if not models:
        st.info(NO_MODELS)
        return
    df = contamination_cells(models)
    if df.empty:
        st.info(f"No cell of this cohort carries a contamination flag in {rel.name}. That is not the same as "
                "clean: HELM can only flag what model developers disclosed.")
        return
    counts = limits_evidence.contamination_counts(df)
    cols = st.columns(2)
    cols[0].metric("☠ strongly contaminated cells", fmt.count(counts['strong_cells']),
                   help=f"{fmt.count(counts['strong_models'], 'model')}; left out of win rates, as HELM does.")
    cols[1].metric("⚠ weaker flags", fmt.count(counts['weaker_cells']), help=f"{fmt.count(counts['weaker_models'], 'model')}.")
    shown = df.assign(flag=df["mark"] + " " + df["level"])[
        ["flag", "model", "scenario", "metric", "accuracy", "in_win_rates"]]
    st.dataframe(shown, hide_index=True, width="stretch",
                 column_config={"accuracy": st.column_config.NumberColumn("accuracy (HELM's value)", format="%.3f"),
                                "in_win_rates": st.column_config.CheckboxColumn("counted in win rates")})
    components.download(df, "contamination_flags", key="limits_contamination_csv")
    for mark, level in limits_evidence.CONTAMINATION_LEVELS.items():
        notes = df.loc[df["mark"] == mark, "note"].unique()
        for note in notes[:3]:
            st.caption(f"HELM's note on the {mark} ({level}) cells: {components.text(note)}")
    st.caption(f"Listed from the notes in {rel.name}'s results, one row per model and scenario.")


def evidence_moving_target() -> None:
    ex = limits_evidence.MOVING_TARGET_EXAMPLE
    paper = cache.claims()[ex["claim"]].values
    df = moving_target(ex["model"], ex["scenario"], tuple(paper[: len(ex["groups"])]), groups=ex["groups"],
                       models=models)
    if df.empty:
        st.info(f"{ex['model']} on {ex['scenario']} is not in the sidebar's cohort or in {rel.name}, so only the "
                "paper's claim is shown.")
        return
    components.chart(charts_critique.moving_target_bars(df, ex["model"], ex["scenario"], rel.name),
                     key="limits_moving_target",
                     alt="; ".join(f"{r.metric}: paper {fmt.value(r.paper, 1)}%, {rel.name} {fmt.value(r.release, 1)}%" for r in df.itertuples()),
                     data=df, data_name="paper_vs_release")
    parts = [f"{r.metric}: {fmt.value(r.paper, 1)}% in the paper, {fmt.value(r.release, 1)}% in {rel.name} ({r.difference:+.1f} points)"
             for r in df.itertuples()]
    worst = df.loc[df["difference"].abs().idxmax()]
    verdict = ("The data disagrees with the paper" if abs(worst["difference"]) >= 1 else "The data agrees with the paper")
    st.markdown(f"{verdict}: " + "; ".join(parts) + ".")
    st.caption("Hatched bars are the paper's numbers (a claim, shown with its badge below); solid bars are this "
               "release's values from data/.")


EVIDENCE = {
    "dense": evidence_dense,
    "blank_cells": evidence_blank_cells,
    "model_set": evidence_model_set,
    "seed_spread": evidence_seed_spread,
    "contamination": evidence_contamination,
    "moving_target": evidence_moving_target,
    "claims": lambda: None,  # the step's claim badges are its evidence
}

step_no = stepper.stepper([s.title for s in steps])
step = steps[step_no - 1]
with st.container(border=True):
    st.subheader(f"{step_no}. {step.title}")
    st.markdown(step.text)
    if not rel.is_classic:
        st.caption(f"The text above is about HELM classic and its 2022 paper; the evidence below is computed from "
                   f"{components.text(rel.name)}.")
    EVIDENCE[step.evidence]()
    for cid in step.claims:
        components.claim(cid, compact=step.evidence != "claims")
    if step.links:
        st.markdown("**See it in this app**")
        stepper.deep_links(step.links)

components.onward("limits")
