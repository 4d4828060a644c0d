"""Prompt Sensitivity: how far a score moves with the in-context examples (HELM's seeds), what that does to the
ranking, and the paper's findings on prompt format and the number of examples, with the data beside them.

Slides: per model (each model's min–max over its runs on one scenario), across scenarios (the median range per
scenario), best or worst seed (the ranking if every model had been reported at its best or its worst seed), format
and examples (the paper's claims beside what the release says). How many seeds a release ran is read from its
data (helm_core.seeds), never assumed."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt, participation, releases, seeds, sensitivity
from ui import cache, charts, charts_reliability, components, nav, slides, state
from ui import real_runs as bundled
from ui.slides import Card, Chart, Ctx, Link, Slide, Table, View

seed_spread = cache.on_release(sensitivity.seed_spread)
run_counts = cache.on_release(releases.run_counts)
median_spread = cache.on_release(sensitivity.median_spread)
rank_flips = cache.on_release(sensitivity.rank_flips)
spread_scenarios = cache.on_release(sensitivity.spread_scenarios)
seed_facts = cache.on_release(seeds.seed_facts)
spread_dumbbell_spec = cache.on_release(charts_reliability.spread_dumbbell_spec)
median_spread_spec = cache.on_release(charts_reliability.median_spread_spec)
rank_slope_spec = cache.on_release(charts_reliability.rank_slope_spec)

TEXT = components.text
NQ_OPEN = "NaturalQuestions (open-book)"
BLOOM, ANTHROPIC, DAVINCI = "BLOOM (176B)", "Anthropic-LM v4-s3 (52B)", "davinci (175B)"
KIND_TEXT = {
    "seeds": "the range over HELM's in-context-example seeds: the same model and test set, only the set of "
             "in-context examples in the prompt changes",
    "runs": "the range over several runs (sub-tasks, subjects or splits, each with its seeds), **not over seeds "
            "alone**: it mixes how hard each sub-task is with seed luck",
    "unknown": "the range over the runs behind each value; the release does not say what separates them (seeds, "
               "sub-tasks or adaptation methods), so it may mix seed luck with other differences",
}
UNVERIFIED = ("**What is unverified here.** Which of the six format variants collapsed BLOOM (176B), and its exact "
              "starting value; davinci's seed range of 37.6% to 63.6%; the median seed range on NaturalQuestions "
              "(open-book), where two secondary sources disagree (below 0.03 against about 0.17). The paper's PDF was "
              "not available to check them; the badges say how each claim is sourced.")


def _facts(ctx: Ctx) -> dict:
    """The release's seeds (helm_core.seeds), with a suite's run specs (num_train_trials) where it has them."""
    output = cache.active_output()
    if output is not None and not output.runs.empty:
        return seeds.seed_facts(ctx.rel, ctx.models, runs=output.runs)
    return seed_facts(ctx.models)


def _seeds_note(ctx: Ctx) -> str:
    """The release's seeds in one true sentence, with the scenarios whose cells average several runs."""
    runs = run_counts()
    line = seeds.seeds_sentence(_facts(ctx), TEXT(ctx.rel.name))
    if runs["combined"]:
        line += f" Cells that average several runs: {TEXT(fmt.names(runs['combined']))}."
    return line


def _later(ctx: Ctx, seeds_said: bool = False) -> tuple[list[str], list[Link]]:
    """On a later bundled release (Lite, Capabilities): its seeds said (unless the slide's point says them), and this
    page on HELM classic one click away."""
    if not ctx.rel.is_later:
        return [], []
    spec = nav.spec_for("sensitivity")
    head = f"**{TEXT(ctx.rel.name)} holds no seed spread of its own.**"
    return ([head if seeds_said else f"{head} {_seeds_note(ctx)}"],
            [Link(f"{spec.title} on HELM classic v0.4.0", "sensitivity", {"release": "classic"}, ":material/history:")])


def _empty(ctx: Ctx) -> View | None:
    if not spread_scenarios():
        msg = f"{TEXT(ctx.rel.name)} has no main-metric values, so there is no spread to show."
        return View(point=msg, empty=msg)
    if not ctx.models:
        return View(point="No model matches the sidebar's cohort and access filter.",
                    empty="No model matches the sidebar's cohort and access filter. Widen the filter to see the spread.",
                    empty_kind="warning")
    return None


def _scenario(ctx: Ctx) -> str:
    scenarios = spread_scenarios()
    default = NQ_OPEN if NQ_OPEN in scenarios else scenarios[0]
    return ctx.get("sens_scenario", default, scenarios)


def scenario_control(ctx: Ctx) -> None:
    """The scenario picker, shared by the per-model and the best-or-worst slides (one key, so one choice)."""
    scenarios = spread_scenarios()
    if not scenarios or not ctx.models:
        return
    state.allow("sens_scenario", scenarios)
    default = scenarios.index(NQ_OPEN) if NQ_OPEN in scenarios else 0
    st.selectbox("Scenario", scenarios, index=default, key="sens_scenario", bind="query-params")


def per_model_controls(ctx: Ctx) -> None:
    c1, c2 = st.columns([3, 1])
    with c1:
        scenario_control(ctx)
    with c2:
        state.allow("sens_sort", sensitivity.SORTS)
        st.segmented_control("Sort models by", sensitivity.SORTS, default="mean", required=True, key="sens_sort",
                             bind="query-params")


def _seed_count(sp: pd.DataFrame) -> str:
    """"3" when every model with a spread over seeds alone has the same number of runs, else "several"."""
    counts = {int(round(v)) for v in sp.loc[sp["kind"] == "seeds", "n_runs"].dropna()}
    return str(counts.pop()) if len(counts) == 1 else "several"


def _trials_inside(rows: pd.DataFrame) -> str:
    """"3" when every row ran the same number of trials inside its run, else "2–3"."""
    t = sorted({int(round(v)) for v in rows["n_trials"].dropna()})
    return str(t[0]) if len(t) == 1 else f"{t[0]}–{t[-1]}"


def _kind_text(kind: str) -> str:
    return KIND_TEXT.get(kind) or TEXT(sensitivity.KINDS.get(kind, kind))


def _reading(ctx: Ctx, scenario: str, metric: str, kind: str, n_single: int) -> str:
    """How to read the per-model chart: bars with a diamond where a model has several runs, an open circle where it
    has one; said only for the marks that are drawn."""
    head = f"For **{TEXT(scenario)}** ({TEXT(metric)}), "
    if kind == "single":
        return (head + f"every model of the cohort has a single run in {TEXT(ctx.rel.name)}: each circle is that run's "
                "value, the value HELM reports. With one run there is no spread to show.")
    return (head + f"each bar is {_kind_text(kind)}. The diamond is the mean, the value HELM reports."
            + (f" An open circle is a model with a single run ({fmt.count(n_single, 'model')}): no spread."
               if n_single else ""))


def _method_note(scenario: str, sp: pd.DataFrame) -> str:
    """For a loaded suite: the models whose runs on `scenario` differ by multiple-choice method, so their range is
    the interface's effect, not seed luck."""
    comp = cache.method_comparison()
    comp = comp[(comp["scenario"] == scenario) & comp["model"].isin(set(sp["model"]))]
    if comp.empty:
        return ""
    parts = [f"{TEXT(m)} ({fmt.names(list(dict.fromkeys(g['method'])))})"
             for m, g in comp.groupby("model", sort=False)]
    return (f"On {TEXT(scenario)}, the runs behind the value of {fmt.names(parts)} use different multiple-choice "
            "interfaces: that range is the interface's effect, not seed luck. The *Switch interfaces* slide of "
            "*Reliability, Not Just Confidence Theater* sets them side by side.")


def _trials_talk() -> tuple[list[str], list[Link]]:
    line = bundled.trials_sentence()
    if not line:
        return [], []
    return [TEXT(line)], [Link(bundled.TRIALS_LABEL, "runs", {"runs_section": bundled.VIEW_TRIALS}, ":material/shuffle:")]


# ----------------------------------------------------------------------------- slide 1: per model


def per_model_view(ctx: Ctx) -> View:
    empty = _empty(ctx)
    if empty is not None:
        return empty
    later_notes, links = _later(ctx)
    scenario = _scenario(ctx)
    sort = ctx.get("sens_sort", "mean", sensitivity.SORTS)
    sp = seed_spread(scenario, ctx.models)
    facts = _facts(ctx)
    claims = ["fixed_examples"] if seeds.has_seeds(facts) else []
    notes = later_notes or ([] if claims else [_seeds_note(ctx)])
    trials, trial_links = _trials_talk()
    if sp.empty:
        msg = f"No model of the current cohort has a value on {TEXT(scenario)}."
        return View(point=msg, empty=msg, notes=notes, links=links, claims=claims)
    kind = sensitivity.spread_kind(sp)
    metric = str(sp["metric"].iloc[0])
    seeded = sp[sp["kind"] == "seeds"]
    single = sp[sp["kind"] == "single"]
    multi = sp[sp["kind"].isin(["runs", "unknown"]) & (sp["range"] > 0)]
    # one run whose stats say it ran several trials: the seeds are inside the run, averaged by HELM
    inside = single[single["n_trials"].fillna(1) > 1]
    use = seeded if len(seeded) else multi
    k = _seed_count(sp)
    if kind == "seeds":
        w = seeded.loc[seeded["range"].idxmax()]
        point = (f"On **{TEXT(scenario)}**, {fmt.count(len(seeded))} of {fmt.count(len(sp), 'model')} have a {k}-seed "
                 f"spread: median range {fmt.value(seeded['range'].median())} {TEXT(metric)}, widest "
                 f"{TEXT(w['model'])} ({fmt.value(w['range'])}).")
    elif kind == "single" and len(inside):
        point = (f"On **{TEXT(scenario)}**, {fmt.count(len(inside))} of {fmt.count(len(sp), 'model')} ran "
                 f"{_trials_inside(inside)} trials (sets of in-context examples) inside one run; its stats keep only "
                 "their mean, so no seed spread can be drawn.")
    elif kind == "single":
        point = (f"On **{TEXT(scenario)}**, every model of the cohort has a single run in {TEXT(ctx.rel.name)}: "
                 "there is no spread to show.")
    elif len(use):
        point = (f"On **{TEXT(scenario)}**, HELM's value averages several runs per model: median range "
                 f"{fmt.value(use['range'].median())} {TEXT(metric)}, over " +
                 ("sub-tasks × seeds, not seed luck alone." if kind == "runs" else "runs the release does not describe."))
    else:
        point = f"On **{TEXT(scenario)}**, no model of the cohort has a range: " + _kind_text(kind) + "."
    talk = [_reading(ctx, scenario, metric, kind, len(single))]
    if len(inside):
        talk.append(f"{fmt.count(len(inside), 'model')} ran its trials inside one run (num_train_trials in the run "
                    "spec): HELM's stats average them, and each trial's answers are in the run's instance files, which "
                    "Prompts & Completions shows seed by seed.")
    if kind == "runs":
        notes.append(f"On {TEXT(scenario)} HELM's cell combines several runs per model (up to "
                     f"{fmt.value(sp['n_runs'].max(), 0)}) where each configuration ran with its seeds: the spread is "
                     f"over sub-tasks as well as seeds, so it is not prompt sensitivity alone. Pick {NQ_OPEN} or another "
                     "scenario with one run per seed to see the seed spread.")
    method = _method_note(scenario, sp)
    if method:
        notes.append(method)
    if len(seeded):
        jumpers = seeded[seeded["rank_best"] != seeded["rank_worst"]]
        talk.append(f"{fmt.count(len(jumpers))} of {fmt.count(len(seeded), 'seeded model')} would change rank among "
                    f"all {fmt.count(len(sp), 'model')} had it alone been reported with its best or its worst seed "
                    "(rank_best / rank_worst in the data table).")
    talk += trials
    cards = [Card(f"Models with {k}-seed spread" if kind in ("seeds", "single") and k != "several"
                  else "Models with a seed spread" if kind in ("seeds", "single") else "Models with several runs",
                  fmt.count(len(seeded) if kind in ("seeds", "single") else len(multi))),
             Card("One run only", fmt.count(len(single)), "Models with a single run behind the value: no spread.")]
    if len(use):
        widest = use.loc[use["range"].idxmax()]
        cards += [Card("Median range", fmt.value(use["range"].median()), f"Median of max − min ({metric})."),
                  Card("Widest range", fmt.value(widest["range"]),
                       f"{widest['model']}: {fmt.value(widest['min'])} to {fmt.value(widest['max'])}")]
    ordered = sensitivity.order_spread(sp, sort)
    top = ordered.head(3)
    mode = ctx.mode if ctx.mode in ("presenter", "phone") else "desktop"
    chart = Chart(
        spread_dumbbell_spec(scenario, ctx.models, sort, mode), key="sensitivity_dumbbell",
        alt=(f"Dumbbell chart of {len(sp)} models on {scenario} ({metric}), sorted by {sort}: min to max with the "
             f"mean marked; {len(seeded)} with a seed spread, {len(single)} with one run only. First three: "
             + "; ".join(f"{r.model} {fmt.value(r.min)}–{fmt.value(r.max)} (mean {fmt.value(r.mean)})"
                         for r in top.itertuples())),
        data=ordered[["model", "metric", "mean", "min", "max", "range", "n_runs", "n_trials", "kind", "rank_mean",
                      "rank_best", "rank_worst"]],
        data_name=f"seed_spread_{scenario}")
    read = ("In presenter mode the chart shows the first models of the chosen order; the data table holds them all."
            if ctx.presenter and len(sp) > charts_reliability.STAGE_ROWS else None)
    return View(point=point, visual=chart, talk=talk, cards=cards, claims=claims, read=read,
                notes=notes + [f"Values: {TEXT(ctx.rel.name)}, the sidebar's cohort."], links=links + trial_links)


# ----------------------------------------------------------------------------- slide 2: across scenarios


def _across_reading(ctx: Ctx, ms: pd.DataFrame) -> str:
    """How to read the per-scenario chart, naming this release's scenarios of each kind and its main metrics."""
    def named(kinds) -> str:
        return TEXT(fmt.names(ms.loc[ms["kind"].isin(kinds), "scenario"].tolist(), limit=4))

    parts = ["The median, across the cohort's models, of each model's range (max − min)."]
    n_seeds = int((ms["kind"] == "seeds").sum())
    n_runs = int(ms["kind"].isin(["runs", "unknown"]).sum())
    n_single = int((~ms["kind"].isin(["seeds", "runs", "unknown"])).sum())
    if n_seeds:
        parts.append(f"Bars are ranges over seeds alone ({fmt.count(n_seeds, 'scenario')}).")
    else:
        parts.append(f"No scenario of {TEXT(ctx.rel.name)} has a spread over seeds alone, so no bar is drawn.")
    if n_runs:
        parts.append(f"Where a cell combines several runs that are not just seeds ({named(['runs', 'unknown'])}), its "
                     "median is shown as text, off the scale, because it is not a seed spread.")
    if n_single:
        parts.append(f"Scenarios with one run per model ({named(['single', 'none'])}) have no spread.")
    metrics = [m for m in dict.fromkeys(ms["metric"]) if m]
    if metrics:
        parts.append(f"Main {fmt.plural(len(metrics), 'metric')}: {TEXT(fmt.names(metrics))}.")
    return " ".join(parts)


def across_view(ctx: Ctx) -> View:
    empty = _empty(ctx)
    if empty is not None:
        return empty
    ms = median_spread(ctx.models)
    with_seeds = ms[ms["kind"] == "seeds"].sort_values("median_range", ascending=False)
    later_notes, links = _later(ctx, seeds_said=with_seeds.empty)
    if len(with_seeds):
        t = with_seeds.iloc[0]
        point = (f"**{TEXT(t['scenario'])}** moves most with the seeds: median range {fmt.value(t['median_range'])} "
                 f"{TEXT(t['metric'])} over {fmt.count(int(t['n_seeded']), 'model')}; "
                 f"{fmt.count(len(with_seeds))} of {fmt.count(len(ms), 'scenario')} have a seed spread.")
    else:
        point = seeds.seeds_sentence(_facts(ctx), TEXT(ctx.rel.name))  # the reading says no bar is drawn
    talk = [_across_reading(ctx, ms)]
    if len(with_seeds) > 1:
        talk.append("Largest median ranges: " + "; ".join(
            f"{TEXT(r.scenario)} {fmt.value(r.median_range)} ({fmt.count(r.n_seeded, 'model')})"
            for r in with_seeds.head(3).itertuples()) + ".")
    notes = list(later_notes)
    thin = with_seeds[with_seeds["n_seeded"] < charts_reliability.FEW_MODELS]
    if not thin.empty:
        notes.append(f"Dotted bars: few models with a seed-only spread (median over fewer than "
                     f"{charts_reliability.FEW_MODELS}): " + TEXT(", ".join(
                         f"{s} ({n})" for s, n in zip(thin["scenario"], thin["n_seeded"])))
                     + ". Most models there combine several runs per cell.")
    mode = ctx.mode if ctx.mode in ("presenter", "phone") else "desktop"
    alt_top = "; ".join(f"{r.scenario} {fmt.value(r.median_range)} (n={r.n_seeded})"
                        for r in with_seeds.head(4).itertuples())
    chart = Chart(median_spread_spec(ctx.models, mode), key="sensitivity_median",
                  alt=(f"Bar chart of the median range per scenario for {len(ms)} scenarios; over seeds, largest first: "
                       f"{alt_top or 'none'}."),
                  data=ms, data_name="median_spread_per_scenario")
    return View(point=point, visual=chart, talk=talk, notes=notes, links=links)


# ----------------------------------------------------------------------------- slide 3: best or worst seed


def _move(change: float) -> str:
    if change > 0:
        return f"▲ {int(change)}"
    if change < 0:
        return f"▼ {int(-change)}"
    return "="


def _flips(ctx: Ctx, scenario: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    sp = seed_spread(scenario, ctx.models)
    return sp, (sp.iloc[0:0] if sp.empty else rank_flips(scenario, ctx.models))


def best_worst_view(ctx: Ctx) -> View:
    empty = _empty(ctx)
    if empty is not None:
        return empty
    later_notes, links = _later(ctx)
    scenario = _scenario(ctx)
    sp, flips = _flips(ctx, scenario)
    if flips.empty:
        scenarios = spread_scenarios()
        msg = (f"No model of the current cohort has a spread over seeds alone on {TEXT(scenario)}, so there is no best "
               "or worst seed to report." + (f" Try {NQ_OPEN}." if scenario != NQ_OPEN and NQ_OPEN in scenarios and
                                             not ctx.rel.is_later else ""))
        return View(point=msg, empty=msg, notes=later_notes or [_seeds_note(ctx)], links=links)
    fs = sensitivity.flip_summary(flips)
    k = _seed_count(sp)
    point = (f"Reported at their best seed or at their worst, {fmt.count(fs['moved'])} of {fmt.count(fs['n'], 'model')} "
             f"on **{TEXT(scenario)}** change rank; the largest move is {fmt.count(fs['max_move'], 'place')}.")
    movers = flips.reindex(flips["change"].abs().sort_values(ascending=False).index).head(3)
    talk = ["HELM reports the mean over the seeds. A paper that ran one seed would have reported one of them. "
            f"Here every model of the cohort with {k} seeds on {TEXT(scenario)} is ranked by its best seed (left) and "
            "by its worst seed (right); models that change place are highlighted.",
            "Largest moves: " + "; ".join(f"{TEXT(r.model)} {int(r.rank_if_best)} → {int(r.rank_if_worst)}"
                                          for r in movers.itertuples()) + ".",
            f"{fmt.count(fs['flipped_pairs'])} of {fmt.count(fs['pairs'], 'pair')} of models swap order."]
    cards = [Card("Models that change rank", f"{fmt.count(fs['moved'])} of {fmt.count(fs['n'])}"),
             Card("Largest move", f"{fmt.count(fs['max_move'])} places"),
             Card("Pairs whose order flips", f"{fmt.count(fs['flipped_pairs'])} of {fmt.count(fs['pairs'])}")]
    notes = ["change: places gained (▲) or lost (▼) going from the best-seed ranking to the worst-seed one. "
             f"Models that ran a single seed are left out ({len(sp) - len(flips)} here)."]
    alt = (f"Slope chart of {fs['n']} models' ranks on {scenario}, best seed against worst seed: {fs['moved']} change "
           "rank; largest moves: " + "; ".join(f"{r.model} {int(r.rank_if_best)} → {int(r.rank_if_worst)}"
                                               for r in movers.itertuples()))
    if ctx.phone:  # two columns of names side by side do not fit 390 px: the same ranks as one table
        table = flips.sort_values(["rank_if_best", "model"])[["model", "rank_if_best", "rank_if_worst", "change"]]
        visual = Table(table.assign(change=table["change"].map(_move)), key="sensitivity_ranks",
                       labels={"rank_if_best": "best seed", "rank_if_worst": "worst seed"},
                       formats={"best seed": fmt.count, "worst seed": fmt.count},
                       highlight=list(table["change"] != 0), data_name=f"rank_flips_{scenario}")
    else:
        mode = "presenter" if ctx.presenter else "desktop"
        visual = Chart(rank_slope_spec(scenario, ctx.models, mode), key="sensitivity_ranks", alt=alt,
                       data=flips, data_name=f"rank_flips_{scenario}")
    read = (f"The chart shows positions 1–{charts_reliability.STAGE_ROWS}; lines that leave the bottom drop below them."
            if ctx.presenter and fs["n"] > charts_reliability.STAGE_ROWS else None)
    return View(point=point, visual=visual, talk=talk, cards=cards, notes=later_notes + notes, links=links, read=read)


def best_worst_details(ctx: Ctx, view: View, event) -> None:
    """The two rankings as tables, side by side, the rows that change place highlighted."""
    if not spread_scenarios() or not ctx.models:
        return
    scenario = _scenario(ctx)
    sp, flips = _flips(ctx, scenario)
    if flips.empty:
        return
    metric = str(sp["metric"].iloc[0])
    table = flips.assign(move=flips["change"].map(_move))
    left, right = st.columns(2)
    for col, side, title in ((left, "best", "Everyone at their best seed"), (right, "worst", "Everyone at their worst seed")):
        with col:
            st.markdown(f"**{title}**")
            t = table.sort_values([f"rank_if_{side}", "model"])[[f"rank_if_{side}", "model", side, "move"]]
            t = t.rename(columns={f"rank_if_{side}": "rank", side: metric, "move": "change"})
            components.table(t, formats={"rank": fmt.count}, highlight=t["change"] != "=")


# ----------------------------------------------------------------------------- slide 4: format and examples


def _nq_row(nq: pd.DataFrame | None, name: str):
    if nq is None or nq.empty:
        return None
    hit = nq[nq["model"] == name]
    return None if hit.empty else hit.iloc[0]


def _claim_rows(nq: pd.DataFrame | None, claims) -> pd.DataFrame:
    """The paper's numbers (F1 points and % turned into 0–1) beside the release's values, one row per mark; a
    label's two lines (model, what is shown) split by a newline (the chart escapes each and breaks the line)."""
    top, start, end = (v / 100 for v in claims["format_collapse"].values)
    lo, hi = (v / 100 for v in claims["seed_spread_nq"].values)
    nan = float("nan")
    rows = []

    def data(model: str, label: str) -> None:
        r = _nq_row(nq, model)
        if r is not None:
            seeded = r["kind"] == "seeds"
            rows.append({"label": f"{model}\n{label}", "source": "data", "low": r["min"], "high": r["max"],
                         "point": r["mean"],
                         "text": fmt.value(r["mean"]) + (f" (seeds {fmt.value(r['min'], 2)}–{fmt.value(r['max'], 2)})"
                                                          if seeded and r["max"] > r["min"] else "")})

    data(BLOOM, "HELM's default format")
    rows.append({"label": f"{BLOOM}\nanother format (paper)", "source": "paper", "low": end, "high": start,
                 "point": nan, "text": f"about {start * 100:g} → {end * 100:g} F1"})
    rows.append({"label": f"{ANTHROPIC}\nthat format (paper)", "source": "paper", "low": top, "high": top,
                 "point": nan, "text": f"{top * 100:g} F1"})
    data(ANTHROPIC, "HELM's default format")
    rows.append({"label": f"{DAVINCI}\nrange over seeds (paper)", "source": "paper", "low": lo, "high": hi,
                 "point": nan, "text": f"{lo * 100:g}%–{hi * 100:g}%"})
    data(DAVINCI, "range over seeds")
    return pd.DataFrame(rows)


def format_ask(ctx: Ctx) -> list:
    """Guess the paper's worst-format score (a claim, said as one: no release holds that run)."""
    claim = cache.claims()["format_collapse"]
    _, start, end = claim.values
    q = participation.number_question(
        "sensitivity.format", f"With HELM's default prompt format, {BLOOM} scores about {start:g} F1 on {NQ_OPEN}. "
        "One format change: what does it fall to?", end, lo=0, hi=100, step=0.5, note=slides.claim_note(claim),
        page="sensitivity", slide="format")
    return [q] if q else []


def format_view(ctx: Ctx) -> View:
    later_notes, links = _later(ctx)
    scenarios = spread_scenarios()
    nq = seed_spread(NQ_OPEN, ctx.models) if ctx.models and NQ_OPEN in scenarios else None
    claims = cache.claims()
    top, start, end = claims["format_collapse"].values
    bloom, anthropic = _nq_row(nq, BLOOM), _nq_row(nq, ANTHROPIC)
    name = TEXT(ctx.rel.name)
    head = f"Paper: one prompt format drops {BLOOM} from ~{start:g} to {end:g} F1 on {NQ_OPEN}; "
    point = head + (f"{name}, default format: {fmt.value(bloom['mean'])}." if bloom is not None else
                    f"{name} has no {BLOOM} value to check.")
    talk = []
    if bloom is not None:
        extra = f" and {ANTHROPIC} {fmt.value(anthropic['mean'])}" if anthropic is not None else ""
        talk.append(f":blue-badge[From the data] With HELM's default format, {name} gives {BLOOM} an F1 of "
                    f"{fmt.value(bloom['mean'])} on {NQ_OPEN} (seeds {fmt.value(bloom['min'])}–{fmt.value(bloom['max'])})"
                    f"{extra}: in line with the claim's starting point of about {start:g}. The collapse to {end:g} under "
                    "another format is not in these tables.")
    else:
        talk.append(f"{BLOOM} on {NQ_OPEN} is not in the current cohort or dataset, so the claim's baseline cannot be "
                    "checked here.")
    claimed = claims["seed_spread_nq"].values
    check = sensitivity.compare_range(nq, DAVINCI, claimed[0] / 100, claimed[1] / 100) if nq is not None else None
    if check is not None:
        verdict = "agrees" if check["agrees"] else "disagrees"
        talk.append(f":{'green' if check['agrees'] else 'red'}-badge[This release {verdict}] In {name}, {DAVINCI} ranges "
                    f"from {fmt.share(check['min'])} to {fmt.share(check['max'])} F1 over its seeds on {NQ_OPEN}"
                    + ("." if check["agrees"] else
                       f", far narrower than the claimed {fmt.value(claimed[0], 1)}% to {fmt.value(claimed[1], 1)}%. "
                       "Later releases recomputed the runs, and the claim itself is unverified."))
    else:
        talk.append(f"{DAVINCI} has no seed spread on {NQ_OPEN} in the current cohort or dataset.")
    if nq is not None:
        med, n_seed = sensitivity.median_seed_range(nq)
        low, high = claims["seed_median_nq"].values
        if n_seed:
            closer = "the study notes' figure" if abs(med - low) <= abs(med - high) else "the summary's figure"
            talk.append(f":blue-badge[From the data] In {name}, the median range over seeds on {NQ_OPEN} is "
                        f"{fmt.value(med)} F1 across the cohort's {fmt.count(n_seed, 'model')} with "
                        f"{_seed_count(nq)} seeds: "
                        + (f"below {fmt.value(low, 2)}, as the study notes say, not {fmt.value(high, 2)}." if med < low
                           else f"not below {fmt.value(low, 2)}; closer to {closer} ({fmt.value(low, 2)} against "
                                f"{fmt.value(high, 2)})."))
    rows = _claim_rows(nq, claims)
    mode = ctx.mode if ctx.mode in ("presenter", "phone") else "desktop"
    fig = charts_reliability.claims_beside_data(rows, metric="F1", scenario=NQ_OPEN, mode=mode)
    shown = rows.assign(label=rows["label"].str.replace("\n", " · ", regex=False))
    chart = Chart(fig, key="sensitivity_claims", data=shown, data_name="format_claims_beside_data",
                  alt=f"The paper's claims on {NQ_OPEN} beside {ctx.rel.name}'s values: " + "; ".join(
                      f"{r.label} ({r.source}): {r.text}" for r in shown.itertuples()) + ".")
    notes = ["HELM also ran ablations that change the prompt format and the number of in-context examples. Their "
             "results are not in the core leaderboard tables this app carries, so they are shown as claims, with what "
             "the core data says beside them.", UNVERIFIED]
    return View(point=point, visual=chart, talk=talk, notes=later_notes + notes, links=links,
                claims=["prompt_sensitivity", "format_collapse", "seed_spread_nq", "seed_median_nq", "incontext_count",
                        "wild_swings"],
                read="Purple diamonds: the paper's numbers (F1 points and % written as 0–1); blue circles and bars: "
                     f"{name}'s values, mean and min–max over the runs behind them.")


# ----------------------------------------------------------------------------- the deck


def _slides(ctx: Ctx) -> list[Slide]:
    seeded = bool(spread_scenarios()) and bool(ctx.models) and seeds.has_seeds(_facts(ctx))
    return [
        Slide("per_model", "Per model", view=per_model_view, controls=per_model_controls),
        Slide("across", "Across scenarios", view=across_view),
        Slide("best_worst", "Best or worst seed", view=best_worst_view, controls=scenario_control,
              details=best_worst_details, on_route=seeded),
        Slide("format", "Format and examples", view=format_view, ask=format_ask),
    ]


DECK = slides.Deck("sensitivity", _slides, keep=["sens_scenario", "sens_sort"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
