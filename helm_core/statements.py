"""Sentences that carry their scope: what a slide may say about the loaded release and cohort, and only that.

A `Statement` is a sentence and the `Scope` it is true of. A sentence computed from the loaded release is true of
that view (its scope is the view's); a sentence written once for one release or cohort (the 2022 paper's three
seeds, say) carries that scope, and `Statement.render(view)` shows it only there, or elsewhere prefixed with what it
is true of ("In HELM classic's 2022 paper cohort, …"), or not at all (`elsewhere="hide"`).

The functions below write the recurring sentences of the app from the data (helm_core.release_facts): each returns
a Statement for the view, or None where the sentence has nothing true to say (no OpenAI rows, no toxicity cells, no
limited-functionality model in the cohort, a zero-shot release). Words that describe data (every, all but, most,
newer, none) are computed here, never written into a page.

Pure; no Streamlit. Texts are plain text: escape them for their destination (helm_core.escape).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
import pandas as pd

from . import fmt
from .coverage import coverage_matrix
from .data import Release
from .release_facts import (ReleaseFacts, organization_models, rank_correlation, release_facts,
                            scenarios_by_model)

COHORT_WORDS = {"paper": "the 2022 paper's cohort", "all": "every model of the release"}
# First words a prefix ("In HELM classic's 2022 paper cohort, …") may lower-case; anything else (a name) stays.
_COMMON_FIRST = {"a", "all", "an", "each", "every", "in", "no", "none", "of", "one", "the", "these", "this", "within",
                 "zero-shot", "models", "seeds", "efficiency", "toxicity", "openai's", "release", "most", "only"}


@dataclass(frozen=True)
class Scope:
    """What a sentence is true of: a bundled release ("classic", "lite", "capabilities"; "" = a loaded suite) and
    a cohort ("paper", "all"; "" = any cohort of it), with `label`, the words for a prefix."""

    release_id: str
    cohort: str = ""
    label: str = ""

    def covers(self, view: "Scope") -> bool:
        """True when a sentence true of this scope is true in `view`."""
        return self.release_id == view.release_id and (not self.cohort or self.cohort == view.cohort)


PAPER_COHORT = Scope("classic", "paper", "HELM classic's 2022 paper cohort")
CLASSIC = Scope("classic", "", "HELM classic v0.4.0")
LITE = Scope("lite", "", "HELM Lite v1.13.0")
CAPABILITIES = Scope("capabilities", "", "HELM Capabilities v1.15.0")


def view_scope(release: Release, cohort: str = "all", models: Iterable[str] | None = None) -> Scope:
    """The scope of what is loaded: the release and the sidebar's cohort, labelled "HELM classic v0.4.0, the 2022
    paper's cohort (28 models)"."""
    n = len(release.model_names if models is None else [m for m in release.model_names if m in set(models)])
    words = COHORT_WORDS.get(cohort, cohort)
    return Scope(release.release_id, cohort, f"{release.name}, {words} ({fmt.count(n, 'model')})")


@dataclass(frozen=True)
class Statement:
    """A sentence, the scope it is true of (None: true everywhere, e.g. a definition), and its source."""

    text: str
    true_of: Scope | None = None
    source: str = ""

    def holds_in(self, view: Scope) -> bool:
        return self.true_of is None or self.true_of.covers(view)

    def render(self, view: Scope, elsewhere: str = "prefix") -> str | None:
        """The text in `view`: as written where it is true; elsewhere prefixed with what it is true of
        (elsewhere="prefix") or not shown at all (elsewhere="hide", returns None)."""
        if elsewhere not in ("prefix", "hide"):
            raise ValueError(f"elsewhere must be 'prefix' or 'hide', got {elsewhere!r}")
        if self.holds_in(view):
            return self.text
        if elsewhere == "hide":
            return None
        return f"In {self.true_of.label}, {_lower_first(self.text)}"


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first.lower() in _COMMON_FIRST else text


def _facts(release: Release, models, facts: ReleaseFacts | None) -> ReleaseFacts:
    return facts if facts is not None else release_facts(release, models)


def _here(release: Release, models, cohort: str) -> Scope:
    return view_scope(release, cohort, models)


# ----------------------------------------------------------------------------- the same exam


def same_exam(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
              facts: ReleaseFacts | None = None) -> Statement:
    """"Every model sat the same exam", computed: every one / all but k / m of the n models have a value in every
    one of the release's scenarios."""
    f = _facts(release, models, facts)
    n, k, s = f.n_models, len(f.models_lacking.value), len(f.scenarios)
    full = n - k
    where = f"every one of the {fmt.count(s, 'scenario')}"
    if n == 0:
        text = "No model is in this cohort."
    elif k == 0:
        text = (f"Every one of the {fmt.count(n, 'model')} has a value in {where}: the same exam for all."
                if n > 1 else f"The one model has a value in {where}.")
    elif full == 0:
        text = f"None of the {fmt.count(n, 'model')} has a value in {where}."
    elif k * 3 <= n:
        text = f"All but {fmt.count(k)} of the {fmt.count(n, 'model')} have a value in {where}."
    else:
        text = (f"{fmt.agree(full, 'model', 'has')} a value in {where}; the other {fmt.count(k)} "
                f"{fmt.verb_form(k, 'lacks')} at least one ({fmt.share_pair(full / n, k / n)[1]} of the "
                f"{fmt.count(n, 'model')}).")
    return Statement(text, _here(release, models, cohort), f.models_lacking.citation)


# ----------------------------------------------------------------------------- seeds and in-context examples


def seeds(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
          facts: ReleaseFacts | None = None) -> Statement:
    """How many seeds (draws of in-context examples) stand behind a cell, as the release shows it: "3 seeds" only
    where every model ran 3; "25 of the 67 models ran one seed; the other 42 ran 3"; "one seed" on Lite;
    "zero-shot, no in-context examples" where no prompt carries any."""
    f = _facts(release, models, facts)
    here = _here(release, models, cohort)
    ctx = f.in_context.value
    by = f.models_by_trials
    src = f.trials.citation
    if ctx == 0:
        acc = release.results
        acc = acc[(acc["metric_group"] == "accuracy") & acc["value"].notna() & acc["model"].isin(f.models)]
        one_run = bool(len(acc)) and bool((acc["n_runs"] == 1).all())
        return Statement("Zero-shot: no prompt carries an in-context example, so there is no draw of examples to "
                         "repeat" + ("; each cell is one run." if one_run else "."), here,
                         f"{f.in_context.citation}; {src}")
    if not by:
        return Statement("The release does not record how many seeds (draws of in-context examples) stand behind a "
                         "cell.", here, src)
    zero = f.zero_shot_scenarios.value
    zero_note = (f" ({fmt.names(list(zero))} {fmt.verb_form(len(zero), 'is')} zero-shot: no examples to draw, one run "
                 f"each)" if zero and max(by) > 1 else "")
    if len(by) == 1:
        k = next(iter(by))
        n = len(by[k])
        who = "The model" if n == 1 else f"Each of the {fmt.count(n, 'model')}"
        if k == 1:
            text = (f"{who} ran one seed: one draw of in-context examples per scenario, so no cell shows a "
                    "spread over draws.")
        else:
            text = (f"{who} ran up to {fmt.count(k)} seeds: {fmt.count(k)} draws of in-context examples, averaged "
                    f"in each cell{zero_note}.")
        return Statement(text, here, src)
    n = sum(len(v) for v in by.values())
    runs = [(len(v), "one seed" if k == 1 else fmt.count(k, "seed")) for k, v in sorted(by.items())]
    parts = [f"{fmt.count(runs[0][0])} of the {fmt.count(n, 'model')} ran {runs[0][1]}"]
    parts += [f"{'the other ' if len(runs) == 2 else ''}{fmt.count(c)} ran {what}" for c, what in runs[1:]]
    return Statement(f"The cohort mixes seed counts (draws of in-context examples): {fmt.names(parts)}{zero_note}.",
                     here, src)


def same_examples(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
                  facts: ReleaseFacts | None = None) -> Statement | None:
    """"The same in-context examples": each run fixes one set and reuses it for every test instance. None where no
    prompt carries in-context examples (Capabilities) or the release does not say."""
    f = _facts(release, models, facts)
    if not f.in_context.value:
        return None
    return Statement(f"Within a run, every test question gets the same in-context examples (up to "
                     f"{fmt.count(f.in_context.value, 'example')} per prompt here): HELM fixes one set per run and "
                     "reuses it.", _here(release, models, cohort),
                     f"HELM_FACTS.md §8 [REPO@HEAD reproducing_leaderboards.md] (verified); the number: "
                     f"{f.in_context.citation}")


# ----------------------------------------------------------------------------- blanks


def limited_functionality_blanks(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
                                 facts: ReleaseFacts | None = None) -> Statement | None:
    """Why HELM's limited-functionality models are blank: only where such models are in the cohort and lack a
    scenario. Names the scenarios they lack (computed), and any other model blank on exactly the same scenarios
    (for which the data gives no reason)."""
    f = _facts(release, models, facts)
    limited = [m for m in f.limited_functionality.value if m in set(f.models_lacking.value)]
    if not limited:
        return None
    cov = _lacks(release, f.models)
    lacked = sorted(set.intersection(*(cov[m] for m in limited)), key=list(f.scenarios).index)
    same = [m for m in f.models_lacking.value if m not in limited and cov[m] == set(lacked)]
    text = (f"{fmt.names(limited)} {fmt.plural(len(limited), 'is')} what HELM runs as "
            f"{'a limited-functionality model' if len(limited) == 1 else 'limited-functionality models'}: "
            f"{fmt.pronoun(len(limited), subject=True)} cannot return prompt log-probabilities, so "
            f"{fmt.names(lacked) or 'no scenario'} {'was' if len(lacked) == 1 else 'were'} not run for "
            f"{fmt.pronoun(len(limited))}.")
    if same:
        text += (f" {fmt.names(same)} {fmt.verb_form(len(same), 'lacks')} the same "
                 f"{fmt.count(len(lacked), 'scenario')}; the data gives no reason.")
    return Statement(text, _here(release, models, cohort), f.limited_functionality.citation)


def _lacks(release: Release, models: Iterable[str]) -> dict[str, set[str]]:
    m = coverage_matrix(release, list(models))
    return {model: {s for s in m.columns if not bool(row[s])} for model, row in m.iterrows()}


# ----------------------------------------------------------------------------- metric wording


def toxic_fraction_caption(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
                           facts: ReleaseFacts | None = None) -> Statement | None:
    """The "mean toxic fraction" caption, only where toxicity cells exist."""
    f = _facts(release, models, facts)
    if not f.toxicity_cells.value:
        return None
    return Statement("Toxicity is HELM's toxic fraction: the share of a model's generations that Perspective API "
                     f"scores 0.5 or higher, averaged per cell ({fmt.count(f.toxicity_cells.value, 'cell')} with a "
                     "value here).", _here(release, models, cohort),
                     "HELM_FACTS.md §4 [REPO@v0.1.0 toxicity_metrics.py] (verified); the count: "
                     + f.toxicity_cells.citation)


EFFICIENCY_WORDING = {
    "denoised": ("Efficiency here is HELM's denoised inference time: the observed API time with performance "
                 "contention removed, using profiles from a synthetic efficiency scenario.",
                 "HELM_FACTS.md §4 [REPO@v0.1.0 schema] (verified)"),
    "observed": ("Efficiency here is observed inference time: the time the deployment took to answer, so it depends "
                 "on the provider's serving as well as on the model (not classic's denoised time).",
                 "helm_reference/releases/README.md, \"Efficiency differs between boards\""),
}


def efficiency_wording(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
                       facts: ReleaseFacts | None = None) -> Statement | None:
    """What the efficiency column is in this release: denoised (classic) or observed (Lite, Capabilities) time,
    from the release's own metric names; its own definition for anything else; None without efficiency values."""
    f = _facts(release, models, facts)
    if "efficiency" not in f.metric_groups.value:
        return None
    names = " ".join(f.efficiency_metric.value).lower()
    here = _here(release, models, cohort)
    for key, (text, src) in EFFICIENCY_WORDING.items():
        if key in names:
            return Statement(text, here, f"{src}; the column: {f.efficiency_metric.citation}")
    groups = release.taxonomy.metric_groups
    row = groups[groups["metric_group"] == "efficiency"] if "metric_group" in groups.columns else groups.iloc[0:0]
    definition = str(row["definition"].iloc[0]) if len(row) and str(row["definition"].iloc[0]).strip() else ""
    what = ", ".join(f.efficiency_metric.value) or "the efficiency group"
    return Statement(f"Efficiency here is {what}" + (f": {definition}" if definition else "."), here,
                     f.efficiency_metric.citation)


# ----------------------------------------------------------------------------- OpenAI's rows


def _family(paper_name: str) -> str:
    """The model family in a v0.1.0 display name: "InstructGPT davinci v2 (175B*)" -> "InstructGPT"."""
    return paper_name.split(" ", 1)[0] if paper_name else ""


def openai_rows(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
                facts: ReleaseFacts | None = None) -> Statement | None:
    """OpenAI's rows, only where the cohort has some: the families the 2022 paper named them by (GPT-3, InstructGPT;
    from the paper's model list, where the release carries it), which sizes HELM marks speculative (params_speculative,
    HELM's "*"), and which sizes are undisclosed."""
    f = _facts(release, models, facts)
    rows = organization_models(release, f.models, "OpenAI")
    if not rows:
        return None
    info = release.models.set_index("model")
    spec = [m for m in rows if m in set(f.speculative_params.value)]
    undisclosed = [m for m in rows if pd.isna(info.loc[m, "params"])]
    fam: dict[str, str] = {}
    pm = release.paper_models
    if not pm.empty and {"helm_id", "paper_name"} <= set(pm.columns):
        by_id = dict(zip(pm["helm_id"], pm["paper_name"].fillna("")))
        fam = {m: _family(by_id.get(info.loc[m, "helm_id"], "")) for m in rows}
    families: dict[str, list[str]] = {}
    for m in rows:
        if fam.get(m):
            families.setdefault(fam[m], []).append(m)
    if len(families) > 1:
        text = (f"This cohort's {fmt.count(len(rows), 'OpenAI row')} mix "
                + " and ".join(f"{k} ({fmt.names(v)})" for k, v in families.items()) + " as the 2022 paper named them")
        later = [m for m in rows if not fam.get(m)]
        text += (f", and {fmt.count(len(later), 'later model')} ({fmt.names(later)})." if later else ".")
    else:
        text = f"This cohort has {fmt.count(len(rows), 'OpenAI row')}."
    if spec:
        spec_fams = {fam.get(m, "") for m in spec}
        only = (len(spec_fams) == 1 and "" not in spec_fams
                and set(spec) == set(families.get(next(iter(spec_fams)), [])))
        what = f"only the {next(iter(spec_fams))} sizes" if only else f"the sizes of {fmt.names(spec)}"
        text += f" HELM marks {what} speculative (\"*\": OpenAI did not disclose them)."
    else:
        text += " No size is marked speculative in this release's model list."
    if undisclosed:
        text += f" {fmt.names(undisclosed)} {fmt.verb_form(len(undisclosed), 'has')} no disclosed size."
    return Statement(text, _here(release, models, cohort),
                     f"{f.speculative_params.citation}; families: the 2022 paper's model names (paper_models.csv, "
                     "HELM v0.1.0 schema)")


# ----------------------------------------------------------------------------- coverage and release date


def _strength(rho: float) -> str:
    a = abs(rho)
    return "no" if a < 0.1 else "a weak" if a < 0.3 else "a moderate" if a < 0.6 else "a strong"


def coverage_and_date(release: Release, models: Iterable[str] | None = None, cohort: str = "all",
                      facts: ReleaseFacts | None = None) -> Statement | None:
    """Whether newer models were measured on fewer scenarios, computed: Spearman's rank correlation of release date
    and scenarios measured over the cohort, and who the models with the fewest scenarios are (HELM's
    limited-functionality models, where they are exactly those). None with fewer than three dated models or when
    every model has the same number of scenarios."""
    f = _facts(release, models, facts)
    per = scenarios_by_model(release, f.models)
    dates = pd.to_datetime(release.models.set_index("model")["release_date"].replace("", None), errors="coerce")
    dates = dates.reindex(per.index)
    ok = dates.notna()
    if int(ok.sum()) < 3 or per[ok].nunique() < 2:
        return None
    days = pd.Series((dates[ok] - pd.Timestamp("1970-01-01")).dt.days.to_numpy(dtype=float), index=dates[ok].index)
    rho = rank_correlation(days, per[ok].astype(float))
    if not np.isfinite(rho):
        return None
    lean = (": no clear tendency either way" if abs(rho) < 0.3 else
            ": newer models tend to have fewer scenarios" if rho < 0 else ": newer models tend to have more scenarios")
    text = (f"Release date and scenarios measured show {_strength(rho)} relation across the "
            f"{fmt.count(int(ok.sum()), 'dated model')} (Spearman rank correlation {rho:+.2f}){lean}.")
    low = int(per.min())
    fewest = [m for m in per.index if per[m] == low]
    if low < len(f.scenarios):
        limited = set(f.limited_functionality.value)
        text += f" {fmt.agree(len(fewest), 'model', 'has')} the fewest, {fmt.count(low, 'scenario')}"
        if set(fewest) <= limited:
            text += (f": {fmt.names(fewest)}, HELM's limited-functionality "
                     f"{'model' if len(fewest) == 1 else 'models'}.")
        elif len(fewest) <= 6:
            text += f": {fmt.names(fewest)}."
        else:
            text += "."
    undated = int((~ok).sum())
    if undated:
        text += f" {fmt.agree(undated, 'model', 'has')} no release date and {fmt.verb_form(undated, 'is')} left out."
    return Statement(text, _here(release, models, cohort),
                     "computed from the models table's release_date and the accuracy cells; "
                     + f.limited_functionality.citation)


# ----------------------------------------------------------------------------- fixed sentences with their scope

# The 2022 paper's adaptation, true of classic's paper cohort (HELM_FACTS.md §3, §8: 3 training trials, 5
# in-context examples for most scenarios [REPO@v0.1.0, REPO@HEAD reproducing_leaderboards.md]).
PAPER_SEEDS = Statement("Each model ran each few-shot scenario with 3 seeds: 3 draws of 5 in-context examples, "
                        "averaged in each cell.", PAPER_COHORT,
                        "HELM_FACTS.md §3 and §8 [REPO@v0.1.0 run_specs; REPO@HEAD reproducing_leaderboards.md] "
                        "(verified); the data agrees (# trials, # train)")
