"""One Recipe Reorders The Podium: accuracy-only rank beside a recipe's rank, rank shifts, podium stability,
and how the field of rivals changes a win rate."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt, ranking
from helm_core.data import GROUP_LABELS
from ui import cache, charts, charts_rankings, components, presenter, recipe_controls, state

recipe_ranking = cache.on_release(ranking.recipe_ranking)
recipe_stability = cache.on_release(ranking.recipe_stability)
paper_podium_check = cache.on_release(ranking.paper_podium_check)
dominance_check = cache.on_release(ranking.dominance_check)
rival_sets = cache.on_release(ranking.rival_sets)
model_set_effect = cache.on_release(ranking.model_set_effect)
weights_spec = cache.on_release(charts_rankings.weights_spec)
slope_spec = cache.on_release(charts_rankings.slope_spec)

ACCURACY_ONLY = (("accuracy", 1.0),)
TOP_N_OPTIONS = (5, 10, 15, 20, 25, 30)
SPREADS = {"small": 200.0, "medium": 50.0, "large": 10.0}  # Dirichlet concentration
N_SAMPLES = 10_000

components.page_header("podium")
rel = cache.active_release()
rel_name = components.text(rel.name)  # data text: escaped before it goes into markdown
models = cache.active_models()

if len(models) < 2:
    st.warning("A ranking needs at least two models: widen the sidebar's cohort or access filter.")
    components.onward("podium")
    st.stop()

base = recipe_ranking(models, ACCURACY_ONLY, "renormalize")
RANKED = ranking.ranked_groups(rel)  # the seven on classic; a later release's measured groups
if base.coverage.get("accuracy", 0) == 0:
    st.info("This release has no accuracy values, so there is no accuracy ranking to start from. "
            "Load a release with accuracy results (the *Bring Your Own HELM Output* page).")
    components.onward("podium")
    st.stop()


def chosen_recipe() -> tuple[recipe_controls.RecipeChoice, ranking.RecipeRanking] | None:
    """The shared recipe controls, drawn, and the ranking of their recipe; None, after a warning, when the
    weights cannot make a ranking. Both sections that use the recipe start here."""
    choice = recipe_controls.recipe_controls(base.coverage, len(models))
    if choice.error:
        st.warning(choice.error)
        return None
    if not recipe_controls.weighs_release_groups(choice, RANKED):
        return None
    return choice, recipe_ranking(models, choice.items, choice.missing)


@st.fragment
def comparison() -> None:
    chart_slot = presenter.main_slot()  # presenter mode: the slope chart above the recipe controls
    chosen = chosen_recipe()
    if chosen is None:
        return
    choice, rr = chosen
    weighted = [g for g in choice.weighted if g in RANKED]
    absent = [GROUP_LABELS[g] for g in weighted if rr.coverage.get(g, 0) == 0]
    if absent:
        st.info(f"No model in this cohort has a win rate for {', '.join(absent)} in {rel_name} (a win rate needs "
                "at least two models measured on the same column); "
                + ("the scores are renormalised over the other weighted groups."
                   if choice.missing == "renormalize" else "with 'exclude', every model drops out."))

    wcol, fcol = st.columns([2, 3])
    with wcol:
        components.chart(
            charts.figure(weights_spec(models, choice.items, choice.missing)), key="podium_weights",
            alt="Current recipe weights: " + ", ".join(f"{GROUP_LABELS[g]} {fmt.share(v, 0)}" for g, v in rr.weights.items()
                                                         if g in GROUP_LABELS),
            data=pd.DataFrame({"metric_group": rr.weights.index, "weight": rr.weights.round(4).to_numpy(),
                               "models_with_value": rr.coverage.reindex(rr.weights.index).fillna(0).astype(int)
                               .to_numpy()}),
            data_name="recipe_weights",
        )
    with fcol:
        flagged = rr.recipe[rr.recipe["flagged"]]
        ranked = rr.recipe[~rr.recipe["excluded"]]
        top10 = ranked.head(10)
        if flagged.empty and not rr.recipe["excluded"].any():
            st.markdown(f"**Every one of the {fmt.count(len(rr.recipe))} models** has a value for every weighted group.")
        elif choice.missing == "renormalize":
            st.markdown(
                f"**{fmt.count(len(flagged))} of {fmt.count(len(rr.recipe))} models** lack a value for at least one weighted group "
                f"and are scored over the groups they have (marked †). In this recipe's top 10, "
                f"**{int(top10['flagged'].sum())}** are. A model with no efficiency value cannot lose on "
                "efficiency: switch to *exclude* to rank only models with every weighted group."
            )
        else:
            st.markdown(
                f"**{fmt.count(int(rr.recipe['excluded'].sum()))} of {fmt.count(len(rr.recipe))} models** lack a value for at least "
                f"one weighted group and are left out; **{fmt.count(len(ranked))}** are ranked, in both columns: the "
                "accuracy-only ranks and the moves below count the same models."
            )
        by_group = [(GROUP_LABELS[g], len(models) - int(rr.coverage.get(g, 0))) for g in weighted]
        gaps = [f"{lab} ({fmt.count(n)})" for lab, n in by_group if n > 0]
        if gaps:
            st.caption("Models without a value, per weighted group: " + ", ".join(gaps) + ".")

    left, mid, right = st.columns([1, 2, 1])
    state.allow("n", [str(v) for v in TOP_N_OPTIONS])
    with mid:
        # Buttons rather than a select slider: with the weight sliders in a popover, the page's first screen then
        # needs no slider code in the browser.
        n = int(st.segmented_control("Top N in the slope chart and tables", TOP_N_OPTIONS, default=10, required=True,
                                     key="n", bind="query-params"))
    table_height = None if n <= 15 else 600  # longer top-N tables scroll
    with left:
        recipe_controls.podium(rr.accuracy, "Accuracy only", "win rate")
        components.table(recipe_controls.ranking_table(rr.accuracy, n, "win rate"), height=table_height)
    with right:
        recipe_controls.podium(rr.recipe, f"Recipe: {choice.label}", "score")
        components.table(recipe_controls.ranking_table(rr.recipe, n, "score"), height=table_height)
    with mid:
        shift = rr.shift
        tau_text = "not defined" if pd.isna(rr.tau) else fmt.value(rr.tau, 2)
        m1, m2 = st.columns(2)
        m1.metric("Kendall's tau, accuracy vs recipe", tau_text,
                  help="Rank agreement over the models ranked in both: 1 = same order, 0 = unrelated, "
                       "−1 = reversed (tau-b, ties handled).")
        moved = int((shift["shift"] != 0).sum())
        m2.metric("Models that change place", f"{fmt.count(moved)} of {fmt.count(len(shift))}")
        sel = shift[(shift["rank_a"] <= n) | (shift["rank_b"] <= n)]
        with presenter.into(chart_slot):
            components.chart(
                charts.figure(slope_spec(models, choice.items, choice.missing, n, choice.label)), key="podium_slope",
                main=True,
                alt=(f"Slope chart of rank changes from accuracy only to {choice.label} for {len(sel)} models in "
                     f"either top {n}. Kendall's tau {tau_text}. "
                     + "; ".join(f"{m} {int(r.rank_a)}→{int(r.rank_b)}" for m, r in sel.head(12).iterrows())),
                data=shift.reset_index().astype({"rank_a": int, "rank_b": int, "shift": int}), data_name="rank_shift",
            )
        up = shift[shift["shift"] > 0].sort_values(["shift", "rank_b"], ascending=[False, True]).head(5)
        down = shift[shift["shift"] < 0].sort_values(["shift", "rank_b"], ascending=[True, True]).head(5)
        c_up, c_down = st.columns(2)
        with c_up:
            st.markdown("**Moved up most**")
            st.markdown("  \n".join(f"▲ {components.text(m)}: #{int(r.rank_a)} → #{int(r.rank_b)} (+{int(r['shift'])})"
                                    for m, r in up.iterrows()) or "nobody")
        with c_down:
            st.markdown("**Moved down most**")
            st.markdown("  \n".join(f"▼ {components.text(m)}: #{int(r.rank_a)} → #{int(r.rank_b)} (−{abs(int(r['shift']))})"
                                    for m, r in down.iterrows()) or "nobody")
    st.caption("† scored over fewer groups than the recipe weighs (no value for a weighted group). "
               "Ties share the better rank.")
    box = components.lazy_expander(f"Every model under {choice.label} ({fmt.count(len(rr.recipe))}), with what each one lacks",
                                   key="podium_full")
    if box is not None:
        with box:
            full = recipe_controls.ranking_table(rr.recipe, None, "score", notes=True)
            st.dataframe(full, hide_index=True, width="stretch")
            components.download(full, "recipe_ranking", key="podium_recipe_csv")


def _podium() -> None:
    main_slot = presenter.main_slot()
    st.caption(recipe_controls.kind_caption(base.kind, len(models), rel_name))
    held = dominance_check(models).measured  # the groups this cohort has win rates in
    if len(RANKED) == 7 and len(held) == 7:
        groups = "the seven groups"
    elif len(RANKED) == 7:
        groups = (f"the seven groups ({rel_name} has win rates in {fmt.count(len(held))} of them: "
                  + (fmt.names([GROUP_LABELS[g].lower() for g in held]) or "none")
                  + "; a weight on another group finds no value)")
    else:
        groups = (f"the {len(RANKED)} groups {rel_name} measures ("
                  + " and ".join(GROUP_LABELS[g].lower() for g in RANKED) + ")")
    st.markdown(
        "HELM ranks models by **head-to-head win rate**: in each scenario column, the share of the other models a "
        f"model beats, averaged per metric group. A *recipe* weights {groups} into one score. "
        "Change the recipe and watch who stands on the podium."
    )
    components.claim("no_single_score", compact=True)
    with presenter.into(main_slot):
        comparison()


@st.fragment
def stability() -> None:
    """The podium's robustness to the recipe's weights, under the shared recipe controls."""
    chosen = chosen_recipe()
    if chosen is None:
        return
    choice, rr = chosen
    if len([g for g in choice.weighted if g in RANKED]) < 2:
        st.info("This recipe weighs a single group, so there is nothing to perturb: its podium is that group's "
                "ranking. Pick a recipe with two or more groups to test its stability.")
        return
    state.allow("spread", list(SPREADS))
    spread = st.radio("How far the weights wander", list(SPREADS), index=1, key="spread", bind="query-params",
                      horizontal=True, captions=["a little", "moderately", "a lot"])
    conc = SPREADS[spread]
    stab = recipe_stability(models, choice.items, choice.missing, N_SAMPLES, conc, 0)
    sd = ranking.dirichlet_spread(choice.items, conc)
    w_typ = rr.weights[rr.weights > 0]
    rel_sd = float((sd[w_typ.index] / w_typ).median())
    st.markdown(
        f"**A simulation:** {fmt.count(N_SAMPLES)} weight vectors drawn at random around the recipe (Dirichlet, "
        f"concentration {conc:g}: a typical weight moves by about ±{fmt.share(rel_sd, 0)} of its value), the models "
        "ranked under each. The win rates are HELM's; only the weights are simulated. Seed 0, so the numbers "
        "are reproducible."
    )
    if stab.empty:
        st.info("No model can be ranked under this recipe and policy.")
        return
    leaders = stab[(stab["p_top3"] > 0) | (stab["rank"] <= 3)].sort_values(["p_top3", "p_first"], ascending=False) \
        .head(8)
    components.chart(
        charts_rankings.stability_chart(leaders, top=8), key="podium_stability",
        alt=("Podium stability: " + "; ".join(f"{m} first in {fmt.share(r.p_first)}, top 3 in {fmt.share(r.p_top3)}"
                                              for m, r in leaders.iterrows())),
        data=stab.reset_index().round(4), data_name="podium_stability",
    )
    st.markdown(stability_sentence(ranking.stability_verdict(stab), stab))


def stability_sentence(v: ranking.StabilityVerdict, stab: pd.DataFrame) -> str:
    """The verdict on first place (helm_core.ranking.stability_word), with the numbers it rests on."""
    leader = components.text(v.leader)
    if v.word == "unchallenged":
        return f"Only {leader} can be ranked under this recipe, so it is first in every sample: there is no contest."
    runner = components.text(v.runner_up)
    numbers = (f"{leader} is first in {fmt.share(v.p_first)} of the samples, {runner} in {fmt.share(v.p_runner_up)}; "
               f"by chance alone, each of the {fmt.count(v.n_models, 'model')} ranked would be first in "
               f"{fmt.share(v.chance)}.")
    head = ("First place is **a toss-up**: " if v.word == "a toss-up" else f"First place looks **{v.word}**: ")
    if v.n_models <= 3:
        tail = (f" With {fmt.count(v.n_models, 'model')} ranked, every one of them is in the top three in every "
                "sample, so only first place tells anything.")
    else:
        k = int((stab["p_top3"] > 0.05).sum())
        tail = f" {fmt.count(k, 'model')} {fmt.plural(k, 'reaches', 'reach')} the top three in more than 5% of them."
    return head + numbers + tail


def _robustness() -> None:
    st.subheader("Is the podium robust, or an artefact of the recipe?")
    st.markdown("The recipe under test is the one of the *Recipe podium* section (shared with the "
                "*Capability vs Cost Pressure* page); change it here or there.")
    stability()


def _paper() -> None:
    st.subheader(f"The paper's podium, and what {rel_name} shows")
    components.claim("top_accuracy")
    check = paper_podium_check(None)
    if rel.is_later:
        st.info(f"The paper's podium was measured on HELM classic's core scenarios; {rel_name} is a later "
                "leaderboard with its own scenarios and prompts, so the claim is checked on classic only.")
        st.page_link("app_pages/podium.py", label="The paper's podium on HELM classic v0.4.0",
                     query_params={"release": "classic", "podium_section": "Paper podium"}, icon=":material/history:")
    elif check.empty:
        st.info(f"{rel_name} does not include the paper's podium models, so the claim cannot be checked here.")
    else:
        full = recipe_ranking(None, ACCURACY_ONLY, "renormalize")
        leaders = ", ".join(f"#{int(r['rank'])} {components.text(m)} ({fmt.value(r['score'])})"
                            for m, r in full.accuracy.head(3).iterrows())
        lines = [f"- **Among all {int(check['n'].iloc[0])} models of {rel_name}** ({full.kind} accuracy win rates) the "
                 f"podium is {leaders}. The paper's three stand at "
                 + ", ".join(f"#{int(r['rank'])} {components.text(r['model'])} ({fmt.value(r['win_rate'])})"
                             for _, r in check.iterrows()) + "."]
        if check["cohort_n"].iloc[0] > 1:
            lines.append(
                f"- **Among the paper's {int(check['cohort_n'].iloc[0])}-model cohort**, recomputed from {rel_name}'s "
                "numbers: " + ", ".join(f"#{int(r['cohort_rank'])} {components.text(r['model'])} "
                                        f"({fmt.value(r['cohort_win_rate'])})" for _, r in check.iterrows()) + "."
            )
        st.markdown("\n".join(lines))
        same = bool((check["cohort_rank"].to_numpy() == check["paper_place"].to_numpy()).all())
        st.markdown(
            ("So the data agrees with the paper **within its own cohort**, and disagrees once newer models join: "
             "the podium depends on who is in the field, not only on the recipe."
             if same else
             "The data does **not** reproduce the paper's order, even within its cohort: the v0.4.0 numbers were "
             "recomputed after the paper.")
        )

    st.markdown(dominance_sentence(dominance_check(models)))


def dominance_sentence(d: ranking.DominanceCheck) -> str:
    """Pareto dominance over the groups this cohort has win rates in, saying how many groups each model has."""
    names = fmt.names([GROUP_LABELS[g].lower() for g in d.measured])
    counts = d.group_counts
    n_full = len(d.nondominated)
    every = len(d.measured) == len(d.groups)
    if not len(counts) or not d.measured:
        return f"No model of this cohort has a group win rate in {rel_name}, so there is no dominance to check."
    lo, hi = int(counts.min()), int(counts.max())
    held = (f"each of the {fmt.count(len(counts), 'model')} has a win rate in {fmt.count(lo)}" if lo == hi else
            f"the {fmt.count(len(counts), 'model')} have win rates in {fmt.count(lo)} to {fmt.count(hi)}")
    held += (f" of the {fmt.count(len(d.groups), 'group')} "
             + ("a recipe weighs" if len(d.groups) == 7 else f"{rel_name} ranks on"))
    if every and len(d.groups) == 7:
        intro = (f"**Pareto dominance is rare, as HELM says:** of the {fmt.count(n_full, 'model')} in this cohort "
                 f"with a win rate in all seven groups ({names}),")
    else:
        intro = (f"**Pareto dominance in {rel_name}:** {held}; dominance is checked over the "
                 f"{fmt.count(len(d.measured), 'group')} with a win rate here ({names}). Of the "
                 f"{fmt.count(n_full, 'model')} with a win rate in {'all of them' if len(d.measured) > 1 else 'it'},")
    fewer = counts[counts < len(d.measured)]
    rest = ""
    if len(fewer):
        a, b = int(fewer.min()), int(fewer.max())
        rest = (f" The other {fmt.count(len(fewer), 'model')} of the cohort {fmt.plural(len(fewer), 'has')} win rates in "
                + (f"{fmt.count(a, 'group')}" if a == b else f"{fmt.count(a)} to {fmt.count(b)} groups")
                + " and are left out of this check.")
    if n_full < 2:
        return intro + " fewer than two remain, so no model can dominate another." + rest
    k = int(d.nondominated.sum())
    return (intro + f" **{fmt.count(k)}** {fmt.plural(k, 'is')} not dominated by any other (no model is at least as "
            "good in every group and better in one)."
            + (" Without a recipe, most of them could claim a podium." if k > n_full / 2 else "") + rest)


@st.fragment
def model_set_demo() -> None:
    st.subheader("A win rate depends on the field")
    st.markdown(
        "A win rate counts the rivals a model beats, so the same scores give a different win rate against a "
        "different field. A HELM user asked exactly this: how choosing a subset of models affects the win rate "
        "([stanford-crfm/helm#2849](https://github.com/stanford-crfm/helm/issues/2849)). Pick a model and a set "
        "of rivals to remove; both sides are recomputed from the results."
    )
    order = list(base.accuracy.index)
    # The paper's leader against the newcomers when the cohort has any; otherwise a model from mid-table.
    default = order[len(order) // 2]
    if "text-davinci-002" in order and rival_sets(models, "text-davinci-002")["newer"]:
        default = "text-davinci-002"
    c1, c2 = st.columns([2, 3])
    target = c1.selectbox("Model", order, index=order.index(default), key="podium_ms_model")
    sets = rival_sets(models, target)
    options = list(ranking.RIVAL_SETS) + ["custom"]
    captions = [f"{ranking.RIVAL_SETS[k]} ({len(sets[k])})" for k in ranking.RIVAL_SETS] + ["pick them yourself"]
    first_nonempty = next((i for i, k in enumerate(ranking.RIVAL_SETS) if sets[k]), len(options) - 1)
    which = c2.radio("Remove", options, index=first_nonempty, key="podium_ms_which", horizontal=True,
                     captions=captions)
    if which == "custom":
        removed = st.multiselect("Rivals to remove", [m for m in order if m != target], key="podium_ms_custom")
    else:
        removed = sets[which]
    if not removed:
        st.info("No rivals to remove with this choice in the current cohort: pick another set.")
        return
    eff = model_set_effect(models, target, tuple(sorted(removed)))
    components.chart(
        charts_rankings.model_set_chart(eff, target), key="podium_model_set",
        alt=(f"{target}'s win rates against all {fmt.count(len(models), 'model')} and without "
             f"{fmt.count(len(removed), 'rival')}: "
             + "; ".join(f"{GROUP_LABELS[r.metric_group]} {fmt.value(r.win_rate_with)} → {fmt.value(r.win_rate_without)}"
                         for r in eff.itertuples() if pd.notna(r.win_rate_with))),
        data=eff.round(4), data_name="model_set_effect",
    )
    acc = eff.set_index("metric_group").loc["accuracy"]
    if pd.notna(acc["win_rate_with"]) and pd.notna(acc["win_rate_without"]):
        st.markdown(
            f"Accuracy win rate of **{components.text(target)}**: {fmt.value(acc['win_rate_with'])} "
            f"(#{int(acc['rank_with'])} of {int(acc['n_with'])}) against the full field, "
            f"{fmt.value(acc['win_rate_without'])} (#{int(acc['rank_without'])} of {int(acc['n_without'])}) without the "
            f"{fmt.count(len(removed), 'removed rival')}. Its scores did not change; only the field did."
        )
    elif pd.notna(acc["win_rate_with"]):
        st.info(f"Without {'this rival' if len(removed) == 1 else f'these {fmt.count(len(removed))} rivals'} fewer than two models are left to compare, so "
                f"{components.text(target)} has no win rate at all: a win rate only exists against a field.")
    st.caption("Both sides are recomputed among the models compared (like with like), so the full-field value can "
               "differ slightly from HELM's published one: the inputs are rounded to 3 decimals.")


components.sections("podium_section", {
    "Recipe podium": _podium,
    "Robustness": _robustness,
    "Paper podium": _paper,
    "Field of rivals": model_set_demo,
}, keep=[*recipe_controls.QUERY_KEYS, "n", "spread"])
components.onward("podium")
