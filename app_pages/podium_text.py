"""The Podium page's sentences: what a recipe, HELM's own ranking, the robustness check and the Pareto check say,
computed from the data they describe (app_pages/podium.py declares the slides that show them)."""
from __future__ import annotations

import pandas as pd

from helm_core import aggregate, dominance, fmt, ranking, stability
from helm_core.data import GROUP_LABELS
from ui import cache, components, recipe_controls
from ui.slides import Ctx

TEXT = components.text  # data text into Markdown (helm_core.escape.markdown)
dominance_check = cache.on_release(dominance.dominance_check)
ranked_groups = cache.on_release(ranking.ranked_groups)


def recipe_name(choice: recipe_controls.RecipeChoice) -> str:
    """The recipe's name as the slides say it: "the Holistic recipe", "custom weights"."""
    return "custom weights" if choice.name == "custom" else f"the {choice.label} recipe"


def helm_label(ctx: Ctx, helm: pd.DataFrame, *, short: bool = False) -> str:
    """What HELM's column is: its aggregate, published or recomputed for the cohort (or computed by HELM's rule
    where the data publishes none). Plain text (for a chart) unless escaped by the caller."""
    agg = helm.attrs.get("aggregate") or aggregate.MEAN_WIN_RATE
    if helm.attrs.get("kind") == "published":
        return f"HELM's {agg}" + ("" if short else " (published)")
    if helm.attrs.get("published"):
        return f"HELM's {agg}" + ("" if short else f", recomputed for these {fmt.count(len(helm), 'model')}")
    return f"{agg} by HELM's rule" + ("" if short else ", computed here")


def helm_provenance(ctx: Ctx, helm: pd.DataFrame) -> str:
    """Where HELM's podium comes from, for the sources (Markdown)."""
    agg = helm.attrs.get("aggregate") or aggregate.MEAN_WIN_RATE
    rel = TEXT(ctx.rel.name)
    what = ("the mean of a model's scores over the release's scenarios" if agg == aggregate.MEAN_SCORE else
            "per scenario column the share of the other models a model beats, averaged over the columns")
    if helm.attrs.get("kind") == "published":
        return (f"HELM's podium: the {agg} HELM publishes for {rel} ({what}), for all "
                f"{fmt.count(len(helm), 'model')}.")
    if helm.attrs.get("published"):
        return (f"HELM publishes its {agg} for every model of {rel}; for this cohort's "
                f"{fmt.count(len(helm), 'model')} it is recomputed here from the release's results by HELM's rule "
                f"({what}), so HELM's column is labelled as recomputed.")
    return (f"{rel} publishes no {agg} of its own: HELM's column is computed here from its results by HELM's rule "
            f"({what}), HELM's default aggregate.")


def podium_names(names: list[str]) -> str:
    return fmt.names([TEXT(m) for m in names])


def move_text(m: str, r) -> str:
    sign = "+" if r["shift"] > 0 else "−"
    return f"{TEXT(m)} #{int(r['rank_a'])} → #{int(r['rank_b'])} ({sign}{abs(int(r['shift']))})"


def groups_phrase(ctx: Ctx) -> str:
    """The groups a recipe weighs on this release, said as they are: "the seven groups (… has win rates in 2 of
    them: …)", or a later release's own groups."""
    rel = TEXT(ctx.rel.name)
    groups = ranked_groups()
    held = dominance_check(ctx.models).measured
    if len(groups) == 7 and len(held) == 7:
        return "the seven metric groups"
    if len(groups) == 7:
        return (f"the seven metric groups ({rel} has win rates in {fmt.count(len(held))} of them: "
                + (fmt.names([GROUP_LABELS[g].lower() for g in held]) or "none")
                + "; a weight on another group finds no value)")
    return (f"the {fmt.count(len(groups), 'group')} {rel} measures ("
            + fmt.names([GROUP_LABELS[g].lower() for g in groups]) + ")")


def coverage_notes(ctx: Ctx, choice: recipe_controls.RecipeChoice, rr: ranking.RecipeRanking) -> list[str]:
    rel = TEXT(ctx.rel.name)
    groups = ranked_groups()
    weighted = [g for g in choice.weighted if g in groups]
    out = []
    absent = [GROUP_LABELS[g] for g in weighted if rr.coverage.get(g, 0) == 0]
    if absent:
        out.append(f"No model in this cohort has a win rate for {fmt.names(absent)} in {rel} (a win rate needs at "
                   "least two models measured on the same column); "
                   + ("the scores are renormalised over the other weighted groups."
                      if choice.missing == "renormalize" else "with 'exclude', every model drops out."))
    flagged = rr.recipe[rr.recipe["flagged"]]
    ranked = rr.recipe[~rr.recipe["excluded"]]
    total = len(rr.recipe)
    if flagged.empty and not rr.recipe["excluded"].any():
        out.append(f"Every one of the {fmt.count(total, 'model')} has a value for every weighted group."
                   if total > 1 else "The model has a value for every weighted group.")
    elif choice.missing == "renormalize":
        k = int(ranked.head(10)["flagged"].sum())
        out.append(f"**{fmt.count(len(flagged))} of {fmt.count(total, 'model')}** "
                   f"{fmt.verb_form(len(flagged), 'lacks')} a value for at least one weighted group and "
                   f"{fmt.verb_form(len(flagged), 'is')} scored over the groups {fmt.pronoun(len(flagged), True)} "
                   f"{fmt.verb_form(len(flagged), 'has')} (marked †); in the recipe's top 10, **{fmt.count(k)}** "
                   f"{fmt.verb_form(k, 'is')}. A model with no efficiency value cannot lose on efficiency: switch "
                   "to *exclude* to rank only models with every weighted group.")
    else:
        x = int(rr.recipe["excluded"].sum())
        out.append(f"**{fmt.count(x)} of {fmt.count(total, 'model')}** {fmt.verb_form(x, 'lacks')} a value for at "
                   f"least one weighted group and {fmt.verb_form(x, 'is')} left out; **{fmt.count(len(ranked))}** "
                   f"{fmt.verb_form(len(ranked), 'is')} ranked, in both columns: HELM's ranks and the moves count "
                   "the same models.")
    gaps = [(GROUP_LABELS[g], len(ctx.models) - int(rr.coverage.get(g, 0))) for g in weighted]
    gaps = [f"{lab} ({fmt.count(k)})" for lab, k in gaps if k > 0]
    if gaps:
        out.append("Models without a value, per weighted group: " + ", ".join(gaps) + ".")
    return out


def stability_sentence(v: stability.StabilityVerdict, stab: pd.DataFrame) -> str:
    """The verdict on first place (helm_core.ranking.stability_word), with the numbers it rests on."""
    leader = TEXT(v.leader)
    if v.word == "unchallenged":
        return f"Only {leader} can be ranked under this recipe, so it is first in every sample: there is no contest."
    runner = TEXT(v.runner_up)
    numbers = (f"{leader} is first in {fmt.share(v.p_first)} of the samples, {runner} in {fmt.share(v.p_runner_up)}; "
               f"by chance alone, each of the {fmt.count(v.n_models, 'model')} ranked would be first in "
               f"{fmt.share(v.chance)}.")
    head = ("First place is **a toss-up**: " if v.word == "a toss-up" else f"First place looks **{v.word}**: ")
    if v.n_models <= 3:
        tail = (f" With {fmt.count(v.n_models, 'model')} ranked, every one of them is in the top three in every "
                "sample, so only first place tells anything.")
    else:
        k = int((stab["p_top3"] > 0.05).sum())
        tail = f" {fmt.agree(k, 'model', 'reaches')} the top three in more than 5% of them."
    return head + numbers + tail


def dominance_sentence(d: dominance.DominanceCheck, rel_name: str) -> str:
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
                + f" and {fmt.verb_form(len(fewer), 'is')} left out of this check.")
    if n_full < 2:
        return intro + " fewer than two remain, so no model can dominate another." + rest
    k = int(d.nondominated.sum())
    return (intro + f" **{fmt.count(k)}** {fmt.plural(k, 'is')} not dominated by any other (no model is at least as "
            "good in every group and better in one)."
            + (" Without a recipe, most of them could claim a podium." if k > n_full / 2 else "") + rest)


SET_WORDS = {"newer": "newer", "stronger": "stronger", "weaker": "weaker", "custom": "picked"}
