"""Capability vs Cost Pressure: capability against denoised runtime (or size), coloured by harm risk, with the
recipe's top three and the Pareto front; the models HELM could not time are listed, not dropped."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt, frontier, ranking
from ui import cache, charts_rankings, components, presenter, recipe_controls, state

cost_view = cache.on_release(frontier.cost_view)
recipe_ranking = cache.on_release(ranking.recipe_ranking)
cost_label = cache.on_release(frontier.cost_label)
efficiency_metrics = cache.on_release(frontier.efficiency_metrics)

ACCURACY_ONLY = (("accuracy", 1.0),)
CAP_CAPTIONS = {"win_rate": "HELM's head-to-head accuracy win rate", "mean_accuracy": "mean of the main metric"}
COST_CAPTIONS = {"runtime": "HELM's efficiency cell", "params": "every model with a disclosed size"}
HARM_CAPTIONS = {"toxic_frac": "Perspective API ≥ 0.5", "gender_repr": "word-count skew",
                 "toxic_losses": "head-to-head, robust to coverage"}

components.page_header("cost")
rel = cache.active_release()
rel_name = components.text(rel.name)  # data text: escaped before it goes into markdown
models = cache.active_models()

if len(models) < 2:
    st.warning("A capability-cost picture needs at least two models: widen the sidebar's cohort or access filter.")
    components.onward("cost")
    st.stop()

base = recipe_ranking(models, ACCURACY_ONLY, "renormalize")


@st.fragment
def chart_section() -> None:
    chart_slot = presenter.main_slot()  # presenter mode: the bubbles above their controls
    c1, c2, c3 = st.columns(3)
    state.allow("cap", frontier.CAPABILITY_MEASURES)
    cap = c1.radio("Capability (x)", list(frontier.CAPABILITY_MEASURES), index=0, key="cap", bind="query-params",
                   captions=[CAP_CAPTIONS[k] for k in frontier.CAPABILITY_MEASURES])
    state.allow("cost", frontier.COST_MEASURES)
    cost = c2.radio("Cost (y, log scale)", list(frontier.COST_MEASURES), index=0, key="cost", bind="query-params",
                    captions=[COST_CAPTIONS[k] for k in frontier.COST_MEASURES])
    state.allow("harm", frontier.HARM_MEASURES)
    harm = c3.radio("Harm risk (colour)", list(frontier.HARM_MEASURES), index=0, key="harm", bind="query-params",
                    captions=[HARM_CAPTIONS[k] for k in frontier.HARM_MEASURES])
    with st.expander("Recipe for the top three (shared with the Podium page)", expanded=False):
        choice = recipe_controls.recipe_controls(base.coverage, len(models))

    v = cost_view(models, cap, harm, cost)
    fr = v.frontier
    f = fr.frame
    x_label = frontier.CAPABILITY_MEASURES[cap]
    y_label = cost_label(cost)  # the release's own efficiency metric (observed on Lite and in a user's suite)
    harm_label = frontier.HARM_MEASURES[harm][2]
    components.release_gap([frontier.HARM_MEASURES[harm][0]], "cost")

    notes = []
    if cap == "win_rate":
        notes.append(recipe_controls.kind_caption(fr.capability_kind, len(models), rel_name))
    else:
        notes.append(_basis_note("Mean accuracy", fr.capability_basis, fr.capability_scenarios))
    if cost == "runtime":
        notes.append(_basis_note("Runtime", fr.cost_basis, fr.cost_scenarios))
    if frontier.HARM_MEASURES[harm][1] is not None:
        notes.append(_basis_note(harm_label, fr.harm_basis, fr.harm_scenarios))
    st.caption(" ".join(notes))

    top: dict[str, int] = {}
    if choice.error:
        st.warning(choice.error)
    elif recipe_controls.weighs_release_groups(choice, ranking.ranked_groups(rel)):
        rr = recipe_ranking(models, choice.items, choice.missing)
        ranked = rr.recipe[~rr.recipe["excluded"]].head(3)
        top = {m: int(r) for m, r in ranked["rank"].items()}

    drawn = f[f["capability"].notna() & f[v.y].notna()]
    band = f[f["capability"].notna() & f[v.y].isna()]
    band_label = frontier.BAND_LABELS[v.y]
    if drawn.empty and band.empty:
        st.info("No model in this cohort has a capability value to place on the chart.")
    else:
        if drawn.empty:
            st.info(f"No model in this cohort has {'an inference time' if cost == 'runtime' else 'a disclosed size'}"
                    f" in {rel_name}, so every model sits in the band \"{band_label}\". Switch *Cost* to "
                    f"*{'params' if cost == 'runtime' else 'runtime'}* to spread them out.")
        fig = charts_rankings.capability_cost_bubble(f, v.y, x_label=x_label, y_label=y_label,
                                                     harm_label=harm_label, top=top)
        front = drawn[drawn["pareto"]].sort_values("capability")
        with presenter.into(chart_slot):
            components.chart(
                fig, key="cost_bubble", main=True,
                alt=(f"Bubble chart of {fmt.count(len(drawn), 'model')}: {x_label} against {y_label} (log scale), "
                     f"colour {harm_label}; {fmt.count(len(band), 'more model')} in a band below it "
                     f"({band_label}), placed by capability only. Pareto front: " + (", ".join(front["model"]) or "none")
                     + ". Top three of the recipe: " + (", ".join(f"#{r} {m}" for m, r in top.items()) or "none") + "."),
                data=_table(pd.concat([drawn, band]), v.y), data_name="capability_cost",
            )
        label = choice.label
        top_in_band = [f"#{r} {components.text(m)}" for m, r in top.items() if m in set(band["model"])]
        if top_in_band:
            st.markdown(
                f"**In the band \"{band_label}\" from the {components.text(label)} top three:** "
                + ", ".join(top_in_band)
                + (": HELM has no runtime for them in this release, so they are placed by capability only."
                   if cost == "runtime" else ": their size is undisclosed, so they are placed by capability only.")
                + (" With *exclude* in the recipe settings, only models with every weighted group are ranked."
                   if choice.missing == "renormalize" else "")
            )
        undisclosed = f[~f["size_disclosed"]]
        if len(undisclosed):
            shown = int((~drawn["size_disclosed"]).sum())
            st.caption(
                f"Sizes: {fmt.count(len(undisclosed), 'model')} of the cohort {fmt.plural(len(undisclosed), 'has')} "
                "an undisclosed size (" + ", ".join(components.text(m) for m in undisclosed["model"]) + "); "
                + (f"{fmt.count(shown)} drawn as fixed-size diamonds." if shown else
                   "none of them has a runtime, so no diamond appears above the band.")
                + " Sizes HELM marks as speculative (*) are circles with a dot."
            )
        if len(front):
            st.markdown(
                f"**On the Pareto front ({len(front)}):** "
                + ", ".join(f"{components.text(m)} ({fmt.value(c)})" for m, c in zip(front["model"], front["capability"]))
                + ". Every other model above the band is beaten on both axes by one of these."
            )

    out = v.left_out
    in_band = out[out["model"].isin(set(band["model"]))] if not (drawn.empty and band.empty) else out.iloc[0:0]
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


def _basis_note(what: str, basis: str, scenarios: tuple[str, ...]) -> str:
    if basis == "shared":
        return f"{what}: mean over the {len(scenarios)} scenarios every measured model has."
    if basis == "own":
        return (f"{what}: mean over each model's own measured scenarios (fewer than {frontier.MIN_SHARED} are "
                "shared by all), so models measured on different scenarios are averaged over different ground.")
    return ""


def _table(drawn: pd.DataFrame, y: str) -> pd.DataFrame:
    t = drawn[["model", "organization", "access", "capability", "runtime_s", "harm", "params", "params_speculative",
               "pareto"]].copy()
    t["params"] = [fmt.params(p, s) for p, s in zip(t["params"], t["params_speculative"])]
    # runtime_s keeps its precision (a small model answers in microseconds); `runtime` reads it at its scale
    t.insert(t.columns.get_loc("runtime_s"), "runtime", t["runtime_s"].map(fmt.seconds))
    return t.drop(columns="params_speculative").round({"capability": 3, "harm": 5}) \
        .sort_values("capability", ascending=False)


def _chart() -> None:
    main_slot = presenter.main_slot()
    st.markdown(
        "Each bubble is a model: further right is more capable, lower is cheaper to run. Colour is harm risk, "
        "bubble size the number of parameters. The dashed line is the **Pareto front**: the models no other model "
        "beats on both capability and cost. The ringed, labelled models are the top three of the current recipe "
        "(shared with the *One Recipe Reorders The Podium* page). Models HELM has no cost value for are not dropped: "
        "they sit in the band below the chart, placed by capability only."
    )
    with presenter.into(main_slot):
        chart_section()


def _paper() -> None:
    st.subheader(f"What the paper said, and what {rel_name} shows")
    checks = cost_view(models, "win_rate", "toxic_frac", "runtime")
    kind = checks.win_rate_kind
    cohort = components.cohort_label(len(models))
    left, right = st.columns(2)
    with left:
        components.claim("scale_finding")
        ce = checks.scale_check
        if ce.empty:
            st.markdown(f"**The data agrees** for {cohort} ({kind} accuracy win rates): no model above 0.55 has "
                        "fewer than 50B parameters.")
        else:
            names = ", ".join(f"{components.text(m)} ({fmt.params(p, s)}, {fmt.value(c)})"
                              for m, p, s, c in ce[["model", "params", "params_speculative", "capability"]]
                              .head(8).itertuples(index=False))
            more = f" and {len(ce) - 8} more" if len(ce) > 8 else ""
            st.markdown(f"**{rel_name} disagrees** for {cohort} ({kind} accuracy win rates): "
                        f"{fmt.count(len(ce), 'model')} above 0.55 {fmt.plural(len(ce), 'has')} fewer than 50B "
                        f"parameters: {names}{more}.")
        components.claim("access_finding")
        acc = checks.access_check
        if acc.empty:
            st.info("No accuracy win rates in this cohort to compare access levels.")
        else:
            st.markdown(f"Best model per access level (accuracy win rate, rank in {cohort}):  \n" + "  \n".join(
                f"- **{components.text(r.access)}**: {components.text(r.model)} ({fmt.value(r.capability)}, #{r.rank} of "
                f"{fmt.count(len(checks.frontier.frame))}; {fmt.count(r.models, components.text(r.access) + ' model')})"
                for r in acc.itertuples()))
            top_access = acc.iloc[0]["access"]
            st.markdown(
                "**The data agrees** here: the best open model trails the best limited or closed one."
                if top_access != "open" else
                f"**{rel_name} disagrees** for {cohort}: the most capable model is open. The paper's finding was "
                "about its 2022 cohort."
            )
    with right:
        components.claim("efficiency_tradeoff")
        if checks.tradeoff_n >= 3:
            rho = checks.tradeoff_rho
            strength = "weak" if abs(rho) < 0.3 else ("moderate" if abs(rho) < 0.6 else "strong")
            direction = "more capable models tend to be slower" if rho > 0 else "more capable models tend to be faster"
            st.markdown(
                f"Across the {fmt.count(checks.tradeoff_n, 'model')} of {cohort} with a runtime, the rank correlation of accuracy win rate with "
                f"runtime is **{rho:+.2f}** ({strength}): {direction}"
                + (", but loosely: no clean trade-off across all models." if abs(rho) < 0.6 else ".")
            )
            orgs = checks.tradeoff_orgs
            if len(orgs):
                components.table(orgs, labels={"organization": "organization (≈ family)",
                                               "rho_params_capability": "size vs capability (rank corr.)",
                                               "rho_params_runtime": "size vs runtime (rank corr.)"},
                                 formats={"size vs capability (rank corr.)": "{:+.2f}",
                                          "size vs runtime (rank corr.)": "{:+.2f}"})
                st.caption("Within an organization, bigger models tend to be more capable and slower when both "
                           "correlations are positive. Organizations stand in for families; OpenAI's rows mix the "
                           "GPT-3 and InstructGPT series, whose sizes HELM marks as speculative.")
        else:
            st.info("Fewer than three models in this cohort have a runtime, so the trade-off cannot be checked.")
        components.claim("denoised_runtime")
        eff = efficiency_metrics()
        if eff and not any("denoised" in m.lower() for m in eff):
            st.caption(f"{rel_name}'s efficiency column is {components.text(fmt.names(eff))}, as its schema names it: "
                       "the claim above describes HELM classic's denoised runtime, which this data does not hold.")


components.sections("cost_section", {
    "Capability vs cost": _chart,
    "Paper findings": _paper,
}, keep=["cap", "cost", "harm", *recipe_controls.QUERY_KEYS])
components.onward("cost")
