"""The recipe picker and weight sliders, shared by the Podium and Capability vs Cost pages.

Both pages bind the same widget keys to the URL (`recipe`, `missing`, `w_accuracy` … `w_efficiency`), so a
recipe chosen on one page is there on the other (Streamlit keeps a bound widget's value under its key across
a page switch) and a shared link carries it. Rules:
  - picking a built-in recipe sets the sliders to its weights;
  - moving a slider makes the recipe "custom";
  - a link whose weights disagree with its built-in recipe opens as custom with the link's weights.
Slider defaults are 0, so a link only carries the groups a recipe uses.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from helm_core import fmt, ranking
from helm_core.data import GROUP_LABELS

from . import components, state

RECIPE_KEY = "recipe"
MISSING_KEY = "missing"
W_MAX = 5
RECIPE_OPTIONS: tuple[str, ...] = tuple(ranking.RECIPES) + ("custom",)
RECIPE_CAPTIONS = {
    "holistic": "equal weights",
    "accuracy": "accuracy only",
    "efficiency": "efficiency ×3",
    "safety": "bias, toxicity ×3",
    "custom": "your sliders",
}
MISSING_CAPTIONS = {
    "renormalize": "score it over the groups it has (flagged)",
    "exclude": "leave it out (flagged)",
}
WEIGHT_KEYS: dict[str, str] = {g: f"w_{g}" for g in ranking.RECIPE_GROUPS}
QUERY_KEYS: tuple[str, ...] = (RECIPE_KEY, MISSING_KEY, *WEIGHT_KEYS.values())  # every key the controls bind
_PENDING = "_recipe_pending"
_RESTORED = "_recipe_restored"


@dataclass(frozen=True)
class RecipeChoice:
    name: str  # a RECIPE_OPTIONS token
    missing: str  # a ranking.MISSING_POLICIES token
    raw: dict[str, int]  # slider values per group
    items: tuple[tuple[str, float], ...] | None  # hashable weights for cached calls; None when invalid
    error: str | None

    @property
    def weighted(self) -> list[str]:
        """The groups this recipe gives a weight above 0, in slider order."""
        return [g for g, v in self.raw.items() if v > 0]

    @property
    def label(self) -> str:
        return ranking.RECIPES[self.name].label if self.name in ranking.RECIPES else "Custom weights"


def builtin_weights(name: str) -> dict[str, int]:
    return {g: int(round(v)) for g, v in ranking.RECIPES[name].weights}


def _to_custom() -> None:
    st.session_state[RECIPE_KEY] = "custom"


def _weight_token(v: str) -> bool:
    return v.isdigit() and 0 <= int(v) <= W_MAX


def recipe_controls(coverage: pd.Series | None = None, n_models: int | None = None) -> RecipeChoice:
    """Draw the recipe picker, the missing-group policy and the weight sliders; return the choice.
    Call it inside the page's fragment, once per run.

    The sliders sit in a popover under the recipe picker. They are built on every run (bound to the URL, checked
    against a link), but the browser draws a popover's content only once it is opened, so a page load does not
    pay for seven sliders nobody has asked for yet (Chromium, bench/: about 0.05 of the reference page's time on
    Capability vs Cost)."""
    pending = st.session_state.pop(_PENDING, None)
    if pending:
        st.session_state[RECIPE_KEY] = "custom"
        state.notice(pending)

    # Tell the browser both radios' values on every run, the first run from a link included. A value the URL
    # binding alone seeds stays unknown to the browser, which sends its default back on the next page switch
    # (Streamlit 1.67: a link to /podium with a custom recipe, then straight to Capability vs Cost, lost the
    # recipe). Writing through session state is what the weights below do too; index=0 keeps Streamlit quiet.
    url_recipe = state.allow("recipe", RECIPE_OPTIONS)  # literal keys, so tests/app/test_query_fuzz.py finds them
    url_missing = state.allow("missing", ranking.MISSING_POLICIES)
    st.session_state[RECIPE_KEY] = st.session_state.get(RECIPE_KEY, url_recipe or RECIPE_OPTIONS[0])
    st.session_state[MISSING_KEY] = st.session_state.get(MISSING_KEY, url_missing or ranking.MISSING_POLICIES[0])

    cols = st.columns([3, 2])
    name = cols[0].radio(
        "Recipe", RECIPE_OPTIONS, index=0, key=RECIPE_KEY, bind="query-params", horizontal=True,
        captions=[RECIPE_CAPTIONS[o] for o in RECIPE_OPTIONS],
        help="A recipe is a weight per metric group, applied to each model's mean win rate in that group. "
             "HELM itself publishes no overall score; these recipes are this app's.",
    )
    missing = cols[1].radio(
        "A model with no value for a weighted group:", ranking.MISSING_POLICIES, index=0, key=MISSING_KEY,
        bind="query-params", horizontal=True, captions=[MISSING_CAPTIONS[o] for o in ranking.MISSING_POLICIES],
        help="Never scored as zero. 'renormalize' rescales the recipe over the groups the model has; "
             "'exclude' leaves it out of the ranking. Either way it is flagged.",
    )

    # Write every weight through session state on every run: a built-in recipe sets its weights, a custom recipe
    # keeps the current ones. A programmatic set makes Streamlit sync the bound value into the URL, so a shared
    # link always carries every non-zero weight (the frontend alone writes only the slider a visitor moved).
    target = builtin_weights(name) if name in ranking.RECIPES else None
    for g, k in WEIGHT_KEYS.items():
        current = st.session_state.get(k)
        st.session_state[k] = target[g] if target is not None else (current if isinstance(current, int) else 0)

    raw: dict[str, int] = {}
    weights_box = cols[0].popover("Adjust weights", icon=":material/tune:",
                                  help="One slider per metric group, 0 to 5. 0 leaves a group out; moving a slider "
                                       "makes the recipe custom.")
    with weights_box:
        grid = st.columns(2)
        for i, (g, k) in enumerate(WEIGHT_KEYS.items()):
            state.allow(k, _weight_token)
            help_text = None
            if coverage is not None and n_models:
                help_text = f"{fmt.count(int(coverage.get(g, 0)))} of {fmt.count(n_models)} models have a {GROUP_LABELS[g].lower()} win rate."
            raw[g] = int(grid[i % 2].slider(
                GROUP_LABELS[g], min_value=0, max_value=W_MAX, step=1, key=k, bind="query-params",
                on_change=_to_custom, help=help_text,
            ))

    if target is not None and not any(raw.values()) and not st.session_state.get(_RESTORED):
        # A built-in recipe with no weight at all is no hand-made link: the browser's Back or Forward to a page whose
        # address carries no weights resets the bound sliders to 0. The recipe's own weights, once.
        st.session_state[_RESTORED] = True
        st.rerun()
    st.session_state.pop(_RESTORED, None)
    if target is not None and raw != target:
        # Only a hand-made link gets here (the link's weights win, as custom weights).
        st.session_state[_PENDING] = (f"The link's weights differ from the '{name}' recipe, "
                                      "so they are shown as custom weights.")
        st.rerun()

    return _choice(name, missing, raw)


def _choice(name: str, missing: str, raw: dict[str, int]) -> RecipeChoice:
    try:
        ranking.normalize_weights(raw)
    except ValueError as exc:
        return RecipeChoice(name, missing, raw, None, f"These weights cannot make a ranking: {exc}. "
                                                      "Move at least one slider above 0.")
    return RecipeChoice(name, missing, raw, tuple((g, float(v)) for g, v in raw.items()), None)


def _one(value: Any) -> Any:
    """A state value as one value: a URL's repeated key arrives as a list or tuple; its first value counts."""
    if isinstance(value, (list, tuple)):
        return value[0] if len(value) == 1 else None
    return value


def _weight(value: Any) -> int | None:
    """A slider's value from a state: an int from a widget, or the URL's string ("3"); None when invalid."""
    v = _one(value)
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, np.integer)):
        return int(v) if 0 <= v <= W_MAX else None
    if isinstance(v, str) and _weight_token(v.strip()):
        return int(v.strip())
    return None


def choice_from_state(state: Mapping[str, Any]) -> RecipeChoice:
    """The recipe a state holds, without drawing a widget: a page run's session state, a presenter's query
    relayed to the speaker view (strings: "3", not 3), or {} (the handout: the default recipe). The same rules as
    the widgets: a built-in recipe brings its weights; weights that differ from it make the recipe custom, with
    them over the built-in ones; a custom recipe's unset weights are 0; invalid values fall back to defaults."""
    name = _one(state.get(RECIPE_KEY))
    name = name if name in RECIPE_OPTIONS else RECIPE_OPTIONS[0]
    missing = _one(state.get(MISSING_KEY))
    missing = missing if missing in ranking.MISSING_POLICIES else ranking.MISSING_POLICIES[0]
    given = {g: w for g, k in WEIGHT_KEYS.items() if (w := _weight(state.get(k))) is not None}
    if name in ranking.RECIPES:
        target = builtin_weights(name)
        raw = {**target, **given}
        if raw != target:
            name = "custom"
    else:
        raw = {g: given.get(g, 0) for g in WEIGHT_KEYS}
    return _choice(name, missing, raw)


def release_groups(choice: RecipeChoice, ranked: tuple[str, ...]) -> tuple[bool, str | None]:
    """On a release that measures only some of the seven groups (HELM Lite, Capabilities): whether the recipe
    weighs any group the release ranks on, and the sentence that says which weights are set aside (None when
    none is). Pure: the slide shows the sentence as a caveat, or as its empty message when nothing is left."""
    aside = [g for g in choice.weighted if g not in ranked]
    if not aside:
        return True, None
    kept = [g for g in choice.weighted if g in ranked]
    names = fmt.names([GROUP_LABELS[g].lower() for g in aside])
    measured = fmt.names([GROUP_LABELS[g].lower() for g in ranked])
    if not kept:
        return False, (f"This recipe weighs only {names}, which the release does not measure. Give "
                       + " or ".join(GROUP_LABELS[g].lower() for g in ranked) + " a weight to rank its models.")
    return True, (f"The release measures {measured} only: the ranking uses "
                  f"{' and '.join(GROUP_LABELS[g].lower() for g in kept)}, and the weights on {names} are set "
                  f"aside (no model here can have {fmt.pronoun(len(aside))}).")


def kind_caption(kind: str, n_models: int, release_name: str, published: bool = True,
                 aggregate: str | None = None) -> str:
    """Say which group win rates a page shows (DESIGN.md §4): HELM's published ones, or recomputed among the
    cohort, and whether the release publishes win rates at all (`published`; `aggregate` names what it publishes
    instead, e.g. Capabilities' "Mean score"). `release_name` is Markdown-escaped text."""
    if kind == "published":
        return f"Win rates shown: HELM's published group win rates ({release_name}, all {fmt.count(n_models, 'model')})."
    among = f"among the {fmt.count(n_models, 'model')} of this cohort" if n_models > 1 else "for the one model"
    if not published:
        why = (f"HELM publishes a {aggregate} for this release, no win rates" if aggregate
               else "the data publishes no win rates of its own")
        return f"Win rates shown: computed by this app from {release_name}'s results {among}, by HELM's rule ({why})."
    return (f"Win rates shown: recomputed from {release_name}'s results {among} (a model's win rate depends "
            "on who it is compared with; HELM's published values cover the release's full model set).")


def podium(scores: pd.DataFrame, title: str, value_label: str) -> None:
    """The first three rows of a recipe_scores frame as a podium (flagged models marked †)."""
    st.markdown(f"**{components.text(title)}**")
    ranked = scores[~scores["excluded"]]
    if ranked.empty:
        st.info("No model can be ranked under this recipe.")
        return
    lines = []
    for model, r in ranked.head(3).iterrows():
        mark = " †" if r["flagged"] else ""
        lines.append(f"**#{int(r['rank'])} {components.text(model)}**{mark} · {value_label} {fmt.value(r['score'])}")
    with st.container(border=True):
        st.markdown("  \n".join(lines))


def ranking_table(scores: pd.DataFrame, n: int | None, value_label: str, *, notes: bool = False) -> pd.DataFrame:
    """The top n rows (all with None) of a recipe_scores frame, as a table;
    flagged models get a † after the name, and `notes` adds what each one lacks (or why it is excluded)."""
    rows = scores if notes else scores[~scores["excluded"]]
    if n is not None:
        rows = rows.head(n)
    out = pd.DataFrame({
        "rank": rows["rank"].astype("Int64").to_numpy(),
        value_label: rows["score"].round(3).to_numpy(),
        "model": [m + (" †" if f else "") for m, f in zip(rows.index, rows["flagged"])],
    })
    if notes:
        out["note"] = [
            ("excluded: no " + m) if x else (f"no {m}: scored over {int(k)} groups" if m else "")
            for m, k, x in zip(rows["missing_groups"], rows["n_groups"], rows["excluded"])
        ]
    return out
