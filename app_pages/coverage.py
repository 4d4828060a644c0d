"""Coverage Jump: from 17.9% to 96.0% (the paper's claim, badged as one), and what the loaded release's data shows.

Slides: the jump (the paper's two numbers beside the coverage computed from the data), per model (how many
scenarios each model has), per scenario (how many models each scenario has), comparable ground (pick models, see
the scenarios they all share) and the pairwise overlap. Every sentence is computed from the loaded release and
cohort; classic's facts (the paper's cohort, its five limited-functionality models) appear only on classic."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import coverage, fmt, participation, summary, taxonomy
from helm_core.data import cohort_models
from ui import cache, charts, charts_coverage, slides, state
from ui import components
from ui.slides import Card, Chart, Ctx, Slide, View

coverage_summary = cache.on_release(coverage.coverage_summary)
model_coverage = cache.on_release(coverage.model_coverage)
scenario_coverage = cache.on_release(coverage.scenario_coverage)
coverage_by_group = cache.on_release(coverage.coverage_by_group)
date_rank_correlation = cache.on_release(coverage.date_rank_correlation)
coverage_counts = cache.on_release(coverage.coverage_counts)
comparable_ground = cache.on_release(coverage.comparable_ground)
shared_ground_curve = cache.on_release(coverage.shared_ground_curve)
overlap_pairs = cache.on_release(coverage.overlap_pairs)
all_cohort = cache.on_release(cohort_models)
coverage_counts_spec = cache.on_release(charts_coverage.coverage_counts_spec)
scenario_coverage_spec = cache.on_release(charts_coverage.scenario_coverage_spec)
overlap_spec = cache.on_release(charts_coverage.overlap_spec)
TEXT = components.text

# The pair the paper names as sharing no scenario before HELM (claim coverage_no_common).
DEFAULT_GROUND = ("T5 (11B)", "Anthropic-LM v4-s3 (52B)")
COHORT_NAMES = (("paper", "2022 paper cohort"), ("all", "every model in the release"), ("cohort", "sidebar cohort"))
PAPER, LATER = coverage.COHORT_LABELS[True], coverage.COHORT_LABELS[False]


def _summary(ctx: Ctx) -> tuple[pd.DataFrame | None, str | None]:
    """Coverage of the paper's cohort, of every model and of the sidebar's cohort, or the reason it cannot be
    computed (e.g. a loaded dataset whose accuracy group has several metrics per scenario)."""
    try:
        return coverage_summary({"paper": tuple(all_cohort("paper")), "all": tuple(all_cohort("all")),
                                 "cohort": ctx.models}), None
    except ValueError as exc:
        return None, str(exc)


def _guard(ctx: Ctx, what: str, need_models: bool = True) -> View | None:
    """The view a slide shows instead of its own when coverage cannot be computed or the cohort is empty."""
    _, problem = _summary(ctx)
    if problem is not None:
        msg = f"Coverage cannot be computed for this dataset: {TEXT(problem)}"
        return View(point="Coverage cannot be computed for this dataset.", empty=msg, empty_kind="warning")
    if need_models and not ctx.models:
        return View(point="No model matches the sidebar's cohort and access filter.",
                    empty=f"No model matches the sidebar's cohort and access filter. Widen the filter to see {what}.",
                    empty_kind="warning")
    return None


def _total(ctx: Ctx) -> int:
    return len(ctx.rel.taxonomy.scenario_names)


def _scen_word(ctx: Ctx, n: int) -> str:
    return fmt.count(n, "core scenario" if ctx.rel.is_classic else "scenario")


# ----------------------------------------------------------------------------- slide 1: the jump


def _rate(by: pd.DataFrame, name: str) -> str:
    r = by.loc[name, "rate"]
    return "no models" if pd.isna(r) else fmt.share(float(r))


def jump_view(ctx: Ctx) -> View:
    guard = _guard(ctx, "", need_models=False)
    if guard is not None:
        return guard
    rel = ctx.rel
    summary_df, _ = _summary(ctx)
    by = summary_df.set_index("cohort")
    before, after = cache.claims()["coverage_jump"].values
    classic = rel.is_classic
    n_all, cells_all = int(by.loc["all", "models"]), int(by.loc["all", "cells"])

    bars = pd.DataFrame([
        {"label": "Before HELM · paper claim", "rate": before / 100, "kind": "paper claim",
         "detail": "average over models, pooling results from different papers; not computable from any data here"},
        {"label": "With HELM · paper claim", "rate": after / 100, "kind": "paper claim",
         "detail": "the paper's figure for its 30 models; exact denominator unverified"},
    ])
    cohort_set = set(ctx.models)
    for name, label in COHORT_NAMES:
        if name == "paper" and not classic:
            continue  # the paper's cohort ran classic's exam, not this release's
        if name == "cohort" and cohort_set in (set(all_cohort("paper")) if classic else set(), set(all_cohort("all"))):
            continue  # the sidebar's cohort is one of the bars already
        if pd.notna(by.loc[name, "rate"]):
            bars.loc[len(bars)] = {"label": f"{label[0].upper() + label[1:]} · computed ({fmt.count(int(by.loc[name, 'models']), 'model')})",
                                   "rate": float(by.loc[name, "rate"]), "kind": "computed",
                                   "detail": f"{int(by.loc[name, 'measured']):,} of {int(by.loc[name, 'cells']):,} "
                                             f"cells, {rel.name}"}
    chart = Chart(charts_coverage.coverage_bars(bars, "core-scenario" if classic else "scenario", mode=ctx.mode),
                  key="coverage_bars", data=bars, data_name="coverage_rates",
                  alt="Bar chart of coverage: " + "; ".join(f"{r.label} {r.rate:.1%}" for r in bars.itertuples()) + ".")

    if classic:
        n_paper = int(by.loc["paper", "models"])
        point = (f"**The paper claims {before:.1f}% → {after:.1f}%; the data gives the paper's {n_paper} models "
                 f"{_rate(by, 'paper')}** ({int(by.loc['paper', 'measured']):,} of {int(by.loc['paper', 'cells']):,} "
                 f"cells) **and all {n_all} {_rate(by, 'all')}.**")
    else:
        point = (f"**{TEXT(rel.name)}: {_rate(by, 'all')} of its {cells_all:,} model × scenario cells measured** "
                 f"({n_all} models × {_total(ctx)} scenarios); the paper's {before:.1f}% → {after:.1f}% is about "
                 "HELM classic.")
    cards = []
    if classic:
        cards.append(Card(f"2022 paper cohort ({int(by.loc['paper', 'models'])} models)", _rate(by, "paper"),
                          f"{int(by.loc['paper', 'measured']):,} of {int(by.loc['paper', 'cells']):,} model × scenario "
                          "cells have the main accuracy metric. Independent of the sidebar."))
    else:  # any other release: the paper's cohort and its 96.0% belong to classic
        cards.append(Card("2022 paper cohort", "classic only",
                          TEXT(f"The paper's cohort ran on HELM classic's core scenarios; {rel.name} has "
                               f"{taxonomy.scenarios_phrase(rel)}.")))
    cards.append(Card(f"Every model in the release ({n_all})", _rate(by, "all"),
                      f"{int(by.loc['all', 'measured']):,} of {cells_all:,} cells. Independent of the sidebar."))
    cards.append(Card(f"Sidebar cohort ({int(by.loc['cohort', 'models'])} models)", _rate(by, "cohort"),
                      f"{int(by.loc['cohort', 'measured']):,} of {int(by.loc['cohort', 'cells']):,} cells."))

    talk = ["Purple, hatched bars are the paper's claims; blue bars are computed from "
            f"{TEXT(rel.name)} (the main accuracy metric of each {'core ' if classic else ''}scenario)."]
    if classic and pd.notna(by.loc["paper", "rate"]):
        gap = abs(float(by.loc["paper", "rate"]) * 100 - after)
        talk.append(f"The paper cohort's {_rate(by, 'paper')} from the data is "
                    f"{'close to' if gap < 2 else 'to be compared with'} the claimed {after:.1f}%.")
        groups = coverage_by_group(tuple(all_cohort("all"))).set_index("group")
        if LATER in groups.index and PAPER in groups.index:
            later = groups.loc[LATER]
            text = (f"Over every model of the release it is {_rate(by, 'all')}: the {int(later['models'])} models "
                    f"added after the paper have {fmt.share(float(later['rate']))} of their cells")
            if later["rate"] < groups.loc[PAPER, "rate"]:
                text += ", so HELM's own coverage thinned."
            talk.append(text + ("." if not text.endswith(".") else ""))
    notes = ["So this page draws no \"before HELM\" matrix: the 17.9% appears only as the paper's number."]
    if not classic:
        notes.append(TEXT(f"The paper's {before:.1f}% and {after:.1f}% count HELM classic's 16 core scenarios; "
                          f"{rel.name} has {taxonomy.scenarios_phrase(rel)}, and its coverage is computed on them."))
    claims = (["coverage_jump", "coverage_why_not_100", "coverage_prior_per_model", "coverage_no_common"] if classic
              else ["coverage_jump", "coverage_prior_per_model"])
    links = ([slides.Link("The coverage jump on HELM classic v0.4.0", "coverage", {"release": "classic"},
                          ":material/history:")] if rel.is_later else [])
    return View(point=point, visual=chart, cards=cards, talk=talk, notes=notes, claims=claims, links=links,
                read="Each bar is a share of model × scenario cells that have the scenario's main accuracy metric.")


def jump_details(ctx: Ctx, view: View, event) -> None:
    if ctx.models:
        return
    # The paper's numbers and the whole release still show; the other slides need a model of the cohort.
    st.warning("No model matches the sidebar's cohort and access filter. Widen the filter to see coverage per model, "
               "per scenario and the comparable-ground tool.")


# ----------------------------------------------------------------------------- slide 2: per model


def per_model_view(ctx: Ctx) -> View:
    guard = _guard(ctx, "coverage per model")
    if guard is not None:
        return guard
    rel, models, total = ctx.rel, ctx.models, _total(ctx)
    mc = model_coverage(models)
    n = len(mc)
    n_full = int((mc["measured"] == total).sum())
    low = int(mc["measured"].min())
    who = summary.complete_phrase(n_full, n)
    point = f"**{who[0].upper() + who[1:]} {'has' if n == 1 else 'have'} all {_scen_word(ctx, total)}**"
    if low < total:
        lows = mc[mc["measured"] == low]
        point += f"; {fmt.count(len(lows), 'model')} {fmt.plural(len(lows), 'has')} only {low}"
        if len(lows) <= 5:
            point += f" ({TEXT(fmt.names(list(lows['model'])))})"
        elif rel.is_classic and not lows["paper_cohort"].any():
            point += ", all added after the 2022 paper"
    point += "."
    talk = []
    groups = coverage_by_group(models)
    if len(groups) > 1:
        talk.append(" · ".join(
            f"{int(g.models)} {'model' if g.models == 1 else 'models'} {g.group}: {fmt.share(float(g.rate))} of "
            f"their cells, {g.complete} with every scenario" for g in groups.itertuples()) + ".")
    rho, n_dated = date_rank_correlation(models)
    if not fmt.missing(rho):
        trend = ("the later the release, the fewer the scenarios" if rho <= -0.5 else
                 "the later the release, the more the scenarios" if rho >= 0.5 else
                 "coverage does not follow the release date")
        talk.append(f"Release date against scenarios measured: Spearman ρ = {rho:+.2f} over {n_dated} models "
                    f"({trend}).")
    counts = coverage_counts(models)
    chart = Chart(coverage_counts_spec(models, ctx.mode), key="coverage_models", data=mc,
                  data_name="coverage_per_model",
                  alt=(f"Bar chart of {n} models by the number of {'core ' if rel.is_classic else ''}scenarios "
                       f"measured out of {total}: " + "; ".join(
                           f"{r.n_models} {r.group} with {r.measured}" for r in counts.itertuples())
                       + f". {n_full} models have all {total}; the fewest is {low}."))
    claims = ["coverage_why_not_100"] if rel.is_classic else []
    return View(point=point, visual=chart, talk=talk, claims=claims,
                read="Each bar counts the models measured on that many scenarios; hover a bar for their names, or "
                     "open the data for each model's missing scenarios and release date.")


# ----------------------------------------------------------------------------- slide 3: per scenario


def per_scenario_view(ctx: Ctx) -> View:
    guard = _guard(ctx, "coverage per scenario")
    if guard is not None:
        return guard
    total = _total(ctx)
    sc = scenario_coverage(ctx.models)
    later, paper = sc[sc["group"] == LATER], sc[sc["group"] == PAPER]
    talk = []
    if not later.empty:
        thin = later[later["share"] < 0.5]
        n_later = int(later["total"].iloc[0])
        point = (f"**For the {n_later} {'model' if n_later == 1 else 'models'} added after the paper, "
                 f"{thin.shape[0]} of {total} scenarios have values for fewer than half**")
        if not thin.empty:
            talk.append("For models added after the paper, " + ", ".join(
                f"{TEXT(r.scenario)} ({r.measured} of {r.total})" for r in thin.itertuples())
                + " have values for fewer than half.")
        if not paper.empty:
            point += (f"; for the paper's {int(paper['total'].iloc[0])}, every scenario has at least "
                      f"{int(paper['measured'].min())}.")
        else:
            point += "."
    else:
        n = int(sc["total"].iloc[0])
        lowest = int(sc["measured"].min())
        if lowest == n:
            point = f"**Every one of the {_scen_word(ctx, total)} has values for all {fmt.count(n, 'model')}.**"
        else:
            low = sc[sc["measured"] == lowest]
            point = (f"**Every scenario has values for at least {lowest} of the {fmt.count(n, 'model')}**; the "
                     f"fewest: {TEXT(fmt.names(list(low['scenario']), limit=3))}.")
    if not paper.empty:
        low = paper[paper["measured"] == paper["measured"].min()]
        talk.append(f"In the 2022 paper's cohort the fewest is {int(low['measured'].iloc[0])} of "
                    f"{int(low['total'].iloc[0])}: {TEXT(fmt.names(list(low['scenario'])))}.")
    chart = Chart(scenario_coverage_spec(ctx.models, ctx.mode), key="coverage_scenarios", data=sc,
                  data_name="coverage_per_scenario",
                  alt=("Dot plot of the share of models with a value per scenario, " + "; ".join(
                      f"{r.scenario} {r.group} {r.measured}/{r.total}" for r in sc.itertuples()) + "."))
    return View(point=point, visual=chart, talk=talk,
                read="Each row is a scenario: a marker per group of models at the share that has a value, the counts "
                     "in the columns on the right.")


# ----------------------------------------------------------------------------- slide 4: comparable ground


def _ground_default(ctx: Ctx) -> list[str]:
    options = list(ctx.models)
    default = [m for m in DEFAULT_GROUND if m in options]
    return default if len(default) == len(DEFAULT_GROUND) else options[:2]


def _chosen(ctx: Ctx) -> list[str]:
    allowed = set(ctx.models)
    got = ctx.get("ground", _ground_default(ctx), lambda v: isinstance(v, (list, tuple)))
    return [m for m in got if m in allowed]


def ground_controls(ctx: Ctx) -> None:
    if _guard(ctx, "") is not None:
        return
    options = list(ctx.models)
    state.allow("ground", options, multi=True)
    st.multiselect("Models to compare", options=options, default=_ground_default(ctx), key="ground",
                   bind="query-params",
                   help="Comparable ground = the scenarios where every chosen model has a main-metric value. The "
                        "order you pick them in is the order of the curve.")


def ground_view(ctx: Ctx) -> View:
    guard = _guard(ctx, "the comparable-ground tool")
    if guard is not None:
        return guard
    rel, total = ctx.rel, _total(ctx)
    chosen = _chosen(ctx)
    if not chosen:
        return View(point="Pick one or more models to see the scenarios they share.",
                    empty="Pick one or more models to see the scenarios they share.")
    scenarios = rel.taxonomy.scenario_names
    shared = comparable_ground(tuple(chosen))
    not_shared = [s for s in scenarios if s not in set(shared)]
    curve_chosen = shared_ground_curve(tuple(chosen))
    mc = model_coverage(ctx.models)
    by_date = tuple(mc.sort_values(["release_date", "model"], kind="mergesort")["model"])
    curve_all = shared_ground_curve(by_date)
    curves = {"your models, in the order picked": curve_chosen,
              f"all {len(by_date)} cohort models, by release date": curve_all}
    data = pd.concat([c.assign(ordering=name) for name, c in curves.items()], ignore_index=True)
    who = TEXT(fmt.names(chosen)) if len(chosen) <= 3 else f"Your {len(chosen)} models"
    verb = "has" if len(chosen) == 1 else "share"
    point = (f"**{who} {verb} {len(shared)} of {total} scenarios**; all {len(by_date)} cohort models, added by "
             f"release date, share {int(curve_all['shared'].iloc[-1])}.")
    chart = Chart(charts_coverage.ground_curve(curves, total, mode=ctx.mode), key="coverage_ground", data=data,
                  data_name="shared_ground",
                  alt=(f"Step chart of shared scenarios as models are added. Your {len(chosen)} models share "
                       f"{int(curve_chosen['shared'].iloc[-1])} of {total}; all {len(by_date)} cohort models, added "
                       f"by release date, share {int(curve_all['shared'].iloc[-1])}."))
    talk = ["**Shared:** " + (", ".join(TEXT(s) for s in shared) or "none"),
            "**Not shared:** " + (", ".join(TEXT(s) for s in not_shared) or "none")]
    claims = ["coverage_no_common"] if rel.is_classic else []
    return View(point=point, visual=chart, talk=talk, claims=claims,
                cards=[Card(f"Scenarios all {len(chosen)} share", f"{len(shared)} of {total}")],
                read="Each step adds a model: the line drops where it lacks a scenario the models before it shared.")


# ----------------------------------------------------------------------------- slide 5: pairwise overlap


def overlap_view(ctx: Ctx) -> View:
    guard = _guard(ctx, "the pairwise overlap")
    if guard is not None:
        return guard
    total = _total(ctx)
    pairs = overlap_pairs(ctx.models)
    if pairs.empty:
        return View(point="One model only: there is no pair to compare.",
                    empty="One model only: there is no pair to compare.")
    low = pairs.iloc[0]
    n_low = int((pairs["shared"] == low["shared"]).sum())
    n_full = int((pairs["shared"] == total).sum())
    heatmap = ctx.mode == "desktop"
    if n_full == len(pairs):
        point = f"**All {fmt.count(len(pairs), 'pair')} of models share all {total} scenarios.**"
        talk = []
    else:
        point = (f"**{n_full:,} of {fmt.count(len(pairs), 'pair')} of models share all {total} scenarios**; the "
                 f"least overlap is {int(low['shared'])} of {total}.")
        talk = [f"The least overlap is {int(low['shared'])} of {total} scenarios, for {fmt.count(n_low, 'pair')}, "
                f"e.g. {TEXT(low['model_a'])} and {TEXT(low['model_b'])}."
                + (" Models are ordered by their own coverage." if heatmap else "")]
    n_models = len(ctx.models)
    alt = (f"Heatmap of {n_models} by {n_models} models: shared scenarios per pair, from "
           f"{int(pairs['shared'].min())} to {int(pairs['shared'].max())} of {total}." if heatmap else
           f"Bar chart of the {len(pairs):,} pairs of {n_models} models by the scenarios they share, from "
           f"{int(pairs['shared'].min())} to {int(pairs['shared'].max())} of {total}.")
    chart = Chart(overlap_spec(ctx.models, ctx.mode), key="coverage_overlap", alt=alt, data=pairs,
                  data_name="pairwise_overlap")
    read = ("Each cell is a pair of models: the number of scenarios both have a value on (darker = more)." if heatmap
            else "Each bar counts the pairs of models that share that many scenarios (the pair-by-pair heatmap is "
                 "on a desktop screen).")
    return View(point=point, visual=chart, talk=talk, read=read)


def jump_ask(ctx: Ctx) -> list:
    """Guess the paper's before-HELM coverage (a claim, said as one) and this release's own (computed)."""
    claim = cache.claims()["coverage_jump"]
    out = [participation.number_question(
        "coverage.before", "Before HELM, what share of the comparable ground (models × core scenarios) had been "
        "evaluated? (%)", claim.values[0], lo=0, hi=100, step=0.1, unit="%", note=slides.claim_note(claim),
        page="coverage", slide="jump")]
    if _guard(ctx, "", need_models=False) is None:
        by = _summary(ctx)[0].set_index("cohort")
        rate, rel = by.loc["all", "rate"], ctx.rel
        out.append(participation.number_question(
            f"coverage.{rel.name}", f"What share of {rel.name}'s model × scenario cells have a value? (%)",
            None if pd.isna(rate) else round(float(rate) * 100, 1), lo=0, hi=100, step=0.1, unit="%",
            note=f"computed from {rel.name}: {int(by.loc['all', 'measured']):,} of {int(by.loc['all', 'cells']):,} "
                 "cells", page="coverage", slide="jump"))
    return [q for q in out if q is not None]


DECK = slides.Deck("coverage", [
    Slide("jump", "Coverage jump", view=jump_view, details=jump_details, ask=jump_ask),
    Slide("per_model", "Per model", view=per_model_view),
    Slide("per_scenario", "Per scenario", view=per_scenario_view),
    Slide("ground", "Comparable ground", view=ground_view, controls=ground_controls),
    Slide("overlap", "Pairwise overlap", view=overlap_view),
], keep=["ground"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
