"""One Recipe Reorders The Podium: HELM's own ranking of the release (the aggregate it publishes: "Mean win rate"
on classic and Lite, "Mean score" on Capabilities; recomputed for a cohort) beside this app's recipe ranking.

Slides: the recipe podium (a slope chart, HELM's order to the recipe's), its robustness to the weights, the 2022
paper's podium against this release, and how the field of rivals changes a win rate."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages.podium_text import (coverage_notes, dominance_check, dominance_sentence, groups_phrase, helm_label,
                                   helm_provenance, move_text, podium_names, ranked_groups, recipe_name, SET_WORDS,
                                   stability_sentence)
from helm_core import aggregate, fmt, participation, ranking, stability, win_rates
from helm_core.data import GROUP_LABELS
from ui import cache, charts_rankings, components, recipe_controls, slides, state
from ui.slides import Card, Chart, Ctx, Link, Slide, View

recipe_ranking = cache.on_release(ranking.recipe_ranking)
recipe_stability = cache.on_release(stability.recipe_stability)
typical_weight_move = cache.on_release(stability.typical_weight_move)
paper_podium_check = cache.on_release(ranking.paper_podium_check)
rival_sets = cache.on_release(win_rates.rival_sets)
model_set_effect = cache.on_release(win_rates.model_set_effect)
cohort_ranking = cache.on_release(aggregate.cohort_ranking)
weights_spec = cache.on_release(charts_rankings.weights_spec)
slope_spec = cache.on_release(charts_rankings.slope_spec)
stability_spec = cache.on_release(charts_rankings.stability_spec)
rival_spec = cache.on_release(charts_rankings.rival_spec)
paper_podium_spec = cache.on_release(charts_rankings.paper_podium_spec)

ACCURACY_ONLY = (("accuracy", 1.0),)
TOP_N_OPTIONS = (5, 10, 15, 20, 25, 30)
STAGE_TOP_N = 10  # on stage the slope chart shows at most the top 10 of either side (18 rows fit at 16 px)
STAGE_ROWS = 18
SPREADS = {"small": 200.0, "medium": 50.0, "large": 10.0}  # Dirichlet concentration
SPREAD_WORDS = {"small": "a little", "medium": "moderately", "large": "a lot"}
N_SAMPLES = 10_000
LEADERS, STAGE_LEADERS = 8, 5  # the stability chart's rows: on stage fewer, so 16 px labels fit their bars
POINT_CHARS = 150
RIVAL_OPTIONS = (*win_rates.RIVAL_SETS, "custom")
TEXT = components.text  # data text into Markdown (helm_core.escape.markdown)


# ----------------------------------------------------------------------------- shared pieces


def _plain_len(markdown: str) -> int:
    return len(markdown.replace("**", "").replace("\\", ""))


def _int_choice(ctx: Ctx, key: str, default: int, options) -> int:
    """An integer widget value from the state: an int from the widget, or the URL's string ("10")."""
    v = ctx.state.get(key, default)
    if isinstance(v, (list, tuple)):
        v = v[0] if len(v) == 1 else default
    try:
        v = int(str(v).strip())
    except ValueError:
        return default
    return v if v in options else default


def _guard(ctx: Ctx) -> View | None:
    """The empty view when the cohort cannot be ranked: fewer than two models, or no accuracy value at all."""
    if len(ctx.models) < 2:
        msg = "A ranking needs at least two models: widen the sidebar's cohort or access filter."
        return View(point=msg, empty=msg, empty_kind="warning")
    base = recipe_ranking(ctx.models, ACCURACY_ONLY, "renormalize")
    if base.coverage.get("accuracy", 0) == 0:
        msg = ("This release has no accuracy values, so there is no ranking to start from. Load a release with "
               "accuracy results (the *Bring Your Own HELM Output* page).")
        return View(point="This release has no accuracy values to rank models by.", empty=msg)
    return None


def _recipe(ctx: Ctx) -> tuple[recipe_controls.RecipeChoice, str | None, View | None]:
    """The recipe in the state, the note on weights the release sets aside, or the view that says why nothing
    can be ranked (the cohort, or the recipe)."""
    choice = recipe_controls.choice_from_state(ctx.state)
    empty = _guard(ctx)
    if empty is not None:
        return choice, None, empty
    if choice.error:
        return choice, None, View(point="These weights cannot make a ranking.", empty=choice.error,
                                  empty_kind="warning")
    ok, note = recipe_controls.release_groups(choice, ranked_groups())
    if not ok:
        return choice, note, View(point="This recipe weighs nothing the release measures.", empty=note,
                                  empty_kind="warning")
    return choice, note, None


def _helm_frame(helm: pd.DataFrame) -> pd.DataFrame:
    """HELM's ranking shaped like recipe_scores (score, rank, flagged, excluded), for the podium and tables."""
    return helm.set_index("model").rename(columns={"value": "score"}).assign(flagged=False, excluded=False)


# ----------------------------------------------------------------------------- slide 1: the recipe podium


def _top_n(ctx: Ctx, shift: pd.DataFrame) -> tuple[int, int]:
    """The N of the slope chart (the control's), and the N shown: on stage at most STAGE_TOP_N, fewer when the
    top N of either side would need more than STAGE_ROWS rows."""
    n = _int_choice(ctx, "n", 10, TOP_N_OPTIONS)
    if not ctx.presenter:
        return n, n
    shown = min(n, STAGE_TOP_N)
    while shown > 3 and len(charts_rankings.slope_rows(shift, shown)) > STAGE_ROWS:
        shown -= 1
    return n, shown


def podium_data(ctx: Ctx):
    """Everything the recipe podium shows: (choice, the recipe ranking, HELM's ranking, HELM vs recipe shift,
    Kendall's tau, the note on set-aside weights), or the view that says why there is nothing to rank."""
    choice, aside, empty = _recipe(ctx)
    if empty is not None:
        return empty
    rr = recipe_ranking(ctx.models, choice.items, choice.missing)
    helm = cohort_ranking(ctx.models)
    helm_ranks = helm.set_index("model")["rank"]
    return choice, rr, helm, ranking.rank_shift(helm_ranks, rr.recipe), ranking.kendall_tau(helm_ranks, rr.recipe), \
        aside


def podium_ask(ctx: Ctx) -> list:
    """Who tops the chosen recipe, and HELM's top three in the recipe's order (the slide's own rankings)."""
    data = podium_data(ctx)
    if isinstance(data, View):
        return []
    choice, rr, helm = data[:3]
    ranked = rr.recipe[~rr.recipe["excluded"]]
    helm_top, recipe_top = helm["model"].head(3).tolist(), list(ranked.index[:3])
    who, key, note = recipe_name(choice), f"podium.{ctx.rel.name}.{choice.label}", (
        f"computed from {ctx.rel.name}: {recipe_name(choice)}, {fmt.count(len(ranked), 'model')} ranked")
    asks = [participation.choice_question(f"{key}.top", f"Which model tops {who}?", helm_top + recipe_top,
                                          recipe_top[0] if recipe_top else None, note=note, page="podium", slide="podium"),
            participation.order_question(f"{key}.order", f"HELM's podium: put its three in order under {who}.",
                                         participation.top_three_ranks(ranked, helm_top), note=note, page="podium",
                                         slide="podium")]
    return [q for q in asks if q is not None]


def _moves(shift: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    up = shift[shift["shift"] > 0].sort_values(["shift", "rank_b"], ascending=[False, True])
    down = shift[shift["shift"] < 0].sort_values(["shift", "rank_b"], ascending=[True, True])
    return up, down


def podium_view(ctx: Ctx) -> View:
    data = podium_data(ctx)
    if isinstance(data, View):
        return data
    choice, rr, helm, shift, tau, aside = data
    rel = TEXT(ctx.rel.name)
    agg = helm.attrs.get("aggregate") or aggregate.MEAN_WIN_RATE
    ranked = rr.recipe[~rr.recipe["excluded"]]
    helm_top = helm["model"].head(3).tolist()
    recipe_top = list(ranked.index[:3])
    moved = int((shift["shift"] != 0).sum())
    n_both = len(shift)
    who = recipe_name(choice)
    Who = who[0].upper() + who[1:]
    moved_text = f"moves {moved} of the {fmt.count(n_both, 'model')}" if moved else "moves no model"
    if recipe_top == helm_top:
        point = f"{Who} (this app's) keeps HELM's podium ({podium_names(helm_top)}) and {moved_text}."
    else:
        point = (f"{Who} (this app's) puts {podium_names(recipe_top)} on the podium; HELM's {agg} has "
                 f"{podium_names(helm_top)}.")
        if _plain_len(point) > POINT_CHARS:
            lost = len([m for m in helm_top if m not in recipe_top])
            swap = ("replaces all of HELM's top three" if lost == 3 else f"replaces {lost} of HELM's top three"
                    if lost else "reorders HELM's top three")
            point = f"{Who} (this app's) {swap} and {moved_text}."
    n, shown = _top_n(ctx, shift)
    label_a = helm_label(ctx, helm)
    label_b = f"This app's recipe: {choice.label}"
    fig = slope_spec(charts_rankings.frame_key(shift), shown, label_a, label_b, ctx.mode)
    sel = charts_rankings.slope_rows(shift, shown)
    tau_text = "not defined" if pd.isna(tau) else fmt.value(tau, 2)
    up, down = _moves(shift)

    def podium_line(frame: pd.DataFrame) -> str:
        return ", ".join(f"#{int(r['rank'])} {TEXT(m)} ({fmt.value(r['score'])})" + (" †" if r["flagged"] else "")
                         for m, r in frame.head(3).iterrows())

    talk = [f"HELM's podium ({TEXT(helm_label(ctx, helm))}): {podium_line(_helm_frame(helm))}.",
            f"{Who} (this app's): {podium_line(ranked)}." if len(ranked) else f"{Who} ranks no model.",
            f"Kendall's tau between HELM's order and the recipe's: {tau_text}; "
            f"{fmt.agree(moved, 'model', 'changes')} place, of {fmt.count(n_both)} ranked in both."]
    if len(up) or len(down):
        talk.append("Moved up most: " + (move_text(*next(up.iterrows())) if len(up) else "nobody")
                    + "; down most: " + (move_text(*next(down.iterrows())) if len(down) else "nobody") + ".")

    notes = [helm_provenance(ctx, helm)]
    if agg == aggregate.MEAN_SCORE:
        notes.append(f"HELM ranks {rel} by its Mean score and publishes no win rates; this app's recipes weight "
                     "per-group win rates, computed here from the release's results.")
    else:
        notes.append("HELM ranks models by head-to-head win rate: in each scenario column, the share of the other "
                     "models a model beats, averaged per metric group (its Mean win rate).")
    notes.append(f"A recipe weights {groups_phrase(ctx)} into one score. Recipes are this app's: HELM publishes "
                 "no overall score across metric groups.")
    notes.append(recipe_controls.kind_caption(rr.kind, len(ctx.models), rel, not ctx.rel.published_win_rates.empty,
                                              aggregate.aggregate_name(ctx.rel)))
    if aside:
        notes.append(aside)
    notes += coverage_notes(ctx, choice, rr)
    if shown < n:
        notes.append(f"On stage the chart shows the top {shown} of either side (the control asks for {n}); the "
                     f"tables below list the top {n}.")
    cards = [Card("Kendall's tau, HELM vs recipe", tau_text,
                  "Rank agreement over the models ranked in both: 1 = same order, 0 = unrelated, −1 = reversed "
                  "(tau-b, ties handled)."),
             Card("Models that change place", f"{fmt.count(moved)} of {fmt.count(n_both)}")]
    data_table = shift.reset_index().astype({"rank_a": int, "rank_b": int, "shift": int}).rename(
        columns={"rank_a": "helm_rank", "rank_b": "recipe_rank"})
    chart = Chart(fig, key="podium_slope",
                  alt=(f"Slope chart of rank changes from {label_a} to {choice.label} (this app's recipe) for the "
                       f"{fmt.count(len(sel), 'model')} in either top {shown}. Kendall's tau {tau_text}. "
                       + "; ".join(f"{m} {int(r.rank_a)}→{int(r.rank_b)}" for m, r in sel.iterrows())),
                  data=data_table, data_name="rank_shift")
    return View(point=point, visual=chart, talk=talk, notes=notes, cards=cards, claims=["no_single_score"],
                read=(f"Left: HELM's order; right: the recipe's. Each side lists the models in the top {shown} of "
                      "either, in its own order, with their ranks; solid green lines moved up, dashed vermillion "
                      "down, dotted grey kept their place. † scored over fewer groups than the recipe weighs. Ties "
                      "share the better rank."))


def recipe_widgets(ctx: Ctx) -> bool:
    """The shared recipe controls (one set of URL-bound keys for both Rankings pages); False when the cohort
    cannot be ranked, so there is nothing to control."""
    if _guard(ctx) is not None:
        return False
    base = recipe_ranking(ctx.models, ACCURACY_ONLY, "renormalize")
    recipe_controls.recipe_controls(base.coverage, len(ctx.models))
    return True


def podium_controls(ctx: Ctx) -> None:
    if not recipe_widgets(ctx):
        return
    state.allow("n", [str(v) for v in TOP_N_OPTIONS])
    # Buttons rather than a select slider: with the weight sliders in a popover, the page's first screen then
    # needs no slider code in the browser.
    st.segmented_control("Top N in the slope chart and tables", TOP_N_OPTIONS, default=10, required=True, key="n",
                         bind="query-params")


def podium_details(ctx: Ctx, view: View, event) -> None:
    """The two podiums, the recipe's weights, the top-N tables, who moved most, and every model's ranking."""
    data = podium_data(ctx)
    if isinstance(data, View):
        return
    choice, rr, helm, shift, _, _ = data
    n = _int_choice(ctx, "n", 10, TOP_N_OPTIONS)
    agg = helm.attrs.get("aggregate") or aggregate.MEAN_WIN_RATE
    hf = _helm_frame(helm)
    left, mid, right = st.columns([1, 1, 1])
    with left:
        recipe_controls.podium(hf, f"HELM's podium · {helm_label(ctx, helm)}", agg)
    with mid:
        recipe_controls.podium(rr.recipe, f"This app's recipe: {choice.label}", "score")
    with right:
        components.chart(
            weights_spec(ctx.models, choice.items, choice.missing), key="podium_weights",
            alt="Current recipe weights: " + ", ".join(f"{GROUP_LABELS[g]} {fmt.share(v, 0)}"
                                                       for g, v in rr.weights.items() if g in GROUP_LABELS),
            data=pd.DataFrame({"metric_group": rr.weights.index, "weight": rr.weights.round(4).to_numpy(),
                               "models_with_value": rr.coverage.reindex(rr.weights.index).fillna(0).astype(int)
                               .to_numpy()}),
            data_name="recipe_weights")
    table_height = None if n <= 15 else 600  # longer top-N tables scroll
    t1, t2 = st.columns(2)
    with t1:
        st.markdown(f"**HELM's top {n}** ({TEXT(helm_label(ctx, helm))})")
        components.table(recipe_controls.ranking_table(hf, n, agg), height=table_height)
    with t2:
        st.markdown(f"**The recipe's top {n}** ({TEXT(choice.label)})")
        components.table(recipe_controls.ranking_table(rr.recipe, n, "score"), height=table_height)
    up, down = _moves(shift)
    c_up, c_down = st.columns(2)
    with c_up:
        st.markdown("**Moved up most**")
        st.markdown("  \n".join(f"▲ {move_text(m, r)}" for m, r in up.head(5).iterrows()) or "nobody")
    with c_down:
        st.markdown("**Moved down most**")
        st.markdown("  \n".join(f"▼ {move_text(m, r)}" for m, r in down.head(5).iterrows()) or "nobody")
    box = components.lazy_expander(f"Every model under {choice.label} ({fmt.count(len(rr.recipe))}), with what each "
                                   "one lacks", key="podium_full")
    if box is not None:
        with box:
            full = recipe_controls.ranking_table(rr.recipe, None, "score", notes=True)
            st.dataframe(full, hide_index=True, width="stretch")
            components.download(full, "recipe_ranking", key="podium_recipe_csv")


# ----------------------------------------------------------------------------- slide 2: robustness


def robustness_view(ctx: Ctx) -> View:
    choice, aside, empty = _recipe(ctx)
    if empty is not None:
        return empty
    weighted = [g for g in choice.weighted if g in ranked_groups()]
    if len(weighted) < 2:
        msg = ("This recipe weighs a single group, so there is nothing to perturb: its podium is that group's "
               "ranking. Pick a recipe with two or more groups to test its stability.")
        return View(point="A recipe with a single group has nothing to perturb.", empty=msg)
    spread = ctx.get("spread", "medium", SPREADS)
    conc = SPREADS[spread]
    stab = recipe_stability(ctx.models, choice.items, choice.missing, N_SAMPLES, conc, 0)
    if stab.empty:
        return View(point="No model can be ranked under this recipe and policy.",
                    empty="No model can be ranked under this recipe and policy.", empty_kind="warning")
    rr = recipe_ranking(ctx.models, choice.items, choice.missing)
    move = typical_weight_move(choice.items, conc)
    v = stability.stability_verdict(stab)
    who = recipe_name(choice)
    samples = fmt.count(N_SAMPLES, "weight sample")
    if v.word == "unchallenged":
        point = f"Only {TEXT(v.leader)} can be ranked under {who}: first place has no contest."
    elif v.word == "a toss-up":
        point = (f"First place under {who} is **a toss-up**: {TEXT(v.leader)} {fmt.share(v.p_first)}, "
                 f"{TEXT(v.runner_up)} {fmt.share(v.p_runner_up)} of {samples}.")
    else:
        point = (f"First place under {who} looks **{v.word}**: {TEXT(v.leader)} is first in "
                 f"{fmt.share(v.p_first)} of {samples} around it.")
    shown = STAGE_LEADERS if ctx.presenter else LEADERS  # rows of the chart: fewer on stage, at 16 px
    leaders = stab[(stab["p_top3"] > 0) | (stab["rank"] <= 3)].sort_values(["p_top3", "p_first"],
                                                                           ascending=False).head(shown)
    kind = rr.kind
    wr = ("The win rates are HELM's published ones" if kind == "published" else
          f"The win rates are recomputed for this cohort ({fmt.count(len(ctx.models), 'model')})"
          if not ctx.rel.published_win_rates.empty else
          "The win rates are computed here from the release's results")
    notes = [f"**A simulation:** {fmt.count(N_SAMPLES)} weight vectors drawn at random around the recipe (Dirichlet, "
             f"concentration {conc:g}: a typical weight moves by about ±{fmt.share(move, 0)} of its value), the "
             f"models ranked under each. {wr}; only the weights are simulated. Seed 0, so the numbers are "
             "reproducible.",
             "The recipe under test is the one of the *Recipe podium* slide (shared with the *Capability vs Cost "
             "Pressure* page); change it here or there."]
    if aside:
        notes.append(aside)
    talk = [stability_sentence(v, stab),
            "Top three by share of podium places: " + ", ".join(
                f"{TEXT(m)} {fmt.share(r.p_top3)}" for m, r in leaders.head(3).iterrows()) + ".",
            f"Weights wander {SPREAD_WORDS[spread]}: a typical weight moves by ±{fmt.share(move, 0)} of its value."]
    chart = Chart(stability_spec(charts_rankings.frame_key(leaders), shown, ctx.mode),
                  key="podium_stability",
                  alt=("Podium stability: " + "; ".join(f"{m} first in {fmt.share(r.p_first)}, top 3 in "
                                                        f"{fmt.share(r.p_top3)}" for m, r in leaders.iterrows())),
                  data=stab.reset_index().round(4), data_name="podium_stability")
    return View(point=point, visual=chart, talk=talk, notes=notes,
                read="Per model: the share of weight samples in which it is first (solid bar) and on the podium "
                     "(hatched bar).")


def robustness_controls(ctx: Ctx) -> None:
    if not recipe_widgets(ctx):
        return
    state.allow("spread", list(SPREADS))
    st.radio("How far the weights wander", list(SPREADS), index=1, key="spread", bind="query-params",
             horizontal=True, captions=list(SPREAD_WORDS.values()))


# ----------------------------------------------------------------------------- slide 3: the paper's podium


def _paper_on_route(ctx: Ctx) -> bool:
    return not ctx.rel.is_later and not paper_podium_check(None).empty


def paper_view(ctx: Ctx) -> View:
    rel = TEXT(ctx.rel.name)
    if len(ctx.models) < 2:
        return _guard(ctx)
    if ctx.rel.is_later:
        msg = (f"The paper's podium was measured on HELM classic's core scenarios; {rel} is a later leaderboard with "
               "its own scenarios and prompts, so the claim is checked on classic only.")
        return View(point=f"The 2022 paper's podium is checked on HELM classic, not on {rel}.", empty=msg,
                    claims=["top_accuracy"], notes=[dominance_sentence(dominance_check(ctx.models), rel)],
                    links=[Link("The paper's podium on HELM classic v0.4.0", "podium",
                                {"release": "classic", "podium_section": "Paper podium"}, ":material/history:")])
    check = paper_podium_check(None)
    dominance_line = dominance_sentence(dominance_check(ctx.models), rel)
    if check.empty:
        msg = f"{rel} does not include the paper's podium models, so the claim cannot be checked here."
        return View(point=msg, empty=msg, claims=["top_accuracy"], notes=[dominance_line])
    full = cohort_ranking(None)
    n_all = int(check["n"].iloc[0])
    cohort_n = int(check["cohort_n"].iloc[0])
    names = fmt.names([TEXT(m) for m in check["model"]])
    ranks_all = fmt.names([f"#{int(r)}" for r in check["rank"]])
    same = bool((check["cohort_rank"].to_numpy() == check["paper_place"].to_numpy()).all()) and cohort_n > 1
    k = len(check)
    three = ("the three rank" if k == 3 else f"the {fmt.count(k)} of them here rank" if k > 1 else
             f"{TEXT(check['model'].iloc[0])}, the one here, ranks")
    if same:
        point = (f"The 2022 paper's podium holds among its own {fmt.count(cohort_n, 'model')}; among all "
                 f"{fmt.count(n_all)} of {rel} {three} {ranks_all}.")
    else:
        point = (f"Recomputed from {rel}, the paper's podium does not hold even among its "
                 f"{fmt.count(cohort_n, 'model')}; among all {fmt.count(n_all)} {three} {ranks_all}.")
    kind = "published" if full.attrs.get("kind") == "published" else "recomputed"
    leaders = ", ".join(f"#{int(r['rank'])} {TEXT(r['model'])} ({fmt.value(r['value'])})"
                        for _, r in full.head(3).iterrows())
    talk = [f"**Among all {n_all} models of {rel}** ({kind} accuracy win rates) the podium is {leaders}. The "
            "paper's three stand at " + ", ".join(f"#{int(r['rank'])} {TEXT(r['model'])} ({fmt.value(r['win_rate'])})"
                                                   for _, r in check.iterrows()) + "."]
    if cohort_n > 1:
        talk.append(f"**Among the paper's {cohort_n}-model cohort**, recomputed from {rel}'s numbers: "
                    + ", ".join(f"#{int(r['cohort_rank'])} {TEXT(r['model'])} ({fmt.value(r['cohort_win_rate'])})"
                                for _, r in check.iterrows()) + ".")
    talk.append("So the data agrees with the paper **within its own cohort**, and disagrees once newer models join: "
                "the podium depends on who is in the field, not only on the recipe." if same else
                "The data does **not** reproduce the paper's order, even within its cohort: the v0.4.0 numbers were "
                "recomputed after the paper.")
    data = check.rename(columns={"win_rate": "win_rate_all", "rank": "rank_all", "n": "n_all"})
    chart = Chart(paper_podium_spec(ctx.mode), key="podium_paper",
                  alt=(f"The 2022 paper's accuracy podium ({names}) against {ctx.rel.name}: "
                       + "; ".join(f"{r.model}: paper #{int(r.paper_place)}, #{int(r.cohort_rank)} of {cohort_n} in "
                                   f"the paper's cohort, #{int(r['rank'])} of {n_all} overall"
                                   for _, r in check.iterrows())),
                  data=data, data_name="paper_podium")
    return View(point=point, visual=chart, talk=talk, claims=["top_accuracy"],
                notes=[dominance_line],
                read="Per model of the paper's three: its place in the paper (a claim, purple diamond), its rank "
                     "among the paper's cohort recomputed from this release (open circle) and among every model of "
                     "the release (filled circle). Further left is better.")


# ----------------------------------------------------------------------------- slide 4: the field of rivals


def _rivals(ctx: Ctx):
    """(accuracy order, target, its rival sets, which set, the rivals removed)."""
    base = recipe_ranking(ctx.models, ACCURACY_ONLY, "renormalize")
    order = [m for m in base.accuracy.index if m in set(ctx.models)]
    # The paper's leader against the newcomers when the cohort has any; otherwise a model from mid-table.
    default = order[len(order) // 2]
    if "text-davinci-002" in order and rival_sets(ctx.models, "text-davinci-002")["newer"]:
        default = "text-davinci-002"
    target = ctx.get("podium_ms_model", default, order)
    sets = rival_sets(ctx.models, target)
    which = ctx.get("podium_ms_which", default_set(ctx, sets), RIVAL_OPTIONS)
    if which == "custom":
        picked = ctx.get("podium_ms_custom", [], lambda v: isinstance(v, (list, tuple)))
        removed = [m for m in picked if m in set(order) and m != target]
    else:
        removed = sets[which]
    return order, target, sets, which, removed


def default_set(ctx: Ctx, sets: dict[str, list[str]]) -> str:
    """The rival set a slide opens on: the first that removes someone and leaves a field of at least two; "newer"
    (than the 2022 paper) only on classic, where it splits the field (on a later release nearly every model is)."""
    n = len(ctx.models)
    keys = [k for k in win_rates.RIVAL_SETS if k != "newer" or not ctx.rel.is_later]
    return next((k for k in keys if 0 < len(sets[k]) < n - 1), next((k for k in keys if sets[k]), "custom"))


def rivals_view(ctx: Ctx) -> View:
    empty = _guard(ctx)
    if empty is not None:
        return empty
    order, target, sets, which, removed = _rivals(ctx)
    models = tuple(ctx.models)
    n = len(models)
    rows = []

    def add(label: str, gone: list[str], chosen: bool, key: str) -> None:
        eff = model_set_effect(models, target, tuple(sorted(gone)), groups=("accuracy",)).iloc[0]
        rows.append({"field": key, "label": label, "removed": len(gone), "win_rate": eff["win_rate_without"],
                     "rank": eff["rank_without"], "n": eff["n_without"], "chosen": chosen})

    add(f"against all {fmt.count(n, 'model')}", [], False, "all")
    for k, desc in win_rates.RIVAL_SETS.items():
        if sets[k]:
            add(f"without the {fmt.count(len(sets[k]), SET_WORDS[k] + ' rival')}" + ("" if ctx.phone else f" ({desc})"),
                sets[k], which == k, k)
    if which == "custom" and removed:
        add(f"without your {fmt.count(len(removed), 'picked rival')}", removed, True, "custom")
    bars = pd.DataFrame(rows)
    full, chosen = bars.iloc[0], bars[bars["chosen"]]
    tgt = TEXT(target)
    if not removed:
        point = (f"{tgt}'s accuracy win rate is {fmt.value(full['win_rate'])} against all {fmt.count(n, 'model')}; "
                 "pick rivals to remove and see it change with the field.")
    elif chosen.empty or pd.isna(chosen.iloc[0]["win_rate"]):
        point = (f"Without {'this rival' if len(removed) == 1 else f'these {fmt.count(len(removed))} rivals'} fewer "
                 f"than two models are left: {tgt} has no win rate at all.")
    else:
        c = chosen.iloc[0]
        point = (f"{tgt}'s accuracy win rate: {fmt.value(full['win_rate'])} against all {fmt.count(n, 'model')}, "
                 f"{fmt.value(c['win_rate'])} without the {fmt.count(len(removed), SET_WORDS[which] + ' rival')}: same "
                 "scores, another field.")
    talk = [f"{r.label[0].upper() + r.label[1:]}: "
            + ("no win rate (fewer than two models)" if pd.isna(r.win_rate) else
               f"{fmt.value(r.win_rate)} (#{int(r.rank)} of {int(r.n)})") for r in bars.itertuples()][:4]
    if removed and not chosen.empty and pd.notna(chosen.iloc[0]["win_rate"]):
        talk.append(f"{tgt}'s scores did not change; only the field did.")
    notes = ["A win rate counts the rivals a model beats, so the same scores give a different win rate against a "
             "different field. A HELM user asked exactly this: how choosing a subset of models affects the win rate "
             "([stanford-crfm/helm#2849](https://github.com/stanford-crfm/helm/issues/2849)).",
             "Every bar is recomputed among the models compared (like with like), so the full-field value can "
             "differ slightly from HELM's published one: the inputs are rounded to 3 decimals."]
    if aggregate.aggregate_name(ctx.rel) == aggregate.MEAN_SCORE:
        notes.append(f"HELM ranks {TEXT(ctx.rel.name)} by its Mean score, which does not depend on the field: a "
                     "model's mean is the same whoever else is measured. The win rates this app's recipes use do.")
    chart = Chart(rival_spec(charts_rankings.frame_key(bars, index=False), target, ctx.mode),
                  key="podium_rivals",
                  alt=(f"{target}'s accuracy win rate against each field: "
                       + "; ".join(f"{r.label}: " + ("none" if pd.isna(r.win_rate) else
                                                     f"{fmt.value(r.win_rate)} (#{int(r.rank)} of {int(r.n)})")
                                   for r in bars.itertuples())),
                  data=bars.drop(columns="chosen").round(4), data_name="win_rate_by_field")
    return View(point=point, visual=chart, talk=talk, notes=notes,
                read="One bar per field of rivals: the model's accuracy win rate against it, with its rank; the "
                     "highlighted bar is the field picked below.")


def rivals_controls(ctx: Ctx) -> None:
    if _guard(ctx) is not None:
        return
    order, target, sets, which, _ = _rivals(ctx)
    c1, c2 = st.columns([2, 3])
    c1.selectbox("Model", order, index=order.index(target), key="podium_ms_model")
    target = st.session_state.get("podium_ms_model", target)
    sets = rival_sets(ctx.models, target)
    captions = [f"{win_rates.RIVAL_SETS[k]} ({len(sets[k])})" for k in win_rates.RIVAL_SETS] + ["pick them yourself"]
    first = RIVAL_OPTIONS.index(default_set(ctx, sets))
    c2.radio("Remove", RIVAL_OPTIONS, index=first, key="podium_ms_which", horizontal=True, captions=captions)
    if st.session_state.get("podium_ms_which") == "custom":
        st.multiselect("Rivals to remove", [m for m in order if m != target], key="podium_ms_custom")


def rivals_details(ctx: Ctx, view: View, event) -> None:
    """Every group's win rate of the model, with and without the chosen rivals."""
    if _guard(ctx) is not None:
        return
    _, target, _, _, removed = _rivals(ctx)
    if not removed:
        st.info("No rivals to remove with this choice in the current cohort: pick another set.")
        return
    eff = model_set_effect(tuple(ctx.models), target, tuple(sorted(removed)))
    st.markdown(f"**Every group's win rate of {TEXT(target)}, with and without the "
                f"{fmt.count(len(removed), 'removed rival')}**")
    components.chart(
        charts_rankings.model_set_chart(eff, target), key="podium_model_set",
        alt=(f"{target}'s win rates against all {fmt.count(len(ctx.models), 'model')} and without "
             f"{fmt.count(len(removed), 'rival')}: "
             + "; ".join(f"{GROUP_LABELS[r.metric_group]} {fmt.value(r.win_rate_with)} → "
                         f"{fmt.value(r.win_rate_without)}" for r in eff.itertuples() if pd.notna(r.win_rate_with))),
        data=eff.round(4), data_name="model_set_effect")


# ----------------------------------------------------------------------------- the deck


def _slides(ctx: Ctx) -> list[Slide]:
    return [
        Slide("podium", "Recipe podium", view=podium_view, ask=podium_ask, controls=podium_controls, details=podium_details,
              fragment=True),
        Slide("robustness", "Robustness", view=robustness_view, controls=robustness_controls, fragment=True),
        Slide("paper", "Paper podium", view=paper_view, on_route=_paper_on_route(ctx)),
        Slide("rivals", "Field of rivals", view=rivals_view, controls=rivals_controls, details=rivals_details,
              fragment=True),
    ]


DECK = slides.Deck("podium", _slides, keep=[*recipe_controls.QUERY_KEYS, "n", "spread"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
