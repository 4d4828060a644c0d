"""Coverage Jump: from 17.9% to 96.0% (the paper's claim), and what the v0.4.0 data shows."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import coverage, fmt, taxonomy
from helm_core.data import cohort_models
from ui import cache, charts, charts_coverage, components, presenter, state

coverage_summary = cache.on_release(coverage.coverage_summary)
model_coverage = cache.on_release(coverage.model_coverage)
scenario_coverage = cache.on_release(coverage.scenario_coverage)
comparable_ground = cache.on_release(coverage.comparable_ground)
shared_ground_curve = cache.on_release(coverage.shared_ground_curve)
overlap_pairs = cache.on_release(coverage.overlap_pairs)
all_cohort = cache.on_release(cohort_models)
model_coverage_spec = cache.on_release(charts_coverage.model_coverage_spec)
scenario_coverage_spec = cache.on_release(charts_coverage.scenario_coverage_spec)
overlap_spec = cache.on_release(charts_coverage.overlap_spec)

# The pair the paper names as sharing no scenario before HELM (claim coverage_no_common).
DEFAULT_GROUND = ("T5 (11B)", "Anthropic-LM v4-s3 (52B)")
COHORT_NAMES = (("paper", "2022 paper cohort"), ("all", "every model in the release"), ("cohort", "sidebar cohort"))

components.page_header("coverage")
rel = cache.active_release()
models = cache.active_models()
scenarios = rel.taxonomy.scenario_names
total = len(scenarios)
components.claim("coverage_jump", compact=True)

paper_models = tuple(all_cohort("paper"))
every_model = tuple(all_cohort("all"))
try:
    summary = coverage_summary({"paper": paper_models, "all": every_model, "cohort": models})
    problem = None
except ValueError as exc:  # e.g. a loaded dataset whose accuracy group has several metrics per scenario
    summary, problem = None, str(exc)


def _computable() -> bool:
    """Every section reads the main accuracy metric; a dataset where it cannot be read says so in each."""
    if problem is not None:
        st.error(f"Coverage cannot be computed for this dataset: {problem}")
    return problem is None


def _ready() -> bool:
    """The guards of the sections that need the sidebar's cohort."""
    return _computable() and components.has_models(
        models, "coverage per model, per scenario and the comparable-ground tool")


def _jump() -> None:
    main_slot = presenter.main_slot()
    left, right = st.columns([3, 2], gap="large")
    with left:
        components.claim("coverage_why_not_100", compact=True)
    with right:
        st.markdown("**Before HELM, per model?**")
        components.claim("coverage_prior_per_model", compact=True)
        st.markdown("So this page draws no \"before HELM\" matrix: the 17.9% appears only as the paper's number.")
        components.claim("coverage_no_common", compact=True)
    if not _computable():
        return
    by = summary.set_index("cohort")

    def _rate(name: str) -> str:
        r = by.loc[name, "rate"]
        return "no models" if pd.isna(r) else f"{r:.1%}"

    st.subheader(f"Coverage computed from {rel.name}")
    c = st.columns(3)
    if rel.is_classic:
        c[0].metric(f"2022 paper cohort ({int(by.loc['paper', 'models'])} models)", _rate("paper"),
                    help=f"{int(by.loc['paper', 'measured']):,} of {int(by.loc['paper', 'cells']):,} model × scenario "
                         "cells have the main accuracy metric. Independent of the sidebar.", border=True)
    else:  # any other release: the paper's cohort and its 96.0% belong to classic
        c[0].metric("2022 paper cohort", "classic only", border=True,
                    help=components.text(f"The paper's cohort ran on HELM classic's core scenarios; {rel.name} has "
                                         f"{taxonomy.scenarios_phrase(rel)}."))
    c[1].metric(f"Every model in the release ({int(by.loc['all', 'models'])})", _rate("all"),
                help=f"{int(by.loc['all', 'measured']):,} of {int(by.loc['all', 'cells']):,} cells. Independent of "
                     "the sidebar.", border=True)
    c[2].metric(f"Sidebar cohort ({int(by.loc['cohort', 'models'])} models)", _rate("cohort"),
                help=f"{int(by.loc['cohort', 'measured']):,} of {int(by.loc['cohort', 'cells']):,} cells.", border=True)

    before, after = cache.claims()["coverage_jump"].values
    bars = pd.DataFrame([
        {"label": "Before HELM (paper claim)", "rate": before / 100, "kind": "paper claim",
         "detail": "average over models, pooling results from different papers; not computable from any data here"},
        {"label": "With HELM (paper claim)", "rate": after / 100, "kind": "paper claim",
         "detail": "the paper's figure for its 30 models; exact denominator unverified"},
    ])
    for name, label in COHORT_NAMES:
        if name == "paper" and not rel.is_classic:
            continue  # the paper's cohort ran classic's exam, not this release's
        if pd.notna(by.loc[name, "rate"]):
            bars.loc[len(bars)] = {"label": f"{label}, computed ({int(by.loc[name, 'models'])} models)",
                                   "rate": float(by.loc[name, "rate"]), "kind": "computed",
                                   "detail": f"{int(by.loc[name, 'measured']):,} of {int(by.loc[name, 'cells']):,} "
                                             f"cells, {rel.name}"}
    with presenter.into(main_slot):
        components.chart(
            charts_coverage.coverage_bars(bars, "core-scenario" if rel.is_classic else "scenario"),
            key="coverage_bars", main=True,
            alt=("Bar chart of coverage: " + "; ".join(f"{r.label} {r.rate:.1%}" for r in bars.itertuples()) + "."),
            data=bars, data_name="coverage_rates",
        )
    if rel.is_classic and pd.notna(by.loc["paper", "rate"]) and pd.notna(by.loc["all", "rate"]):
        gap = abs(float(by.loc["paper", "rate"]) * 100 - after)
        text = (f"The paper cohort's {_rate('paper')} from the data is "
                f"{'close to' if gap < 2 else 'to be compared with'} the claimed {after:.1f}%. ")
        if by.loc["all", "rate"] < by.loc["paper", "rate"]:
            text += (f"Over every model of the release it is {_rate('all')}: models added after the paper were not "
                     "run on every core scenario, so HELM's own coverage thinned.")
        else:
            text += f"Over every model of the release it is {_rate('all')}."
        st.markdown(text)
    _ready()  # the cohort warning: the other sections need a model


def _per_model() -> None:
    if not _ready():
        return
    # The thinning is classic's story (models added after the paper skipped scenarios); elsewhere, just the counts.
    st.subheader("Per model: newer models were measured on fewer scenarios" if rel.is_classic
                 else "Per model: how many scenarios each model was measured on")
    mc = model_coverage(models)
    full = int((mc["measured"] == total).sum())
    components.chart(
        charts.figure(model_coverage_spec(models)), key="coverage_models",
        alt=(f"Scatter of {len(mc)} models: release date against {'core ' if rel.is_classic else ''}scenarios "
             f"measured out of {total}. "
             f"{full} models have all {total}; the fewest is {int(mc['measured'].min())}."),
        data=mc, data_name="coverage_per_model",
    )


def _per_scenario() -> None:
    if not _ready():
        return
    st.subheader("Per scenario: where the thinning happened" if rel.is_classic
                 else "Per scenario: how many models have a value")
    sc = scenario_coverage(models)
    components.chart(
        charts.figure(scenario_coverage_spec(models)), key="coverage_scenarios",
        alt=("Dot plot of the share of models with a value per scenario, " + "; ".join(
            f"{r.scenario} {r.group} {r.measured}/{r.total}" for r in sc.itertuples()) + "."),
        data=sc, data_name="coverage_per_scenario",
    )
    later = sc[sc["group"] == coverage.COHORT_LABELS[False]]
    if not later.empty:
        thin = later[later["share"] < 0.5]
        if not thin.empty:
            st.markdown("For models added after the paper, " + ", ".join(
                f"{components.text(r.scenario)} ({r.measured} of {r.total})" for r in thin.itertuples())
                + " have values for fewer than half.")


def _ground() -> None:
    if not _ready():
        return
    st.subheader("Comparable ground: which scenarios do these models all share?")
    options = list(models)
    default = [m for m in DEFAULT_GROUND if m in options]
    default = default if len(default) == len(DEFAULT_GROUND) else options[:2]
    state.allow("ground", options, multi=True)
    chosen = st.multiselect("Models to compare", options=options, default=default, key="ground",
                            bind="query-params",
                            help="Comparable ground = the scenarios where every chosen model has a main-metric "
                                 "value. The order you pick them in is the order of the curve below.")
    allowed = set(options)
    chosen = [m for m in chosen if m in allowed]
    if not chosen:
        st.info("Pick one or more models to see the scenarios they share.")
        return
    shared = comparable_ground(tuple(chosen))
    shared_set = set(shared)
    not_shared = [s for s in scenarios if s not in shared_set]
    g1, g2 = st.columns([1, 2])
    g1.metric(f"Scenarios all {len(chosen)} share", f"{len(shared)} of {total}", border=True)
    with g2:
        st.markdown("**Shared:** " + (", ".join(components.text(s) for s in shared) or "none"))
        st.markdown("**Not shared:** " + (", ".join(components.text(s) for s in not_shared) or "none"))
    curve_chosen = shared_ground_curve(tuple(chosen))
    mc = model_coverage(models)
    by_date = tuple(mc.sort_values(["release_date", "model"], kind="mergesort")["model"])
    curve_all = shared_ground_curve(by_date)
    curves = {"your models, in the order picked": curve_chosen,
              f"all {len(by_date)} cohort models, by release date": curve_all}
    data = pd.concat([c.assign(ordering=name) for name, c in curves.items()], ignore_index=True)
    components.chart(
        charts_coverage.ground_curve(curves, total), key="coverage_ground",
        alt=(f"Step chart of shared scenarios as models are added. Your {len(chosen)} models share "
             f"{int(curve_chosen['shared'].iloc[-1])} of {total}; all {len(by_date)} cohort models, added by "
             f"release date, share {int(curve_all['shared'].iloc[-1])}."),
        data=data, data_name="shared_ground",
    )


def _overlap() -> None:
    if not _ready():
        return
    st.subheader("Pairwise overlap: how many scenarios each pair of models shares")
    pairs = overlap_pairs(models)
    order = list(model_coverage(models)["model"])
    if pairs.empty:
        st.caption("One model only: there is no pair to compare.")
        return
    low = pairs.iloc[0]
    n_low = int((pairs["shared"] == low["shared"]).sum())
    alt = (f"Heatmap of {len(order)} by {len(order)} models: shared scenarios per pair, from "
           f"{int(pairs['shared'].min())} to {int(pairs['shared'].max())} of {total}.")
    components.chart(charts.figure(overlap_spec(models)), key="coverage_overlap", alt=alt,
                     data=pairs, data_name="pairwise_overlap")
    st.markdown(f"The least overlap is {int(low['shared'])} of {total} scenarios, for {fmt.count(n_low, 'pair')}, e.g. "
                f"{components.text(low['model_a'])} and {components.text(low['model_b'])}. Models are ordered "
                "by their own coverage.")


components.sections("coverage_section", {
    "Coverage jump": _jump,
    "Per model": _per_model,
    "Per scenario": _per_scenario,
    "Comparable ground": _ground,
    "Pairwise overlap": _overlap,
}, keep=["ground"])
components.onward("coverage")
