"""Reliability, Not Just Confidence Theater: the reliability diagram and ECE on genuine HELM output first, accuracy
against ECE from the data, the multiple-choice interface behind both, and the models whose calibration HELM could
not measure.

Slides: the reliability diagram (a genuine HELM run bundled with this app, or the loaded suite's own runs, with the
labelled simulation as the second choice), accuracy and calibration per model, the three multiple-choice
interfaces (a suite's own joint / separate runs when it has them), and the models without an ECE."""
from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from helm_core import calibration, fmt, participation
from helm_core.data import GROUP_LABELS
from ui import cache, charts_reliability, components, nav, slides, state
from ui import real_runs as bundled
from ui.slides import Card, Chart, Ctx, Link, Slide, Table, View

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

TEXT = components.text
BUNDLED = "bundled HELM run"
SIMULATION = "simulation"
DATA = "data"
ACC_RANGE = (0.1, 0.95)
CONF_RANGE = (-1.0, 1.0)
N_RANGE = (50, 5000)
SIM_DEFAULTS = {"cal_acc": 0.7, "cal_conf": 0.5, "cal_n": 1000}
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
# What the model sees under each interface, in a table cell.
SEES = {"joint": "every choice in one prompt; answers with a letter",
        "separate": "each choice alone, scored as a continuation",
        "separate-calibrated": "as separate, divided by the choice's probability after a bare \"Answer:\""}
RELATED = {
    "joint": ("mc_opt_hellaswag", "mc_anthropic_joint", "mc_reorders"),
    "separate": ("mc_opt_hellaswag", "mc_hellaswag_order"),
    "separate-calibrated": ("mc_reorders", "mc_anthropic_joint", "mc_hellaswag_order"),
}
ALL_MC_CLAIMS = ("mc_opt_hellaswag", "mc_anthropic_joint", "mc_reorders", "mc_hellaswag_order")
DEFINITION = ("A model is **calibrated** when its stated confidence matches how often it is right: of all the answers "
              "it gives with 90% confidence, about 9 in 10 should be correct. A reliability diagram sorts the answers "
              "into bins by confidence and plots, per bin, the share that was correct against the mean stated "
              "confidence. The **expected calibration error (ECE)** is the gap between the two, averaged over the "
              "bins and weighted by how many answers each bin holds. Points below the diagonal mean the model says "
              "more than it knows.")


def _number_in(lo: float, hi: float, *, integer: bool = False):
    def check(raw) -> bool:
        try:
            x = float(raw)
        except (TypeError, ValueError):
            return False
        if not math.isfinite(x) or not lo <= x <= hi:
            return False
        return x.is_integer() if integer else True

    return check


VALID = {"cal_acc": _number_in(*ACC_RANGE), "cal_conf": _number_in(*CONF_RANGE),
         "cal_n": _number_in(*N_RANGE, integer=True)}


def _no_published_ece(ctx: Ctx) -> str:
    """HELM published no ECE for this release: say so, naming what its calibration column holds instead."""
    cols = published_calibration()["metrics"]
    return (f"HELM published no ECE for {TEXT(ctx.rel.name)}"
            + (f": its calibration column is {TEXT(fmt.names(cols))}." if cols else
               ": its tables hold no calibration column."))


def _release_gap(ctx: Ctx) -> tuple[list[str], list[Link]]:
    """On a later bundled release (Lite, Capabilities) without calibration cells: the note that says so and the link
    to this page on HELM classic (nothing elsewhere)."""
    if not ctx.rel.is_later:
        return [], []
    have = cache.measured_groups()
    if "calibration" in have:
        return [], []
    kept = " and ".join(GROUP_LABELS[g].lower() for g in have) or "no metric group of the seven"
    spec = nav.spec_for("calibration")
    return ([f"**{TEXT(ctx.rel.name)} has no calibration cells.** Its published tables report {kept} only."],
            [Link(f"{spec.title} on HELM classic v0.4.0", "calibration", {"release": "classic"}, ":material/history:")])


def _no_models(ctx: Ctx, what: str) -> View | None:
    if ctx.models:
        return None
    return View(point="No model matches the sidebar's cohort and access filter.",
                empty=f"No model matches the sidebar's cohort and access filter. Widen the filter to see {what}.",
                empty_kind="warning")


# ----------------------------------------------------------------------------- slide 1: the reliability diagram


def _sources() -> tuple[str, ...]:
    """The diagram's sources, the default first: the loaded data's own runs when it has per-instance confidences,
    else a genuine HELM run bundled with this app; the simulation always last."""
    return (BUNDLED, SIMULATION) if instance_groups().empty else (DATA, BUNDLED, SIMULATION)


def _sim_settings(ctx: Ctx) -> tuple[float, float, int]:
    return (float(ctx.get("cal_acc", SIM_DEFAULTS["cal_acc"], VALID["cal_acc"])),
            float(ctx.get("cal_conf", SIM_DEFAULTS["cal_conf"], VALID["cal_conf"])),
            int(float(ctx.get("cal_n", SIM_DEFAULTS["cal_n"], VALID["cal_n"]))))


def diagram_controls(ctx: Ctx) -> None:
    options = _sources()
    state.allow("cal_source", options)
    source = st.segmented_control(
        "Diagram from", options, default=options[0], required=True, key="cal_source", bind="query-params",
        help=(f"{DATA}: the per-instance confidences of the loaded runs; " if DATA in options else "")
        + f"{BUNDLED}: a genuine HELM run bundled with this app (real token log-probabilities); "
          f"{SIMULATION}: synthetic answers with sliders, labelled as such.",
    ) or options[0]
    state.allow("cal_bins", calibration.STRATEGIES)
    st.segmented_control(
        "Bins", calibration.STRATEGIES, default="equal_mass", required=True, key="cal_bins", bind="query-params",
        help="equal_mass: 10 bins holding the same number of answers each, as HELM's ece_10_bin. "
             "uniform: 10 bins of equal width (0–0.1, 0.1–0.2, …), which can leave bins nearly empty.")
    if source == SIMULATION:
        c1, c2, c3 = st.columns(3)
        state.allow("cal_acc", VALID["cal_acc"])
        c1.slider("Accuracy (share correct)", *ACC_RANGE, value=SIM_DEFAULTS["cal_acc"], step=0.05, key="cal_acc",
                  bind="query-params")
        state.allow("cal_conf", VALID["cal_conf"])
        c2.slider("Under (−) / over (+) confidence", *CONF_RANGE, value=SIM_DEFAULTS["cal_conf"], step=0.1,
                  key="cal_conf", bind="query-params",
                  help="0: states exactly its chance of being right. +1: far more sure than it should be. "
                       "−1: far less sure.")
        state.allow("cal_n", VALID["cal_n"])
        c3.slider("Answers simulated", *N_RANGE, value=SIM_DEFAULTS["cal_n"], step=50, key="cal_n",
                  bind="query-params", help="HELM warns that a 10-bin ECE needs about 300 instances to be reliable.")
    elif source == BUNDLED:
        bundled.reliability_picker()
    else:
        labels = instance_groups()["label"].tolist()
        state.allow("cal_run", labels)
        st.selectbox("Model · scenario (runs of the loaded HELM output with log-probabilities)", labels,
                     key="cal_run", bind="query-params")


def _cards(summary: dict, *, computed: bool) -> list[Card]:
    return [
        Card("ECE (computed here)", fmt.value(summary["ece"]),
             "Computed by this app from the run's per-instance confidences (the probability of the chosen answer) "
             "with HELM's 10-bin rule; 0 is perfect. Not a number HELM published.") if computed else
        Card("ECE", fmt.value(summary["ece"]), "Expected calibration error, 10 bins; 0 is perfect."),
        Card("Share correct", fmt.share(summary["accuracy"])),
        Card("Mean confidence", fmt.share(summary["mean_confidence"]), "The mean stated confidence."),
        Card("Answers", fmt.count(summary["n"])),
        Card("Top-10% accuracy", fmt.share(summary["selective_accuracy_10"]),
             "Share correct among the 10% most confident answers (selective accuracy at 10% coverage, one of "
             "HELM's detailed calibration metrics)."),
    ]


def _few(summary: dict) -> str:
    return (f"Only {fmt.count(summary['n'], 'answer')}: HELM notes that a 10-bin ECE needs about "
            f"{calibration.MIN_RELIABLE_SAMPLES} or more to be reliable. With few answers per bin, even a perfectly "
            "calibrated model shows a sizeable ECE from chance alone.")


def _bins_line(summary: dict, strategy: str) -> str:
    bins = summary["bins"]
    shown = bins[bins["count"] > 0]
    return (f"{len(shown)} non-empty bins of {calibration.STRATEGY_LABELS[strategy]}; per bin confidence → share "
            "correct: " + "; ".join(f"{fmt.value(c, 2)} → {fmt.value(a, 2)} (n={k})" for c, a, k in
                                    zip(shown["mean_confidence"], shown["accuracy"], shown["count"])))


def _why_not_own(ctx: Ctx) -> str:
    """Why the loaded data gives the diagram no runs of its own ('' for a bundled release: said in the point)."""
    output = cache.active_output()
    if output is not None and output.lazy:
        return (f"{TEXT(ctx.rel.name)} is a large suite, so its instance files were not read at load (each run's are "
                "read when it is opened on *Prompts & Completions*) and this page holds no per-instance confidences "
                "for it: the diagram shows a genuine HELM run bundled with this app.")
    return (f"{TEXT(ctx.rel.name)} carries no per-instance confidences (HELM's leaderboard tables keep only the ECE "
            "per cell), so the diagram shows a genuine HELM run bundled with this app (BBQ, the models whose files "
            "carry real log-probabilities). Load a HELM run with log-probabilities on the *Bring Your Own HELM "
            "Output* page to see your own.")


def diagram_view(ctx: Ctx) -> View:
    options = _sources()
    source = ctx.get("cal_source", options[0], options)
    strategy = ctx.get("cal_bins", "equal_mass", calibration.STRATEGIES)
    gap_notes, links = _release_gap(ctx)
    published = published_calibration()
    notes: list[str] = []
    talk: list[str] = []
    simulated = source == SIMULATION
    if simulated:
        acc, conf, n = _sim_settings(ctx)
        summary = simulated_reliability(acc, conf, n, calibration.N_BINS, strategy, 0)
        hist = simulated_reliability(acc, conf, n, calibration.N_BINS, "uniform", 0)["bins"]
        point = (f":gray-badge[Simulation · not HELM data] A simulated model {fmt.share(summary['mean_confidence'], 0)} "
                 f"sure on average and {fmt.share(summary['accuracy'], 0)} right: ECE {fmt.value(summary['ece'])} over "
                 f"{fmt.count(n, 'answer')}.")
        talk.append(f"Settings: accuracy {fmt.share(acc, 0)}, confidence shift {conf:+.1f} (0 states exactly the "
                    f"chance of being right), {fmt.count(n, 'answer')}.")
        notes += ["Synthetic answers: each has a true chance of being right drawn around the accuracy you pick; the "
                  "simulated model states a confidence that is that chance pushed up (overconfident) or down "
                  "(underconfident). Drag the sliders and watch the curve and the ECE.",
                  "Simulation, seeded so the same settings always draw the same answers. With the shift at 0 the ECE "
                  "is still above 0: a finite sample never lands exactly on the diagonal, the fewer the answers the "
                  "less so."]
        computed = False
        data_name = "reliability_bins_simulation"
    elif source == BUNDLED:
        r = bundled.reliability_of(ctx.get("cal_real"), strategy)
        summary, hist = r["summary"], r["hist"]
        few = " (HELM wants ~300)" if summary["few_samples"] else ""
        point = (f"A genuine HELM run: **{TEXT(r['model'])}** on {TEXT(r['scenario'])} is "
                 f"{fmt.share(summary['mean_confidence'], 0)} sure on average, {fmt.share(summary['accuracy'], 0)} right: "
                 f"ECE {fmt.value(summary['ece'])}, n = {fmt.count(summary['n'])}{few}.")
        talk.append(TEXT(f"HELM run {r['run']}: {r['model']} on {r['scenario']}, n = {fmt.count(summary['n'])} "
                         "instances."))
        notes.append(":blue-badge[Real HELM run] " + TEXT(
            f"{r['model']} on {r['scenario']} (HELM run {r['run']}), n = {fmt.count(summary['n'])} instances. "
            "Confidence = the probability the model gave the answer letter it wrote (exp of that token's "
            "log-probability, as the serving API returned it)."))
        if r["helm_ece"] == r["helm_ece"]:
            notes.append(TEXT(
                f"HELM's own stats.json reports ece_10_bin = {fmt.value(r['helm_ece'])} for this run, computed from "
                f"its max_prob statistic (mean {fmt.value(r['helm_max_prob'])}): the completion-level log-probability "
                "in these files is 0, so HELM took every answer as 100% sure. The diagram uses the answer token's own "
                "log-probability instead."))
        notes.append(TEXT(r["source"]))
        if DATA not in options and not ctx.rel.is_later:
            notes.append(_why_not_own(ctx))
        computed = False
        data_name = "reliability_bins_" + r["model"].replace(" ", "_")
    else:
        groups = instance_groups()
        labels = groups["label"].tolist()
        label = ctx.get("cal_run", labels[0], labels)
        row = groups.iloc[labels.index(label)]
        args = (str(row["model"]), str(row["scenario"]), str(row["run"]), calibration.N_BINS)
        summary = release_reliability(*args, strategy)
        hist = release_reliability(*args, "uniform")["bins"]
        few = " (HELM wants ~300)" if summary["few_samples"] else ""
        point = (f"**{TEXT(label)}** ({TEXT(ctx.rel.name)}) is {fmt.share(summary['mean_confidence'], 0)} sure on "
                 f"average, {fmt.share(summary['accuracy'], 0)} right: ECE {fmt.value(summary['ece'])} computed here, "
                 f"n = {fmt.count(summary['n'])}{few}.")
        helm_ece = published_ece(str(row["model"]), str(row["scenario"]))
        notes.append(
            f"ECE computed by this app from the run's per-instance confidences ({fmt.count(summary['n'], 'answer')}), "
            "binned as HELM's ece_10_bin. "
            + (f"HELM's own table gives this cell an ECE of {fmt.value(helm_ece)}." if not math.isnan(helm_ece) else
               _no_published_ece(ctx)))
        computed = True
        data_name = "reliability_bins"
    if summary["few_samples"]:
        talk.insert(0, _few(summary))
    bins = summary["bins"]
    worst = bins[bins["count"] > 0].sort_values("gap").head(1)
    if len(worst) and float(worst["gap"].iloc[0]) < 0:
        w = worst.iloc[0]
        talk.append(f"Widest gap below the diagonal: {fmt.share(w['mean_confidence'], 0)} stated, "
                    f"{fmt.share(w['accuracy'], 0)} right ({fmt.count(int(w['count']), 'answer')}).")
    talk.append(f"Share right among its 10% most confident answers: {fmt.share(summary['selective_accuracy_10'])}.")
    if not published["has_ece"] and not ctx.rel.is_later:
        notes.append(_no_published_ece(ctx))
    fig = charts_reliability.reliability_diagram(summary, simulated=simulated, hist=hist, mode=ctx.mode)
    alt = (("Simulated " if simulated else "") + f"reliability diagram: ECE {fmt.value(summary['ece'])} over "
           f"{fmt.count(summary['n'])} answers in {_bins_line(summary, strategy)}. Below: answers per 10-point "
           "band of stated confidence: " + ", ".join(
               f"{fmt.share(lo, 0)}–{fmt.share(hi, 0)}: {int(k)}" for lo, hi, k in
               zip(hist["lower"], hist["upper"], hist["count"]) if k))
    return View(point=point, visual=Chart(fig, key="calibration_reliability", alt=alt, data=bins, data_name=data_name),
                talk=talk, cards=_cards(summary, computed=computed), claims=["ece_definition"],
                notes=gap_notes + notes, links=links, read=DEFINITION)


# ----------------------------------------------------------------------------- slide 2: accuracy against ECE


def _scenario(ctx: Ctx, scenarios: list[str]) -> str:
    default = "HellaSwag" if "HellaSwag" in scenarios else scenarios[0]
    return ctx.get("cal_scenario", default, scenarios)


def accuracy_controls(ctx: Ctx) -> None:
    scenarios = calibration_scenarios()
    if not scenarios or not ctx.models:
        return
    state.allow("cal_scenario", scenarios)
    default = scenarios.index("HellaSwag") if "HellaSwag" in scenarios else 0
    st.selectbox("Scenario", scenarios, index=default, key="cal_scenario", bind="query-params")


def _relation(rho: float) -> str:
    if not math.isfinite(rho):
        return "accuracy and calibration cannot be correlated"
    if abs(rho) < calibration.CLEAR_CORRELATION:
        return "accuracy and calibration show no clear relation"
    return f"more accurate models are {'worse' if rho > 0 else 'better'} calibrated"


def accuracy_ask(ctx: Ctx) -> list:
    """Guess the calibration error of the scenario's most accurate model (the slide's own table)."""
    scenarios = calibration_scenarios() if _no_models(ctx, "") is None else []
    if not scenarios:
        return []
    scenario = _scenario(ctx, scenarios)
    df = accuracy_vs_ece(scenario, ctx.models)
    if df.empty:
        return []
    best = df.iloc[0]
    q = participation.number_question(
        f"calibration.{ctx.rel.name}.{scenario}", f"{best['model']} is the most accurate on {scenario}. Its expected "
        "calibration error (0 = says 90 % and is right 90 % of the time)?", round(float(best["ece"]), 3), lo=0, hi=1,
        step=0.01, note=f"computed from {ctx.rel.name}: ECE on {scenario}", page="calibration", slide="accuracy")
    return [q] if q else []


def accuracy_view(ctx: Ctx) -> View:
    gap_notes, links = _release_gap(ctx)
    empty = _no_models(ctx, "accuracy against calibration")
    if empty is not None:
        return empty
    scenarios = calibration_scenarios()
    if not scenarios:
        msg = _no_published_ece(ctx) + " So accuracy cannot be compared with HELM's calibration error here."
        return View(point=_no_published_ece(ctx), empty=msg, notes=gap_notes, links=links)
    scenario = _scenario(ctx, scenarios)
    df = accuracy_vs_ece(scenario, ctx.models)
    corr = correlation_summary(scenario, ctx.models)
    missing = models_without_ece(scenario, ctx.models)
    notes = [f"Each point is a model of the current cohort ({fmt.count(len(ctx.models), 'model')}): its accuracy on "
             f"the scenario and its ECE, as {TEXT(ctx.rel.name)} reports them. The paper's numbers come from its own "
             "2022 runs; later releases recomputed several metrics, so the two can differ."]
    if not missing.empty:
        notes.append(f"{fmt.count(len(missing), 'model')} of the cohort {fmt.plural(len(missing), 'has')} accuracy "
                     f"but no ECE on {TEXT(scenario)}: " + TEXT(", ".join(missing["model"]))
                     + ". The *Missing ECE* slide lists them on every scenario.")
    if len(df) < 3:
        msg = (f"Only {fmt.count(len(df), 'model')} of the current cohort {fmt.plural(len(df), 'has')} both accuracy "
               f"and ECE on {TEXT(scenario)}: too few for a correlation. Widen the cohort or pick another scenario.")
        return View(point=msg, empty=msg, notes=notes)
    metric = str(df["accuracy_metric"].iloc[0])
    rho = corr["spearman"]
    best = df.iloc[0]
    lowest = df.loc[df["ece"].idxmin()]
    point = (f"On **{TEXT(scenario)}**, {_relation(rho)}: rank correlation of accuracy with ECE {rho:+.2f} over "
             f"{fmt.count(corr['n'], 'model')}.")
    talk = [TEXT(f"Most accurate: {best['model']} ({metric} {fmt.value(best['accuracy'])}, ECE {fmt.value(best['ece'])})."),
            TEXT(f"Best calibrated: {lowest['model']} (ECE {fmt.value(lowest['ece'])}, {metric} "
                 f"{fmt.value(lowest['accuracy'])}).")]
    for v in claim_verdicts(ctx.models).itertuples():
        talk.append(f"{TEXT(v.scenario)}: this release {v.verdict} with the paper ({fmt.count(v.n_models, 'model')}).")
    cards = [Card("Models with both values", fmt.count(corr["n"])),
             Card("Rank correlation, accuracy vs ECE", f"{rho:+.2f}",
                  "Spearman: rank both, then Pearson on the ranks. + means more accurate models have a higher ECE "
                  "(worse calibrated); − means they are better calibrated."),
             Card("Pearson correlation", f"{corr['pearson']:+.2f}")]
    fig = charts_reliability.accuracy_ece_scatter(df, scenario=scenario, metric=metric, mode=ctx.mode)
    chart = Chart(fig, key="calibration_scatter", data=df, data_name=f"accuracy_vs_ece_{scenario}",
                  alt=(f"Scatter of {len(df)} models on {scenario}: accuracy ({metric}) against ECE, rank correlation "
                       f"{rho:+.2f}. Most accurate: {best['model']} ({fmt.value(best['accuracy'])}, ECE "
                       f"{fmt.value(best['ece'])}); best calibrated: {lowest['model']} (ECE {fmt.value(lowest['ece'])})."))
    return View(point=point, visual=chart, talk=talk, cards=cards, claims=["calibration_depends"], notes=notes,
                read="Right is more accurate, up is worse calibrated; colour and symbol give the model's access.")


def accuracy_details(ctx: Ctx, view: View, event) -> None:
    """Does this release agree with the paper: each testable claim with the data's verdict."""
    if not ctx.models or not calibration_scenarios():
        return
    st.markdown("#### Does this release agree with the paper?")
    st.caption(f"Computed from {TEXT(ctx.rel.name)} for the current cohort ({fmt.count(len(ctx.models), 'model')}).")
    for _, v in claim_verdicts(ctx.models).iterrows():
        with st.container(border=True):
            components.claim(v["claim_id"], compact=True)
            colour = VERDICT_BADGE.get(v["verdict"], "gray")
            st.markdown(f":{colour}-badge[This release {v['verdict']}] {TEXT(v['detail'])}")


# ----------------------------------------------------------------------------- slide 3: the interfaces


def _method(ctx: Ctx) -> str:
    return ctx.get("cal_method", "joint", calibration.MC_METHODS)


def interface_controls(ctx: Ctx) -> None:
    state.allow("cal_method", calibration.MC_METHODS)
    st.segmented_control("Multiple-choice interface", calibration.MC_METHODS, default="joint", required=True,
                         key="cal_method", bind="query-params")


def _own_comparison(ctx: Ctx):
    """The loaded suite's own runs of one model on one scenario under several multiple-choice interfaces, for the
    models of the cohort (empty for a bundled release)."""
    comp = cache.method_comparison()
    return comp[comp["model"].isin(set(ctx.models))].reset_index(drop=True)


def _defaults_table(ctx: Ctx, method: str) -> Table:
    """HELM classic's default interface per core scenario (v0.1.0 run specs); on classic with the cohort's models
    that have accuracy and an ECE there."""
    rows = []
    classic = ctx.rel.is_classic
    for m in calibration.MC_METHODS:
        scen = list(calibration.MC_DEFAULT_SCENARIOS[m])
        counts = method_scenarios(m, ctx.models).set_index("scenario") if classic else None
        for s in scen:
            row = {"interface": m, "the model sees": SEES[m], "core scenario": s}
            if classic:
                have = s in counts.index
                row["models with accuracy"] = int(counts.loc[s, "models_with_accuracy"]) if have else 0
                row["models with an ECE"] = int(counts.loc[s, "models_with_ece"]) if have else 0
            rows.append(row)
    df = pd.DataFrame(rows)
    return Table(df, key="calibration_interfaces", highlight=list(df["interface"] == method),
                 data_name="multiple_choice_interfaces")


def interface_view(ctx: Ctx) -> View:
    method = _method(ctx)
    own = _own_comparison(ctx)
    claims = ["mc_methods", *RELATED[method]]
    read = (f"{EXAMPLES[method][1]} The highlighted rows are *{method}*.")
    if not own.empty:
        sentences = calibration.method_sentences(own)
        point = TEXT(sentences[0]) + (f" ({fmt.count(len(sentences) - 1, 'more pair')} below.)" if len(sentences) > 1
                                      else "")
        talk = [f"{TEXT(ctx.rel.name)} ran the same model and scenario under several interfaces, so it has its own "
                "comparison (main metric on the main split, from each run's stats.json)."] + [TEXT(t) for t in sentences]
        table = Table(own.drop(columns=["run"]), key="calibration_own_interfaces",
                      formats={"value": fmt.value, "ece": fmt.value}, highlight=list(own["method"] == method),
                      data_name="own_interface_comparison")
        return View(point=point, visual=table, talk=talk, claims=claims, read=read)
    present = {m: [s for s in calibration.MC_DEFAULT_SCENARIOS[m] if s in ctx.rel.taxonomy.scenario_names]
               for m in calibration.MC_METHODS}
    if ctx.rel.is_classic:
        point = ("HELM's core scenarios put multiple choice three ways: "
                 + ", ".join(f"{m} for {fmt.names(s)}" for m, s in present.items() if s) + ".")
        uses = method_scenarios(method, ctx.models)
        talk = [f"*{method}* in {TEXT(ctx.rel.name)}: " + "; ".join(
            f"{TEXT(r.scenario)}: {fmt.count(r.models_with_accuracy)} with accuracy, {fmt.count(r.models_with_ece)} "
            "with an ECE" for r in uses.itertuples()) + "."] if not uses.empty else []
    else:
        point = ("HELM classic's defaults: "
                 + ", ".join(f"{m} for {fmt.names(list(calibration.MC_DEFAULT_SCENARIOS[m]))}"
                             for m in calibration.MC_METHODS) + " (v0.1.0 run specs).")
        talk = []
    output = cache.active_output()
    if output is not None and not output.runs.empty:
        talk.append(f"{TEXT(ctx.rel.name)} has no model of the cohort that ran one scenario under two of HELM's "
                    "multiple-choice interfaces, so it has no comparison of its own.")
    elif not ctx.rel.is_classic:
        talk.append(f"The tables of {TEXT(ctx.rel.name)} do not say which interface each run used.")
    notes = ["The interfaces are HELM's adapter methods multiple_choice_joint, multiple_choice_separate_original and "
             "multiple_choice_separate_calibrated; the scenarios' defaults are HELM v0.1.0's run specs."]
    return View(point=point, visual=_defaults_table(ctx, method), talk=talk, claims=claims, notes=notes, read=read)


def interface_details(ctx: Ctx, view: View, event) -> None:
    """The chosen interface on one made-up question (an illustration), and all the paper's findings on it."""
    method = _method(ctx)
    st.markdown(":gray-badge[Illustration] A made-up question, not an instance from HELM's data; it shows the "
                "shape of each interface, not HELM's exact prompt text.")
    with st.container(border=True):
        # Plain text (it wraps on a phone), not st.code: the code block's highlighter costs ~0.2 s of browser time.
        st.text(EXAMPLES[method][0])
    box = components.lazy_expander("All of the paper's findings on the multiple-choice interface", key="cal_mc_claims")
    if box is not None:
        with box:
            for cid in ALL_MC_CLAIMS:
                components.claim(cid, compact=True)


# ----------------------------------------------------------------------------- slide 4: models without an ECE

WHY_BLANK = ("Calibration needs one more thing from the interface: the probability the model gave its own answer. "
             "Where HELM got no usable probabilities back from a model's API, its calibration cannot be measured at "
             "all: the cell stays blank, which is different from a good or a bad score.")


def missing_view(ctx: Ctx) -> View:
    gap_notes, links = _release_gap(ctx)
    empty = _no_models(ctx, "the models without an ECE")
    if empty is not None:
        return empty
    scenarios = calibration_scenarios()
    if not scenarios:
        msg = _no_published_ece(ctx) + " So there is no ECE to set beside accuracy."
        return View(point=_no_published_ece(ctx), empty=msg, notes=gap_notes, links=links, read=WHY_BLANK)
    gaps = models_without_ece(None, ctx.models)
    if gaps.empty:
        msg = (f"Every model of the current cohort that has an accuracy value on a calibration scenario also has its "
               f"ECE there ({TEXT(ctx.rel.name)}).")
        return View(point=msg, empty=msg, read=WHY_BLANK)
    never = gaps[gaps["n_with_ece"] == 0]
    some = gaps[gaps["n_with_ece"] > 0]
    point = (f"HELM could not measure calibration for {fmt.count(len(gaps))} of the cohort's "
             f"{fmt.count(len(ctx.models), 'model')} on some scenario; {fmt.count(len(never))} never got an ECE.")
    talk = []
    if not never.empty:
        talk.append("**No ECE anywhere:** " + TEXT(", ".join(never["model"])) + ".")
    if not some.empty:
        talk.append("**ECE missing on some scenarios:** " + TEXT(
            "; ".join(f"{m} ({k} of {k + w})" for m, k, w in zip(some["model"], some["n_missing"], some["n_with_ece"])))
            + ".")
    cards = [Card("Models with accuracy but never an ECE", fmt.count(len(never)),
                  f"Across the {len(scenarios)} scenarios where {TEXT(ctx.rel.name)} reports ECE for some model."),
             Card("Models missing ECE on some scenarios only", fmt.count(len(some)))]
    fig = charts_reliability.ece_coverage_bars(gaps, n_scenarios=len(scenarios), mode=ctx.mode)
    chart = Chart(fig, key="calibration_no_ece", data=gaps, data_name="models_without_ece",
                  alt=(f"Bars for {len(gaps)} models: scenarios with an ECE and scenarios with accuracy but no ECE. "
                       + "; ".join(f"{m}: {w} with, {k} without" for m, k, w in
                                   zip(gaps["model"], gaps["n_missing"], gaps["n_with_ece"]))))
    return View(point=point, visual=chart, talk=talk, cards=cards, read=WHY_BLANK,
                notes=["The data behind the chart lists, per model, the scenarios without an ECE."])


# ----------------------------------------------------------------------------- the deck


def _slides(ctx: Ctx) -> list[Slide]:
    has_ece = bool(calibration_scenarios())
    gaps = has_ece and bool(ctx.models) and not models_without_ece(None, ctx.models).empty
    return [
        Slide("diagram", "Reliability diagram", view=diagram_view, controls=diagram_controls, fragment=True),
        Slide("accuracy", "Accuracy and calibration", view=accuracy_view, ask=accuracy_ask, controls=accuracy_controls,
              details=accuracy_details, on_route=has_ece),
        Slide("interfaces", "Switch interfaces", view=interface_view, controls=interface_controls,
              details=interface_details),
        Slide("missing", "Missing ECE", view=missing_view, on_route=gaps),
    ]


DECK = slides.Deck("calibration", _slides,
                   keep=["cal_source", "cal_real", "cal_bins", "cal_acc", "cal_conf", "cal_n", "cal_run", "cal_scenario",
                         "cal_method"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
