"""Reliability, Not Just Confidence Theater: the reliability diagram and ECE, accuracy vs ECE from the data,
and the multiple-choice interface behind both."""
from __future__ import annotations

import math

import streamlit as st

from helm_core import calibration, fmt
from ui import cache, charts_reliability, components, presenter, state
from ui import real_runs as bundled

instance_groups = cache.on_release(calibration.instance_groups)
release_reliability = cache.on_release(calibration.release_reliability)
calibration_scenarios = cache.on_release(calibration.calibration_scenarios)
accuracy_vs_ece = cache.on_release(calibration.accuracy_vs_ece)
correlation_summary = cache.on_release(calibration.correlation_summary)
claim_verdicts = cache.on_release(calibration.claim_verdicts)
models_without_ece = cache.on_release(calibration.models_without_ece)
method_scenarios = cache.on_release(calibration.method_scenarios)
published_calibration = cache.on_release(calibration.published_calibration)
published_ece = cache.on_release(calibration.published_ece)
simulated_reliability = st.cache_data(max_entries=256, show_spinner=False)(calibration.simulated_reliability)

BUNDLED = "bundled HELM run"
ACC_RANGE = (0.1, 0.95)
CONF_RANGE = (-1.0, 1.0)
N_RANGE = (50, 5000)
VERDICT_BADGE = {"agrees": "green", "disagrees": "red", "partly agrees": "orange", "no clear relation": "gray",
                 "not enough data": "gray"}
# The multiple-choice interfaces, shown on one made-up question (labelled as an illustration on screen).
EXAMPLES = {
    "joint": (
        "Question: Where would you most likely keep a bottle of fresh milk?\n"
        "A. In the oven\nB. In the refrigerator\nC. On a bookshelf\nD. In the garden\n"
        "Answer:",
        "All choices go into **one prompt** and the model answers with a letter (here it should continue with "
        "\" B\"). The confidence HELM's calibration uses is the probability of the model's top prediction, "
        "here the letter it picks.",
    ),
    "separate": (
        "Question: Where would you most likely keep a bottle of fresh milk?\nAnswer: in the oven\n\n"
        "Question: Where would you most likely keep a bottle of fresh milk?\nAnswer: in the refrigerator\n\n"
        "Question: Where would you most likely keep a bottle of fresh milk?\nAnswer: on a bookshelf\n\n"
        "Question: Where would you most likely keep a bottle of fresh milk?\nAnswer: in the garden",
        "Each choice is scored **on its own**, as a continuation of the question: the model's probability of the "
        "answer text, normalised by its length. The highest-scoring choice wins. The model never sees the other "
        "choices, and it must return log-probabilities for text it did not generate.",
    ),
    "separate-calibrated": (
        "Scored as in 'separate':\n"
        "  Question: Where would you most likely keep a bottle of fresh milk?\n  Answer: in the refrigerator\n\n"
        "…then divided by the probability of the same answer after a bare prompt:\n"
        "  Answer: in the refrigerator",
        "Like separate, but each choice's probability is **divided by its probability after the bare prompt "
        "\"Answer:\"**, so an answer that is likely in any context (short, common words) gets no head start.",
    ),
}
RELATED = {
    "joint": ("mc_opt_hellaswag", "mc_anthropic_joint", "mc_reorders"),
    "separate": ("mc_opt_hellaswag", "mc_hellaswag_order"),
    "separate-calibrated": ("mc_reorders", "mc_anthropic_joint", "mc_hellaswag_order"),
}


def _number_in(lo: float, hi: float, *, integer: bool = False):
    def check(raw: str) -> bool:
        try:
            x = float(raw)
        except (TypeError, ValueError):
            return False
        if not math.isfinite(x) or not lo <= x <= hi:
            return False
        return x.is_integer() if integer else True

    return check


components.page_header("calibration")
rel = cache.active_release()
models = cache.active_models()
components.release_gap(["calibration"], "calibration")  # Lite, Capabilities: no ECE cells; link to classic
scenarios = calibration_scenarios()
published = published_calibration()


def _no_published_ece() -> str:
    """HELM published no ECE for this release: say so, naming what its calibration column holds instead."""
    cols = published["metrics"]
    return (f"HELM published no ECE for {components.text(rel.name)}"
            + (f": its calibration column is {components.text(fmt.names(cols))}." if cols else
               ": its tables hold no calibration column."))


@st.fragment
def reliability_panel(source: str, groups) -> None:
    chart_slot = presenter.main_slot()  # presenter mode: the diagram above its controls
    state.allow("cal_bins", calibration.STRATEGIES)
    strategy = st.segmented_control(
        "Bins", calibration.STRATEGIES, default="equal_mass", required=True, key="cal_bins", bind="query-params",
        help="equal_mass: 10 bins holding the same number of answers each, as HELM's ece_10_bin. "
             "uniform: 10 bins of equal width (0–0.1, 0.1–0.2, …), which can leave bins nearly empty.",
    ) or "equal_mass"
    if source == "simulation":
        st.markdown(
            ":orange-badge[Simulation · not HELM data] Synthetic answers: each has a true chance of being right "
            "drawn around the accuracy you pick; the simulated model states a confidence that is that chance "
            "pushed up (overconfident) or down (underconfident). Drag the sliders and watch the curve and the ECE."
        )
        c1, c2, c3 = st.columns(3)
        with c1:
            state.allow("cal_acc", _number_in(*ACC_RANGE))
            acc = st.slider("Accuracy (share correct)", *ACC_RANGE, value=0.7, step=0.05, key="cal_acc",
                            bind="query-params")
        with c2:
            state.allow("cal_conf", _number_in(*CONF_RANGE))
            conf = st.slider("Under (−) / over (+) confidence", *CONF_RANGE, value=0.5, step=0.1, key="cal_conf",
                             bind="query-params",
                             help="0: states exactly its chance of being right. +1: far more sure than it should be. "
                                  "−1: far less sure.")
        with c3:
            state.allow("cal_n", _number_in(*N_RANGE, integer=True))
            n = st.slider("Answers simulated", *N_RANGE, value=1000, step=50, key="cal_n", bind="query-params",
                          help="HELM warns that a 10-bin ECE needs about 300 instances to be reliable.")
        summary = simulated_reliability(float(acc), float(conf), int(n), calibration.N_BINS, strategy, 0)
        title = f"SIMULATION · accuracy {fmt.share(acc, 0)}, confidence shift {conf:+.1f}, {fmt.count(int(n))} answers"
    elif source == BUNDLED:
        summary, title = bundled.reliability_choice(strategy)
    else:
        labels = groups["label"].tolist()
        state.allow("cal_run", labels)
        label = st.selectbox("Model · scenario (runs of the loaded HELM output with log-probabilities)", labels,
                             key="cal_run", bind="query-params")
        row = groups.iloc[labels.index(label)]
        summary = release_reliability(str(row["model"]), str(row["scenario"]), str(row["run"]),
                                      calibration.N_BINS, strategy)
        title = f"{label} · {fmt.count(summary['n'])} answers"
        helm_ece = published_ece(str(row["model"]), str(row["scenario"]))
        st.caption(
            f"ECE computed by this app from the run's per-instance confidences ({fmt.count(summary['n'], 'answer')}), "
            "binned as HELM's ece_10_bin. "
            + (f"HELM's own table gives this cell an ECE of {fmt.value(helm_ece)}." if not math.isnan(helm_ece) else
               _no_published_ece())
        )
    m = st.columns(5)
    if source == "data":
        m[0].metric("ECE (computed here)", fmt.value(summary["ece"]),
                    help="Computed by this app from the run's per-instance confidences (the probability of the "
                         "chosen answer) with HELM's 10-bin rule; 0 is perfect. Not a number HELM published.")
    else:
        m[0].metric("ECE", fmt.value(summary["ece"]), help="Expected calibration error, 10 bins; 0 is perfect.")
    m[1].metric("Share correct", fmt.share(summary['accuracy']))
    m[2].metric("Mean confidence", fmt.share(summary['mean_confidence']), help="The mean stated confidence.")
    m[3].metric("Answers", fmt.count(summary['n']))
    m[4].metric("Top-10% accuracy", fmt.share(summary['selective_accuracy_10']),
                help="Share correct among the 10% most confident answers (selective accuracy at 10% coverage, "
                     "one of HELM's detailed calibration metrics).")
    if summary["few_samples"]:
        st.warning(
            f"Only {fmt.count(summary['n'])} answers: HELM notes that a 10-bin ECE needs about "
            f"{calibration.MIN_RELIABLE_SAMPLES} or more to be reliable. With few answers per bin, even a "
            "perfectly calibrated model shows a sizeable ECE from chance alone.",
            icon=":material/warning:",
        )
    bins = summary["bins"]
    fig = charts_reliability.reliability_diagram(summary, simulated=summary.get("simulated", True), title=title)
    shown = bins[bins["count"] > 0]
    with presenter.into(chart_slot):
        components.chart(
            fig, key="calibration_reliability", main=True,
            alt=(("Simulated " if summary.get("simulated", True) else "") + f"reliability diagram: ECE {fmt.value(summary['ece'])} "
                 f"over {fmt.count(summary['n'])} answers in {len(shown)} non-empty bins of "
                 f"{calibration.STRATEGY_LABELS[strategy]}; per bin confidence → share correct: "
                 + "; ".join(f"{fmt.value(c, 2)} → {fmt.value(a, 2)} (n={k})" for c, a, k in
                             zip(shown["mean_confidence"], shown["accuracy"], shown["count"]))),
            data=bins, data_name="reliability_bins",
        )
    if summary.get("simulated", True):
        st.caption(
            "Simulation, seeded so the same settings always draw the same answers. With the shift at 0 the ECE is "
            "still above 0: a finite sample never lands exactly on the diagonal, the fewer the answers the less so."
        )


def _diagram() -> None:
    main_slot = presenter.main_slot()
    st.subheader("1 · What \"90% sure\" should mean")
    st.markdown(
        "A model is **calibrated** when its stated confidence matches how often it is right: of all the answers it "
        "gives with 90% confidence, about 9 in 10 should be correct. A reliability diagram sorts the answers into "
        "bins by confidence and plots, per bin, the share that was correct against the mean stated confidence. "
        "The **expected calibration error (ECE)** is the gap between the two, averaged over the bins and weighted "
        "by how many answers each bin holds. Points below the diagonal mean the model says more than it knows."
    )
    components.claim("ece_definition", compact=True)
    if not published["has_ece"] and not rel.is_later:  # Lite, Capabilities: release_gap above says so
        st.caption(_no_published_ece())

    groups = instance_groups()
    options = ("simulation", BUNDLED) if groups.empty else ("data", "simulation", BUNDLED)
    output = cache.active_output()
    if groups.empty and output is not None and output.lazy:
        st.info(
            f"{rel.name} is a large suite, so its instance files were not read at load (each run's are read when it "
            "is opened on *Prompts & Completions*) and this page holds no per-instance confidences for it. The "
            "diagram starts as a **simulation**; the genuine HELM runs bundled with this app are one click away.",
            icon=":material/science:",
        )
    elif groups.empty:
        st.info(
            f"{rel.name} carries no per-instance confidences (HELM's leaderboard tables keep only the ECE per cell), "
            "so the diagram starts as a **simulation**. Switch to a genuine HELM run bundled with this app (BBQ, "
            "the models whose files carry real log-probabilities), or load a HELM run with log-probabilities on "
            "the *Bring Your Own HELM Output* page.",
            icon=":material/science:",
        )
    state.allow("cal_source", options)
    source = st.segmented_control(
        "Diagram from", options, default=options[0], required=True, key="cal_source", bind="query-params",
        help="data: the per-instance confidences of the loaded run; simulation: synthetic answers with sliders; "
             f"{BUNDLED}: a genuine HELM run bundled with this app (real token log-probabilities, 100 instances).",
    ) or options[0]

    with presenter.into(main_slot):
        reliability_panel(source, groups)


def _data() -> None:
    st.subheader("2 · The data: accuracy against calibration, model by model")
    if not scenarios:
        st.info(_no_published_ece() + " So accuracy cannot be compared with HELM's calibration error here.",
                icon=":material/info:")
    elif components.has_models(models, "accuracy against calibration"):
        st.markdown(
            f"Each point is a model of the current cohort: its accuracy on the scenario and its ECE, as {rel.name} "
            "reports them. The rank correlation says whether more accurate models tend to be better or worse calibrated."
        )
        components.claim("calibration_depends", compact=True)
        state.allow("cal_scenario", scenarios)
        default = scenarios.index("HellaSwag") if "HellaSwag" in scenarios else 0
        scenario = st.selectbox("Scenario", scenarios, index=default, key="cal_scenario", bind="query-params")
        df = accuracy_vs_ece(scenario, models)
        corr = correlation_summary(scenario, models)
        if len(df) < 3:
            st.info(f"Only {fmt.count(len(df), 'model')} of the current cohort {fmt.plural(len(df), 'has')} both accuracy and ECE on "
                    f"{components.text(scenario)}: too few for a correlation. Widen the cohort or pick another scenario.")
        else:
            metric = str(df["accuracy_metric"].iloc[0])
            c = st.columns(3)
            c[0].metric("Models with both values", fmt.count(corr['n']))
            c[1].metric("Rank correlation, accuracy vs ECE", f"{corr['spearman']:+.2f}",
                        help="Spearman: rank both, then Pearson on the ranks. + means more accurate models have a "
                             "higher ECE (worse calibrated); − means they are better calibrated.")
            c[2].metric("Pearson correlation", f"{corr['pearson']:+.2f}")
            best = df.iloc[0]
            lowest = df.loc[df["ece"].idxmin()]
            fig = charts_reliability.accuracy_ece_scatter(df, scenario=scenario, metric=metric)
            components.chart(
                fig, key="calibration_scatter",
                alt=(f"Scatter of {len(df)} models on {scenario}: accuracy ({metric}) against ECE, rank correlation "
                     f"{corr['spearman']:+.2f}. Most accurate: {best['model']} ({fmt.value(best['accuracy'])}, ECE "
                     f"{fmt.value(best['ece'])}); best calibrated: {lowest['model']} (ECE {fmt.value(lowest['ece'])})."),
                data=df, data_name=f"accuracy_vs_ece_{scenario}",
            )
        missing = models_without_ece(scenario, models)
        if not missing.empty:
            st.caption(f"{fmt.count(len(missing), 'model')} of the cohort {fmt.plural(len(missing), 'has')} accuracy but no ECE on {components.text(scenario)}: "
                       + components.text(", ".join(missing["model"]))
                       + ". See *The interface behind calibration* under *Switch interfaces*.")

        st.markdown("#### Does this release agree with the paper?")
        st.caption(f"Computed from {rel.name} for the current cohort ({len(models)} models). The paper's numbers come "
                   "from its own 2022 runs; later releases recomputed several metrics, so the two can differ.")
        for _, v in claim_verdicts(models).iterrows():
            with st.container(border=True):
                components.claim(v["claim_id"], compact=True)
                colour = VERDICT_BADGE.get(v["verdict"], "gray")
                st.markdown(f":{colour}-badge[This release {v['verdict']}] {components.text(v['detail'])}")


def _own_comparison():
    """The loaded suite's own joint / separate / separate-calibrated runs of one model on one scenario, for the
    models of the cohort (empty for a bundled release)."""
    comp = cache.method_comparison()
    return comp[comp["model"].isin(set(models))].reset_index(drop=True)


def _interfaces() -> None:
    st.subheader("3 · Switch interfaces")
    st.markdown(
        "A multiple-choice question can be put to a language model in three ways, and HELM found that the choice "
        "can matter as much as the model. Switch between them:"
    )
    state.allow("cal_method", calibration.MC_METHODS)
    method = st.segmented_control("Multiple-choice interface", calibration.MC_METHODS, default="joint", required=True,
                                  key="cal_method", bind="query-params")
    method = method if method in EXAMPLES else "joint"  # a bound control can hand back None for a link's bad value
    prompt, how = EXAMPLES[method]
    left, right = st.columns([3, 2])
    with left:
        st.markdown(":orange-badge[Illustration] A made-up question, not an instance from HELM's data; it shows the "
                    "shape of each interface, not HELM's exact prompt text.")
        with st.container(border=True):
            # Plain text, not st.code: the code block's highlighter costs ~0.2 s of browser time on this page.
            st.text(prompt)
        st.markdown(how)
    with right:
        uses = method_scenarios(method, models)
        own = _own_comparison()
        if not own.empty:
            st.markdown(f"**{components.text(rel.name)} ran the same model and scenario under several interfaces**, "
                        "so it has its own comparison (main metric on the main split, from each run's stats.json):"
                        "\n\n" + "\n".join(f"- {components.text(t)}" for t in calibration.method_sentences(own)))
            components.table(own.drop(columns=["run"]), formats={"value": fmt.value, "ece": fmt.value})
        if uses.empty:
            if own.empty:
                st.info(f"None of the core scenarios that use {method} by default is in {rel.name}, and it runs no "
                        "model on one scenario under two interfaces.")
        else:
            st.markdown(f"**Core scenarios that use *{method}* by default in HELM**, with the models of the current "
                        f"cohort measured there ({rel.name}):\n\n"
                        + "\n".join(f"- {components.text(r.scenario)}: {fmt.count(r.models_with_accuracy)} with accuracy, "
                                     f"{fmt.count(r.models_with_ece)} with an ECE" for r in uses.itertuples()))
        components.claim("mc_methods", compact=True)
    st.markdown(f"**What the paper found, with *{method}* in view:**")
    for cid in RELATED[method]:
        components.claim(cid)
    with st.expander("All of the paper's findings on the multiple-choice interface"):
        for cid in ("mc_opt_hellaswag", "mc_anthropic_joint", "mc_reorders", "mc_hellaswag_order"):
            components.claim(cid, compact=True)

    st.markdown("#### The interface behind calibration")
    st.markdown(
        "Calibration needs one more thing from the interface: the probability the model gave its own answer. "
        "Where HELM got no usable probabilities back from a model's API, its calibration cannot be measured at all: "
        "the cell stays blank, which is different from a good or a bad score."
    )
    if not models:
        st.warning("No model matches the sidebar's cohort and access filter.")
    elif not scenarios:
        st.info(_no_published_ece() + " So there is no ECE to set beside accuracy.")
    else:
        gaps = models_without_ece(None, models)
        if gaps.empty:
            st.success(f"Every model of the current cohort that has an accuracy value on a calibration scenario also has "
                       f"its ECE there ({rel.name}).")
        else:
            never = gaps[gaps["n_with_ece"] == 0]
            some = gaps[gaps["n_with_ece"] > 0]
            c = st.columns(2)
            c[0].metric("Models with accuracy but never an ECE", fmt.count(len(never)),
                        help=f"Across the {len(scenarios)} scenarios where {rel.name} reports ECE for some model.")
            c[1].metric("Models missing ECE on some scenarios only", fmt.count(len(some)))
            if not never.empty:
                st.markdown("**No ECE anywhere:** " + components.text(", ".join(never["model"])) + ".")
            if not some.empty:
                st.markdown("**ECE missing on some scenarios:** " + components.text(
                    "; ".join(f"{m} ({k} of {k + w})" for m, k, w in zip(some["model"], some["n_missing"], some["n_with_ece"])))
                    + ". The table lists which.")
            components.table(gaps, labels={"n_missing": "scenarios without ECE", "n_with_ece": "scenarios with ECE",
                                           "scenarios": "no ECE on"})
            components.download(gaps, "models_without_ece", key="calibration_no_ece_csv")


components.sections("calibration_section", {
    "Reliability diagram": _diagram,
    "Accuracy and calibration": _data,
    "Switch interfaces": _interfaces,
}, keep=["cal_source", "cal_real", "cal_bins", "cal_acc", "cal_conf", "cal_n", "cal_run", "cal_scenario", "cal_method"])
components.onward("calibration")
