"""Prompt Sensitivity: how far a score moves with the in-context examples (HELM's seeds), what that does to
the ranking, and the paper's findings on prompt format and the number of examples."""
from __future__ import annotations

import streamlit as st

from helm_core import fmt, releases, sensitivity
from ui import real_runs as bundled
from ui import cache, charts, charts_reliability, components, presenter, state

seed_spread = cache.on_release(sensitivity.seed_spread)
single_run_share = cache.on_release(releases.run_counts)
median_spread = cache.on_release(sensitivity.median_spread)
rank_flips = cache.on_release(sensitivity.rank_flips)
spread_scenarios = cache.on_release(sensitivity.spread_scenarios)
spread_dumbbell_spec = cache.on_release(charts_reliability.spread_dumbbell_spec)
median_spread_spec = cache.on_release(charts_reliability.median_spread_spec)
rank_slope_spec = cache.on_release(charts_reliability.rank_slope_spec)

NQ_OPEN = "NaturalQuestions (open-book)"
KIND_TEXT = {
    "seeds": "the range over HELM's in-context-example seeds: the same model and test set, only the set of "
             "in-context examples in the prompt changes",
    "runs": "the range over several runs (sub-tasks, subjects or splits, each with its seeds), **not over seeds "
            "alone**: it mixes how hard each sub-task is with seed luck",
    "unknown": "the range over the runs behind each value; the release does not say what separates them (seeds, "
               "sub-tasks or adaptation methods), so it may mix seed luck with other differences",
}


def _reading(scenario: str, metric: str, kind: str, n_single: int) -> str:
    """How to read the per-model chart: bars with a diamond where a model has several runs, an open circle
    where it has one; said only for the marks that are drawn."""
    head = f"For **{components.text(scenario)}** ({components.text(metric)}), "
    if kind == "single":
        return (head + f"every model of the cohort has a single run in {components.text(rel.name)}: each circle is "
                "that run's value, the value HELM reports. With one run there is no spread to show.")
    return (head + f"each bar is {KIND_TEXT[kind]}. The diamond is the mean, the value HELM reports."
            + (f" An open circle is a model with a single run ({fmt.count(n_single, 'model')}): no spread."
               if n_single else ""))


def _move(change: float) -> str:
    if change > 0:
        return f"▲ {int(change)}"
    if change < 0:
        return f"▼ {int(-change)}"
    return "="


components.page_header("sensitivity")
rel = cache.active_release()
models = cache.active_models()
if rel.is_later:  # Lite, Capabilities: say how many runs stand behind their cells, link to classic
    runs = single_run_share()
    st.info(f"**{components.text(rel.name)} holds no seed spread of its own:** {fmt.count(runs['single'])} of its "
            f"{fmt.count(runs['cells'])} accuracy cells come from a single run; the others average HELM's sub-runs "
            f"({components.text(', '.join(runs['combined']) or 'none')}).", icon=":material/block:")
    st.page_link("app_pages/sensitivity.py", label="Prompt Sensitivity on HELM classic v0.4.0",
                 query_params={"release": "classic"}, icon=":material/history:")
scenarios = spread_scenarios()


def _ready() -> bool:
    if not scenarios:
        st.info(f"{rel.name} has no main-metric values, so there is no spread to show.", icon=":material/info:")
        return False
    return components.has_models(models, "the spread")


def _scenario() -> str:
    """The scenario picker, shared by the per-model and the best-or-worst sections (one key, so one choice)."""
    state.allow("sens_scenario", scenarios)
    default = scenarios.index(NQ_OPEN) if NQ_OPEN in scenarios else 0
    return st.selectbox("Scenario", scenarios, index=default, key="sens_scenario", bind="query-params")


def _per_model() -> None:
    main_slot = presenter.main_slot()
    components.claim("fixed_examples", compact=True)
    if not _ready():
        return
    st.subheader("How far one model's score moves with the in-context examples")
    c1, c2 = st.columns([3, 1])
    with c1:
        scenario = _scenario()
    with c2:
        state.allow("sens_sort", sensitivity.SORTS)
        sort = st.segmented_control("Sort models by", sensitivity.SORTS, default="mean", required=True, key="sens_sort",
                                    bind="query-params")
    sp = seed_spread(scenario, models)
    if sp.empty:
        st.info(f"No model of the current cohort has a value on {components.text(scenario)}.")
    else:
        kind = sensitivity.spread_kind(sp)
        metric = str(sp["metric"].iloc[0])
        seeded = sp[sp["kind"] == "seeds"]
        single = sp[sp["kind"] == "single"]
        st.markdown(_reading(scenario, metric, kind, len(single)))
        if kind == "runs":
            st.info(
                f"On {components.text(scenario)} HELM's cell combines several runs per model (up to "
                f"{fmt.value(sp['n_runs'].max(), 0)}) where each configuration ran with its seeds: the spread below is over "
                "sub-tasks as well as seeds, so it is not prompt sensitivity alone. "
                f"Pick {NQ_OPEN} or another scenario with one run per seed to see the seed spread.",
                icon=":material/info:",
            )
        methods = _method_note(scenario, sp)
        if methods:
            st.info(methods, icon=":material/swap_horiz:")
        multi = sp[sp["kind"].isin(["runs", "unknown"]) & (sp["range"] > 0)]
        use = seeded if len(seeded) else multi
        m = st.columns(4)
        if kind in ("seeds", "single"):
            m[0].metric("Models with 3-seed spread", fmt.count(len(seeded)))
        else:
            m[0].metric("Models with several runs", fmt.count(len(multi)))
        m[1].metric("One seed only", fmt.count(len(single)), help="Models HELM ran with a single seed: no spread.")
        if len(use):
            widest = use.loc[use["range"].idxmax()]
            m[2].metric("Median range", fmt.value(use['range'].median()), help=f"Median of max − min ({metric}).")
            m[3].metric("Widest range", fmt.value(widest['range']), help=f"{widest['model']}: "
                        f"{fmt.value(widest['min'])} to {fmt.value(widest['max'])}")
        ordered = sensitivity.order_spread(sp, sort)
        fig = charts.figure(spread_dumbbell_spec(scenario, models, sort))
        top = ordered.head(3)
        with presenter.into(main_slot):
            components.chart(
                fig, key="sensitivity_dumbbell", main=True,
                alt=(f"Dumbbell chart of {len(sp)} models on {scenario} ({metric}), sorted by {sort}: min to max with the "
                     f"mean marked; {len(seeded)} with a seed spread, {len(single)} with one seed only. First three: "
                     + "; ".join(f"{r.model} {fmt.value(r.min)}–{fmt.value(r.max)} (mean {fmt.value(r.mean)})" for r in top.itertuples())),
                data=ordered[["model", "metric", "mean", "min", "max", "range", "n_runs", "n_trials", "kind",
                              "rank_mean", "rank_best", "rank_worst"]],
                data_name=f"seed_spread_{scenario}",
            )
        if len(seeded):
            jumpers = seeded[(seeded["rank_best"] != seeded["rank_worst"])]
            st.caption(
                f"Ranks in the data table: rank_best / rank_worst is the model's rank among all {len(sp)} models "
                f"(others at their mean) had it been reported with its best or its worst seed; "
                f"{len(jumpers)} of {len(seeded)} seeded models would change rank that way. Values: {rel.name}."
            )



def _method_note(scenario: str, sp) -> str:
    """For a loaded suite: the models whose runs on `scenario` differ by multiple-choice method, so their range is
    the interface's effect, not seed luck."""
    comp = cache.method_comparison()
    comp = comp[(comp["scenario"] == scenario) & comp["model"].isin(set(sp["model"]))]
    if comp.empty:
        return ""
    parts = [f"{components.text(m)} ({fmt.names(list(dict.fromkeys(g['method'])))})"
             for m, g in comp.groupby("model", sort=False)]
    return (f"On {components.text(scenario)}, the runs behind the value of {fmt.names(parts)} use different "
            "multiple-choice interfaces: that range is the interface's effect, not seed luck. The *Switch interfaces* "
            "section of *Reliability, Not Just Confidence Theater* sets them side by side.")


def _across_reading(ms) -> str:
    """How to read the per-scenario chart, naming this release's scenarios of each kind and its main metrics."""
    def named(kinds) -> str:
        return components.text(fmt.names(ms.loc[ms["kind"].isin(kinds), "scenario"].tolist(), limit=4))

    parts = ["The median, across the cohort's models, of each model's range (max − min)."]
    n_seeds = int((ms["kind"] == "seeds").sum())
    n_runs = int(ms["kind"].isin(["runs", "unknown"]).sum())
    n_single = int(ms["kind"].isin(["single", "none"]).sum())
    if n_seeds:
        parts.append(f"Bars are ranges over seeds alone ({fmt.count(n_seeds, 'scenario')}).")
    else:
        parts.append(f"No scenario of {components.text(rel.name)} has a spread over seeds alone, so no bar is drawn.")
    if n_runs:
        parts.append(f"Where a cell combines several runs that are not just seeds ({named(['runs', 'unknown'])}), its "
                     "median is shown as text, off the scale, because it is not a seed spread.")
    if n_single:
        parts.append(f"Scenarios with one run per model ({named(['single', 'none'])}) have no spread.")
    metrics = [m for m in dict.fromkeys(ms["metric"]) if m]
    if metrics:
        parts.append(f"Main {fmt.plural(len(metrics), 'metric')}: {components.text(fmt.names(metrics))}.")
    return " ".join(parts)


def _across() -> None:
    if not _ready():
        return
    st.subheader("Which scenarios are most seed-sensitive")
    ms = median_spread(models)
    with_seeds = ms[ms["kind"] == "seeds"].sort_values("median_range", ascending=False)
    st.markdown(_across_reading(ms))
    fig = charts.figure(median_spread_spec(models))
    alt_top = "; ".join(f"{r.scenario} {fmt.value(r.median_range)} (n={r.n_seeded})" for r in with_seeds.head(4).itertuples())
    components.chart(
        fig, key="sensitivity_median",
        alt=(f"Bar chart of the median range per scenario for {len(ms)} scenarios; over seeds, largest first: "
             f"{alt_top or 'none'}."),
        data=ms, data_name="median_spread_per_scenario",
    )
    thin = with_seeds[with_seeds["n_seeded"] < charts_reliability.FEW_MODELS]
    if not thin.empty:
        st.caption(f"Dotted bars: few models with a seed-only spread (median over fewer than {charts_reliability.FEW_MODELS}): "
                   + components.text(", ".join(f"{s} ({n})" for s, n in zip(thin["scenario"], thin["n_seeded"])))
                   + ". Most models there combine several runs per cell.")


def _best_or_worst() -> None:
    if not _ready():
        return
    st.subheader("If only the best seed, or only the worst seed, had been reported")
    scenario = _scenario()
    sp = seed_spread(scenario, models)
    if sp.empty:
        flips = sp.iloc[0:0]
    else:
        flips = rank_flips(scenario, models)
    if flips.empty:
        st.info(f"No model of the current cohort has a spread over seeds alone on {components.text(scenario)}, "
                "so there is no best or worst seed to report."
                + (f" Try {NQ_OPEN}." if scenario != NQ_OPEN and NQ_OPEN in scenarios else ""))
    else:
        fs = sensitivity.flip_summary(flips)
        metric = str(sp["metric"].iloc[0])
        st.markdown(
            "HELM reports the mean over the seeds. A paper that ran one seed would have reported one of them. "
            f"Here every model of the cohort with 3 seeds on {components.text(scenario)} is ranked by its best seed "
            "(left) and by its worst seed (right); models that change place are highlighted."
        )
        m = st.columns(3)
        m[0].metric("Models that change rank", f"{fmt.count(fs['moved'])} of {fmt.count(fs['n'])}")
        m[1].metric("Largest move", f"{fmt.count(fs['max_move'])} places")
        m[2].metric("Pairs whose order flips", f"{fmt.count(fs['flipped_pairs'])} of {fmt.count(fs['pairs'])}")
        table = flips.assign(move=flips["change"].map(_move))
        left, right = st.columns(2)
        with left:
            st.markdown("**Everyone at their best seed**")
            b = table.sort_values(["rank_if_best", "model"])[["rank_if_best", "model", "best", "move"]]
            b = b.rename(columns={"rank_if_best": "rank", "best": metric, "move": "change"})
            components.table(b, formats={"rank": fmt.count}, highlight=b["change"] != "=")
        with right:
            st.markdown("**Everyone at their worst seed**")
            w = table.sort_values(["rank_if_worst", "model"])[["rank_if_worst", "model", "worst", "move"]]
            w = w.rename(columns={"rank_if_worst": "rank", "worst": metric, "move": "change"})
            components.table(w, formats={"rank": fmt.count}, highlight=w["change"] != "=")
        st.caption("change: places gained (▲) or lost (▼) going from the best-seed ranking to the worst-seed one. "
                   f"Models that ran a single seed are left out ({len(sp) - len(flips)} here).")
        fig = charts.figure(rank_slope_spec(scenario, models))
        movers = flips.reindex(flips["change"].abs().sort_values(ascending=False).index).head(3)
        components.chart(
            fig, key="sensitivity_ranks",
            alt=(f"Slope chart of {fs['n']} models' ranks on {scenario}, best seed against worst seed: {fs['moved']} "
                 "change rank; largest moves: "
                 + "; ".join(f"{r.model} {int(r.rank_if_best)} → {int(r.rank_if_worst)}" for r in movers.itertuples())),
            data=flips, data_name=f"rank_flips_{scenario}",
        )


def _findings() -> None:
    st.subheader("Prompt format and the number of examples: the paper's findings")
    st.markdown(
        "HELM also ran ablations that change the prompt format and the number of in-context examples. Their results "
        "are not in the core leaderboard tables this app carries, so they are shown as claims, with what the "
        "core data says beside them."
    )
    components.claim("prompt_sensitivity")
    components.claim("format_collapse")
    nq = seed_spread(NQ_OPEN, models) if models and NQ_OPEN in (scenarios or []) else None

    def _nq_row(name: str):
        if nq is None or nq.empty:
            return None
        hit = nq[nq["model"] == name]
        return None if hit.empty else hit.iloc[0]

    bloom, anthropic = _nq_row("BLOOM (176B)"), _nq_row("Anthropic-LM v4-s3 (52B)")
    if bloom is not None:
        extra = (f" and Anthropic-LM v4-s3 (52B) {fmt.value(anthropic['mean'])}" if anthropic is not None else "")
        st.markdown(
            f":blue-badge[From the data] With HELM's default format, {rel.name} gives BLOOM (176B) an F1 of "
            f"{fmt.value(bloom['mean'])} on {NQ_OPEN} (seeds {fmt.value(bloom['min'])}–{fmt.value(bloom['max'])}){extra}: in line with the "
            "claim's starting point of about 60. The collapse to 8.5 under another format is not in these tables."
        )
    else:
        st.caption(f"BLOOM (176B) on {NQ_OPEN} is not in the current cohort or dataset, so the claim's baseline "
                   "cannot be checked here.")
    components.claim("seed_spread_nq")
    claims = cache.claims()
    claimed = claims["seed_spread_nq"].values  # (37.6, 63.6) in %
    check = sensitivity.compare_range(nq, "davinci (175B)", claimed[0] / 100, claimed[1] / 100) if nq is not None else None
    if check is not None:
        verdict = "agrees" if check["agrees"] else "disagrees"
        st.markdown(
            f":{'green' if check['agrees'] else 'red'}-badge[This release {verdict}] In {rel.name}, davinci (175B) ranges "
            f"from {fmt.share(check['min'])} to {fmt.share(check['max'])} F1 over its seeds on {NQ_OPEN}"
            + ("." if check["agrees"] else
               f", far narrower than the claimed {fmt.value(claimed[0], 1)}% to {fmt.value(claimed[1], 1)}%. Later releases recomputed the "
               "runs, and the claim itself is unverified.")
        )
    else:
        st.caption(f"davinci (175B) has no seed spread on {NQ_OPEN} in the current cohort or dataset.")
    components.claim("seed_median_nq")
    if nq is not None:
        med, n_seed = sensitivity.median_seed_range(nq)
        low, high = claims["seed_median_nq"].values
        if n_seed:
            closer = "the study notes' figure" if abs(med - low) <= abs(med - high) else "the summary's figure"
            st.markdown(
                f":blue-badge[From the data] In {rel.name}, the median range over seeds on {NQ_OPEN} is {fmt.value(med)} F1 "
                f"across the cohort's {n_seed} models with 3 seeds: "
                + (f"below {fmt.value(low, 2)}, as the study notes say, not {fmt.value(high, 2)}." if med < low else
                   f"not below {fmt.value(low, 2)}; closer to {closer} ({fmt.value(low, 2)} against {fmt.value(high, 2)}).")
            )
    components.claim("incontext_count")
    components.claim("wild_swings")
    with st.container(border=True):
        st.markdown(
            "**What is unverified here.** Which of the six format variants collapsed BLOOM (176B), and its exact "
            "starting value; davinci's seed range of 37.6% to 63.6%; the median seed range on NaturalQuestions "
            "(open-book), where two secondary sources disagree (below 0.03 against about 0.17). The paper's PDF was not "
            "available to check them; the badges above say how each claim is sourced."
        )


components.sections("sensitivity_section", {
    "Per model": _per_model,
    "Across scenarios": _across,
    "Best or worst seed": _best_or_worst,
    "Format and examples": _findings,
}, keep=["sens_scenario", "sens_sort"])
bundled.trials_evidence()  # instance-level seed sensitivity in a genuine HELM run
components.onward("sensitivity")
