"""Capability vs Cost Pressure: capability against inference time (or size), coloured by harm risk, with the
recipe's top three (this app's recipe, shared with the podium page) and the Pareto front; the models HELM could not
time are drawn in a band below the chart, not dropped.

Slides: the capability-cost chart, and the 2022 paper's findings on scale, access and the accuracy/efficiency
trade-off checked against the loaded data (the scale finding as a chart)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import aggregate, fmt, frontier, ranking, statements
from helm_core.data import GROUP_LABELS
from ui import cache, charts, charts_cost, components, recipe_controls, slides, state
from ui.slides import Chart, Ctx, Link, Slide, View

cost_view = cache.on_release(frontier.cost_view)
recipe_ranking = cache.on_release(ranking.recipe_ranking)
ranked_groups = cache.on_release(ranking.ranked_groups)
cost_label = cache.on_release(frontier.cost_label)
efficiency_metrics = cache.on_release(frontier.efficiency_metrics)
bubble_spec = cache.on_release(charts_cost.bubble_spec)
openai_rows = cache.on_release(statements.openai_rows)
toxic_fraction_caption = cache.on_release(statements.toxic_fraction_caption)
efficiency_wording = cache.on_release(statements.efficiency_wording)

ACCURACY_ONLY = (("accuracy", 1.0),)
COST_CAPTIONS = {"runtime": "HELM's efficiency cell", "params": "every model with a disclosed size"}
HARM_CAPTIONS = {"toxic_frac": "Perspective API ≥ 0.5", "gender_repr": "word-count skew",
                 "toxic_losses": "head-to-head, robust to coverage"}
FASTER = {"runtime": "faster", "params": "smaller"}
SCALE_THRESHOLD, SCALE_SIZE = 0.55, 50e9  # the paper's finding 25 (claim scale_finding)
TEXT = components.text  # data text into Markdown (helm_core.escape.markdown)


def _choices(ctx: Ctx) -> tuple[str, str, str]:
    return (ctx.get("cap", "win_rate", frontier.CAPABILITY_MEASURES),
            ctx.get("cost", "runtime", frontier.COST_MEASURES),
            ctx.get("harm", "toxic_frac", frontier.HARM_MEASURES))


def _too_few(ctx: Ctx) -> View | None:
    if len(ctx.models) >= 2:
        return None
    msg = "A capability-cost picture needs at least two models: widen the sidebar's cohort or access filter."
    return View(point=msg, empty=msg, empty_kind="warning")


def cap_captions(ctx: Ctx) -> dict[str, str]:
    """What each capability measure is on this release and cohort: HELM's published win rate only where it is."""
    kind = recipe_ranking(ctx.models, ACCURACY_ONLY, "renormalize").kind
    if kind == "published":
        wr = "HELM's published accuracy win rate"
    elif ctx.rel.published_win_rates.empty:
        agg = aggregate.aggregate_name(ctx.rel)
        wr = (f"accuracy win rate, computed here (HELM publishes a {agg})" if agg == aggregate.MEAN_SCORE
              else "accuracy win rate, computed here by HELM's rule")
    else:
        wr = "accuracy win rate, recomputed for this cohort"
    return {"win_rate": wr, "mean_accuracy": "mean of the main metric"}


def _top_three(ctx: Ctx) -> tuple[dict[str, int], recipe_controls.RecipeChoice, list[str]]:
    """The recipe's top three (model -> rank), the recipe, and what to say about it (an error, weights set aside)."""
    choice = recipe_controls.choice_from_state(ctx.state)
    if choice.error:
        return {}, choice, [choice.error]
    ok, note = recipe_controls.release_groups(choice, ranked_groups())
    if not ok:
        return {}, choice, [note]
    rr = recipe_ranking(ctx.models, choice.items, choice.missing)
    ranked = rr.recipe[~rr.recipe["excluded"]].head(3)
    return {m: int(r) for m, r in ranked["rank"].items()}, choice, [note] if note else []


def _basis_note(what: str, basis: str, scenarios: tuple[str, ...]) -> str:
    if basis == "shared":
        return f"{what}: mean over the {fmt.count(len(scenarios), 'scenario')} every measured model has."
    if basis == "own":
        return (f"{what}: mean over each model's own measured scenarios (fewer than {frontier.MIN_SHARED} are "
                "shared by all), so models measured on different scenarios are averaged over different ground.")
    return ""


def _table(drawn: pd.DataFrame) -> pd.DataFrame:
    t = drawn[["model", "organization", "access", "capability", "runtime_s", "harm", "params", "params_speculative",
               "pareto"]].copy()
    t["params"] = [fmt.params(p, s) for p, s in zip(t["params"], t["params_speculative"])]
    # runtime_s keeps its precision (a small model answers in microseconds); `runtime` reads it at its scale
    t.insert(t.columns.get_loc("runtime_s"), "runtime", t["runtime_s"].map(fmt.seconds))
    return t.drop(columns="params_speculative").round({"capability": 3, "harm": 5}) \
        .sort_values("capability", ascending=False)


def _statement(fn, ctx: Ctx) -> str | None:
    s = fn(tuple(ctx.models), ctx.cohort)
    return TEXT(s.text) if s is not None else None


# ----------------------------------------------------------------------------- slide 1: the chart


def chart_view(ctx: Ctx) -> View:
    empty = _too_few(ctx)
    if empty is not None:
        return empty
    rel = TEXT(ctx.rel.name)
    cap, cost, harm = _choices(ctx)
    v = cost_view(tuple(ctx.models), cap, harm, cost)
    fr = v.frontier
    f = fr.frame
    x_label = frontier.CAPABILITY_MEASURES[cap]
    y_label = cost_label(cost)  # the release's own efficiency metric (observed on Lite and in a user's suite)
    harm_group, harm_metric, harm_label = frontier.HARM_MEASURES[harm]
    top, choice, recipe_notes = _top_three(ctx)
    drawn = f[f["capability"].notna() & f[v.y].notna()]
    band = f[f["capability"].notna() & f[v.y].isna()]
    band_label = frontier.BAND_LABELS[v.y]
    if drawn.empty and band.empty:
        msg = "No model in this cohort has a capability value to place on the chart."
        return View(point=msg, empty=msg)
    front = drawn[drawn["pareto"]].sort_values("capability", ascending=False)
    cheaper = FASTER[cost]
    if drawn.empty:
        point = (f"No model in this cohort has {'an inference time' if cost == 'runtime' else 'a disclosed size'} in "
                 f"{rel}: all {fmt.count(len(band), 'model')} sit in the band, placed by capability only.")
    else:
        names = fmt.names([TEXT(m) for m in front["model"]])
        point = (f"{names} {fmt.verb_form(len(front), 'is')} on the Pareto front: no model is both more capable and "
                 f"{cheaper} than {'it' if len(front) == 1 else 'any of them'}.")
        if len(point.replace("\\", "")) > 150:
            point = (f"**{fmt.count(len(front), 'model')}** {fmt.verb_form(len(front), 'is')} on the Pareto front: "
                     f"no model is both more capable and {cheaper} than any of them.")
    talk = []
    if len(front):
        talk.append(f"**On the Pareto front ({len(front)}):** "
                    + ", ".join(f"{TEXT(m)} ({fmt.value(c)})" for m, c in zip(front["model"], front["capability"]))
                    + ". Every other model above the band is beaten on both axes by one of these.")
    if top:
        where = [f"#{r} {TEXT(m)}" + (" (in the band)" if m in set(band["model"]) else "")
                 for m, r in sorted(top.items(), key=lambda kv: kv[1])]
        talk.append(f"Ringed: the top three of {TEXT(choice.label)} (this app's recipe): " + ", ".join(where) + ".")
    top_in_band = [f"#{r} {TEXT(m)}" for m, r in top.items() if m in set(band["model"])]
    if len(band):
        talk.append(f"{fmt.count(len(band))} of {fmt.count(len(f), 'model')} {fmt.verb_form(len(band), 'sits')} in "
                    f"the band \"{band_label}\", placed by capability only.")
    notes = []
    if drawn.empty:
        notes.append(f"No model in this cohort has {'an inference time' if cost == 'runtime' else 'a disclosed size'}"
                     f" in {rel}, so every model sits in the band \"{band_label}\". Switch *Cost* to "
                     f"*{'params' if cost == 'runtime' else 'runtime'}* to spread them out.")
    if cap == "win_rate":
        kind = recipe_ranking(ctx.models, ACCURACY_ONLY, "renormalize").kind
        notes.append(recipe_controls.kind_caption(kind, len(ctx.models), rel, not ctx.rel.published_win_rates.empty,
                                                  aggregate.aggregate_name(ctx.rel)))
    else:
        notes.append(_basis_note("Mean accuracy", fr.capability_basis, fr.capability_scenarios))
    if cost == "runtime":
        notes.append(_basis_note("Runtime", fr.cost_basis, fr.cost_scenarios))
        wording = _statement(efficiency_wording, ctx)
        if wording:
            notes.append(wording)
    has_harm = harm_group in cache.measured_groups()
    if harm_metric is not None and has_harm:
        notes.append(_basis_note(harm_label, fr.harm_basis, fr.harm_scenarios))
    links = []
    if not has_harm:
        notes.append(f"**{rel} has no {GROUP_LABELS[harm_group].lower()} cells**, so no bubble has a harm value: "
                     "every one is grey.")
        if ctx.rel.is_later:
            links.append(Link("Capability vs Cost Pressure on HELM classic v0.4.0", "cost", {"release": "classic"},
                              ":material/history:"))
    elif harm == "toxic_frac":
        caption = _statement(toxic_fraction_caption, ctx)
        if caption:
            notes.append(caption)
    notes += [n for n in recipe_notes if n]
    if top_in_band:
        notes.append(f"**In the band \"{band_label}\" from the {TEXT(choice.label)} top three:** "
                     + ", ".join(top_in_band)
                     + (": HELM has no runtime for them in this release, so they are placed by capability only."
                        if cost == "runtime" else ": their size is undisclosed, so they are placed by capability only.")
                     + (" With *exclude* in the recipe settings, only models with every weighted group are ranked."
                        if choice.missing == "renormalize" else ""))
    notes += _size_notes(ctx, f, drawn)
    fig = bubble_spec(tuple(ctx.models), cap, harm, cost, tuple(sorted(top.items())), ctx.mode)
    chart = Chart(
        fig, key="cost_bubble",
        alt=(f"Bubble chart of {fmt.count(len(drawn), 'model')}: {x_label} against {y_label} (log scale), "
             f"colour {harm_label}; {fmt.count(len(band), 'more model')} in a band below it ({band_label}), placed "
             "by capability only. Pareto front: " + (", ".join(front["model"]) or "none")
             + ". Top three of the recipe: " + (", ".join(f"#{r} {m}" for m, r in top.items()) or "none") + "."),
        data=_table(pd.concat([drawn, band])), data_name="capability_cost")
    read = ("Each bubble is a model: further right is more capable, lower is cheaper to run. Colour is harm risk "
            "(blue low, purple middle, vermillion high), bubble size the number of parameters. The dashed line is "
            "the **Pareto front**: the models no other model beats on both capability and cost. The ringed, "
            "labelled models are the top three of the current recipe (this app's, shared with the *One Recipe "
            "Reorders The Podium* page). Models HELM has no cost value for are not dropped: they sit in the band "
            "below the chart, placed by capability only.")
    if ctx.phone:
        read += (" Shapes: a circle has a disclosed size, a circle with a dot a size HELM marks as speculative (*), "
                 "a diamond an undisclosed size; grey means no harm value.")
    return View(point=point, visual=chart, talk=talk, notes=[n for n in notes if n], read=read, links=links)


def _size_notes(ctx: Ctx, f: pd.DataFrame, drawn: pd.DataFrame) -> list[str]:
    out = []
    undisclosed = f[~f["size_disclosed"]]
    if len(undisclosed):
        shown = int((~drawn["size_disclosed"]).sum())
        out.append(
            f"Sizes: {fmt.count(len(undisclosed), 'model')} of the cohort {fmt.plural(len(undisclosed), 'has')} an "
            "undisclosed size (" + ", ".join(TEXT(m) for m in undisclosed["model"]) + "); "
            + (f"{fmt.count(shown)} drawn as fixed-size diamonds." if shown else
               "none of them has a cost value, so no diamond appears above the band."))
    if f["params_speculative"].any():
        out.append("Sizes HELM marks as speculative (*) are circles with a dot.")
    rows = _statement(openai_rows, ctx)
    if rows:
        out.append(rows)
    return out


def chart_controls(ctx: Ctx) -> None:
    if _too_few(ctx) is not None:
        return
    c1, c2, c3 = st.columns(3)
    captions = cap_captions(ctx)
    state.allow("cap", frontier.CAPABILITY_MEASURES)
    c1.radio("Capability (x)", list(frontier.CAPABILITY_MEASURES), index=0, key="cap", bind="query-params",
             captions=[captions[k] for k in frontier.CAPABILITY_MEASURES])
    state.allow("cost", frontier.COST_MEASURES)
    c2.radio("Cost (y, log scale)", list(frontier.COST_MEASURES), index=0, key="cost", bind="query-params",
             captions=[COST_CAPTIONS[k] for k in frontier.COST_MEASURES])
    state.allow("harm", frontier.HARM_MEASURES)
    c3.radio("Harm risk (colour)", list(frontier.HARM_MEASURES), index=0, key="harm", bind="query-params",
             captions=[HARM_CAPTIONS[k] for k in frontier.HARM_MEASURES])
    base = recipe_ranking(ctx.models, ACCURACY_ONLY, "renormalize")
    with st.expander("Recipe for the top three (this app's, shared with the Podium page)", expanded=False):
        recipe_controls.recipe_controls(base.coverage, len(ctx.models))


def chart_details(ctx: Ctx, view: View, event) -> None:
    """The models in the band and the models left out, each as a table with its CSV."""
    if _too_few(ctx) is not None:
        return
    cap, cost, harm = _choices(ctx)
    v = cost_view(tuple(ctx.models), cap, harm, cost)
    f = v.frontier.frame
    band = f[f["capability"].notna() & f[v.y].isna()]
    band_label = frontier.BAND_LABELS[v.y]
    out = v.left_out
    in_band = out[out["model"].isin(set(band["model"]))]
    not_drawn = out[~out["model"].isin(set(in_band["model"]))]
    if len(in_band):
        with st.container(border=True):
            st.markdown(f"**In the band \"{band_label}\": {fmt.count(len(in_band))} of {fmt.count(len(f), 'model')}**"
                        " (placed by capability only"
                        + ("; switch *Cost* to *params* to see them by size)" if cost == "runtime" else ")"))
            components.table(in_band, height=320 if len(in_band) > 8 else None)
            components.download(in_band, "cost_chart_band", key="cost_band_csv")
    if len(not_drawn):
        with st.container(border=True):
            st.markdown(f"**Left out of this chart: {fmt.count(len(not_drawn))} of {fmt.count(len(f), 'model')}** "
                        "(no capability value to place them by)")
            components.table(not_drawn, height=320 if len(not_drawn) > 8 else None)
            components.download(not_drawn, "left_out_of_cost_chart", key="cost_left_out_csv")
    if not len(out):
        st.caption("Every model of the cohort is on the chart.")


# ----------------------------------------------------------------------------- slide 2: the paper's findings


def size_and_value(model: str, params: float, speculative: bool, capability: float) -> str:
    """ "Mistral v0.1 (7B) (7.3B, 0.884)", or "Yi (34B) (0.570)" where the name already says the size."""
    size = fmt.params(params, speculative)
    shown = f"({size})" in model  # a speculative size ("175B*") stays: the name does not say it is speculative
    return f"{TEXT(model)} ({fmt.value(capability)})" if shown else f"{TEXT(model)} ({size}, {fmt.value(capability)})"


def paper_view(ctx: Ctx) -> View:
    empty = _too_few(ctx)
    if empty is not None:
        return empty
    rel = TEXT(ctx.rel.name)
    checks = cost_view(tuple(ctx.models), "win_rate", "toxic_frac", "runtime")
    kind = checks.win_rate_kind
    cohort = components.cohort_label(len(ctx.models))
    frame = checks.frontier.frame
    ce = checks.scale_check
    sized = frame[frame["capability"].notna() & frame["params"].notna()]
    talk, notes = [], []
    # The scale finding speaks of model sizes: it is checked on, and said of, the models whose size is disclosed.
    scope = f"{fmt.count(len(sized), 'model')} with a disclosed size, of {cohort}"
    if ce.empty:
        point = (f"The data agrees for the {scope}: no model above a {SCALE_THRESHOLD:g} accuracy win rate has "
                 f"fewer than {fmt.params(SCALE_SIZE)} parameters.")
        talk.append(f"**The data agrees** for the {scope} ({kind} accuracy win rates): no model above "
                    f"{SCALE_THRESHOLD:g} has fewer than {fmt.params(SCALE_SIZE)} parameters.")
    else:
        point = (f"**{fmt.agree(len(ce), 'model', 'has')}** a {SCALE_THRESHOLD:g}+ accuracy win rate with fewer than "
                 f"{fmt.params(SCALE_SIZE)} parameters: the paper's scale finding fails for {len(ce):,} of the "
                 f"{scope}.")
        names = ", ".join(size_and_value(m, p, s, c)
                          for m, p, s, c in ce[["model", "params", "params_speculative", "capability"]]
                          .head(8).itertuples(index=False))
        more = f" and {fmt.count(len(ce) - 8, 'more')}" if len(ce) > 8 else ""
        talk.append(f"**{rel} disagrees** for {len(ce):,} of the {scope} ({kind} accuracy win rates): "
                    f"{fmt.count(len(ce), 'model')} above {SCALE_THRESHOLD:g} {fmt.plural(len(ce), 'has')} fewer than "
                    f"{fmt.params(SCALE_SIZE)} parameters: {names}{more}.")
    acc = checks.access_check
    if acc.empty:
        notes.append("No accuracy win rates in this cohort to compare access levels.")
    else:
        talk.append(f"Best model per access level (accuracy win rate, rank in {cohort}): " + "; ".join(
            f"**{TEXT(r.access)}**: {TEXT(r.model)} ({fmt.value(r.capability)}, #{r.rank} of "
            f"{fmt.count(len(frame))}; {fmt.count(r.models, TEXT(r.access) + ' model')})" for r in acc.itertuples())
            + ".")
        levels = set(acc["access"])
        if len(levels) < 2:
            talk.append(f"Only {TEXT(next(iter(levels)))} models are in this cohort, so access levels cannot be "
                        "compared.")
        elif acc.iloc[0]["access"] != "open":
            talk.append("**The data agrees** here: the best open model trails the best limited or closed one."
                        if "open" in levels else
                        "No open model is in this cohort, so the access finding cannot be checked.")
        else:
            talk.append(f"**{rel} disagrees** for {cohort}: the most capable model is open. The paper's finding was "
                        "about its 2022 cohort.")
    if checks.tradeoff_n >= 3 and pd.notna(checks.tradeoff_rho):
        rho = checks.tradeoff_rho
        strength = "weak" if abs(rho) < 0.3 else ("moderate" if abs(rho) < 0.6 else "strong")
        direction = ("no tendency either way" if abs(rho) < 0.1 else "more capable models tend to be slower"
                     if rho > 0 else "more capable models tend to be faster")
        talk.append(f"Across the {fmt.count(checks.tradeoff_n, 'model')} with a runtime ({cohort}), the rank "
                    f"correlation of accuracy win rate with runtime is **{rho:+.2f}** ({strength}): {direction}"
                    + (": no clean trade-off across all models." if abs(rho) < 0.1 else
               ", but loosely: no clean trade-off across all models." if abs(rho) < 0.6 else "."))
    else:
        notes.append("Fewer than three models in this cohort have a runtime, so the trade-off cannot be checked.")
    orgs = checks.tradeoff_orgs
    if len(orgs):
        notes.append(_family_note(frame))
    rows = _statement(openai_rows, ctx)
    if rows and len(orgs):
        notes.append(rows)
    wording = efficiency_wording(tuple(ctx.models), ctx.cohort)
    claims = ["scale_finding", "access_finding", "efficiency_tradeoff"]
    eff_metrics = efficiency_metrics()
    if any("denoised" in m.lower() for m in eff_metrics):
        claims.append("denoised_runtime")
    elif wording is not None:
        names = fmt.names(eff_metrics)
        notes.append(f"{rel}'s efficiency column is {TEXT(names)}, as its schema names it: "
                     + TEXT(wording.text) + " The paper's efficiency claims describe HELM classic's denoised runtime, "
                     "which this data does not hold.")
    x_label = f"accuracy win rate ({kind})"
    if sized.empty:
        msg = "No model of this cohort has both an accuracy win rate and a disclosed size to place on the chart."
        return View(point=point, empty=msg, talk=talk, notes=notes, claims=claims)
    inside = sized[(sized["capability"] > SCALE_THRESHOLD) & (sized["params"] < SCALE_SIZE)]
    chart = Chart(
        charts_cost.scale_chart(frame, threshold=SCALE_THRESHOLD, size=SCALE_SIZE, x_label=x_label,
                                    mode=ctx.mode),
        key="cost_scale",
        alt=(f"Accuracy win rate against parameters for {fmt.count(len(sized), 'model')} of {ctx.rel.name}; the "
             f"region the paper says is empty (fewer than {fmt.params(SCALE_SIZE)} parameters, above "
             f"{SCALE_THRESHOLD:g}) holds {fmt.count(len(inside), 'model')}"
             + (": " + ", ".join(inside.sort_values("capability", ascending=False)["model"]) if len(inside) else "")
             + "."),
        data=_table(sized.assign(pareto=False)).drop(columns=["pareto", "runtime", "runtime_s", "harm"]),
        data_name="scale_finding")
    return View(point=point, visual=chart, talk=talk, notes=notes, claims=claims,
                read=("Each dot is a model with a disclosed size: further right is bigger, higher is more capable. "
                      "The shaded corner is where the paper says no model is (fewer than "
                      f"{fmt.params(SCALE_SIZE)} parameters, above a {SCALE_THRESHOLD:g} accuracy win rate); the "
                      "models in it are vermillion diamonds, the highest of them named."))


def _family_note(frame: pd.DataFrame) -> str:
    both = frame[frame["capability"].notna() & frame["runtime_s"].notna() & frame["params"].notna()]
    return (f"The table below keeps the {fmt.count(len(both), 'model')} of {fmt.count(len(frame))} with an accuracy "
            "win rate, a runtime and a disclosed size, per organization with at least three of them. Within an "
            "organization, bigger models tend to be more capable and slower when both correlations are positive. "
            "Organizations stand in for families.")


def paper_details(ctx: Ctx, view: View, event) -> None:
    if _too_few(ctx) is not None:
        return
    checks = cost_view(tuple(ctx.models), "win_rate", "toxic_frac", "runtime")
    orgs = checks.tradeoff_orgs
    if len(orgs):
        st.markdown("**Size against capability and runtime, per organization**")
        components.table(orgs, labels={"organization": "organization (≈ family)",
                                       "rho_params_capability": "size vs capability (rank corr.)",
                                       "rho_params_runtime": "size vs runtime (rank corr.)"},
                         formats={"size vs capability (rank corr.)": "{:+.2f}",
                                  "size vs runtime (rank corr.)": "{:+.2f}"})
        st.caption(_family_note(checks.frontier.frame))


# ----------------------------------------------------------------------------- the deck

DECK = slides.Deck("cost", [
    Slide("chart", "Capability vs cost", view=chart_view, controls=chart_controls, details=chart_details,
          fragment=True),
    Slide("paper", "Paper findings", view=paper_view, details=paper_details),
], keep=["cap", "cost", "harm", *recipe_controls.QUERY_KEYS])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
