"""Pieces that show the bundled genuine HELM runs (data/real_runs) on several pages: the source in plain words,
links into the Prompts & Completions views, one real prompt → completion card, the real reliability choice.

Text from the run files is shown with st.text (literal) or escaped with components.text / components.table.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from helm_core import fmt, real_runs

from . import cache, components

SAFETY = cache.REAL_PREFIX + "safety"
BABI = cache.REAL_PREFIX + "babi"
RUNS_PAGE = "app_pages/runs.py"
# The runs page's sections (their labels are the `runs_section` query values).
VIEW_EXAM = "Same exam, 9 models"
VIEW_TRIALS = "Same question, 3 example sets"
VIEW_BROWSE = "Browse instances"
VIEWS = (VIEW_EXAM, VIEW_TRIALS, VIEW_BROWSE)
EXAMS = ("BBQ", "XSTest")  # scenarios as the importer names them (the `exam` query values)
CARD_RUN = "bbq:subject=all,method=multiple_choice_joint,model=meta_llama-3-8b-chat"
CARD_INSTANCE = "id57790"


def source(key: str):
    return cache.bundled_sources()[key]


def output(key: str):
    return cache.bundled_output(key)


def source_caption(key: str) -> None:
    s = source(key)
    st.caption(components.text(s.describe() + " " + s.note))


def link_exam(exam: str = "XSTest", *, label: str | None = None, instance: str | None = None) -> None:
    """A link to the side-by-side view of `exam` ("BBQ" or "XSTest")."""
    q = {"runs_section": VIEW_EXAM, "exam": exam}
    if instance:
        q["exam_instance"] = instance
    n = output(SAFETY).runs["model"].nunique()
    st.page_link(RUNS_PAGE, label=label or f"The same {exam} exam for {n} models: one prompt, their completions side "
                 "by side (genuine HELM runs)", icon=":material/view_column:", query_params=q)


def _completion_line(x) -> str:
    verdict = "correct" if x["correct"] == 1 else ("incorrect" if x["correct"] == 0 else "not graded")
    prob = "" if x["prob"] != x["prob"] else f", probability {fmt.share(x['prob'])}"
    mapped = f" → {x['mapped_output']}" if str(x["mapped_output"] or "") else ""
    return f"Completion: {x['completion']!r}{mapped} ({verdict}{prob})"


@dataclass(frozen=True)
class Example:
    """One genuine prompt → completion to show: HELM's display names for the model and the scenario, the texts, where
    it comes from, and the link onward (a Prompts & Completions query)."""
    model: str
    scenario: str
    instance: str
    prompt: str
    completion: str
    source: str  # a caption (plain text)
    own: bool  # from the loaded output (True) or the bundled runs (False)
    link_label: str
    link_query: dict


def own_example() -> Example | None:
    """On a loaded HELM output with per-instance files: the first prompt → completion of its first run that has
    them. None when there is none (the caller shows the bundle's)."""
    out = cache.active_output()
    if out is None:
        return None
    runs = out.runs[out.runs["has_instances"]].sort_values("run")
    for r in runs.itertuples():
        try:
            inst = cache.run_instances(str(r.run))
        except Exception:  # an unreadable instance file is the runs page's to report, with its own message
            continue
        inst = inst[inst["prompt"].astype(str).str.strip() != ""]
        if inst.empty:
            continue
        x = inst.iloc[0]
        return Example(str(r.model), str(r.scenario), str(x["instance_id"]), str(x["prompt"]), _completion_line(x),
                       f"From run {r.run} of the loaded output ({fmt.count(len(runs), 'run')} with per-instance "
                       "files).", True, "Every prompt and completion of this run in Prompts & Completions",
                       {"runs_model": str(r.model), "runs_scenario": str(r.scenario), "run": str(r.run)})
    return None


def example() -> Example | None:
    """One genuine prompt → completion: the loaded output's own when it has per-instance files, else one from the
    bundle (HELM's display names from the run's schema.json, not its raw ids). Reads that one run folder only
    (light enough for the home page). No Streamlit drawing: a slide's view can call it."""
    own = own_example()
    if own is not None:
        return own
    inst = cache.bundled_instances(SAFETY, CARD_RUN)
    row = inst[inst["instance_id"] == CARD_INSTANCE]
    if row.empty:
        return None
    x = row.iloc[0]
    runs = output(SAFETY).runs
    run = runs[runs["run"] == CARD_RUN].iloc[0]
    s = source(SAFETY)
    return Example(str(run["model"]), str(run["scenario"]), CARD_INSTANCE, str(x["prompt"]), _completion_line(x),
                   s.describe() + " " + s.note, False, "", {"exam": "BBQ", "instance": CARD_INSTANCE})


def example_card(ex: Example | None = None) -> None:
    """Draw an Example (by default `example()`): its prompt and completion as literal text, its source and link."""
    ex = ex if ex is not None else example()
    if ex is None:
        return
    with st.container(border=True):
        what = (f"A prompt and completion from {components.text(cache.active_release().name)}" if ex.own
                else "A real prompt and completion")
        st.markdown(f"**{what}** · {components.text(ex.model)} on {components.text(ex.scenario)}, "
                    f"instance {components.text(ex.instance)}")
        st.text(ex.prompt)
        st.text(ex.completion)
        st.caption(components.text(ex.source))
        if ex.own:
            st.page_link(RUNS_PAGE, label=ex.link_label, icon=":material/article:", query_params=ex.link_query)
        else:
            link_exam(ex.link_query["exam"], instance=ex.link_query["instance"])


def confident_runs():
    """The bundled runs with real log-probabilities (runs table rows)."""
    return cache.bundled_confident_runs(SAFETY)


def reliability_labels() -> list[str]:
    """"model · scenario" of each bundled run with real log-probabilities (the `cal_real` choices), in order."""
    runs = confident_runs()
    return [f"{m} · {s}" for m, s in zip(runs["model"], runs["scenario"])]


def reliability_picker() -> str:
    """The bundled run choice (bound to the URL as `cal_real`); returns the chosen label."""
    from . import state

    labels = reliability_labels()
    state.allow("cal_real", labels)
    return st.selectbox("Model · run (bundled genuine HELM runs with real log-probabilities)", labels,
                        key="cal_real", bind="query-params")


def reliability_of(label: str | None, strategy: str) -> dict:
    """The reliability of one bundled run (the first when `label` is not one of them): `summary` (bins, ECE, n, …),
    `hist` (the same answers in 10 equal-width confidence bands), `model`, `scenario`, `run`, `label`, HELM's own
    `helm_ece` / `helm_max_prob` for the run (NaN when absent), and `source` (the bundle in plain words). Draws
    nothing."""
    runs = confident_runs()
    labels = reliability_labels()
    i = labels.index(label) if label in labels else 0
    row = runs.iloc[i]
    run = str(row["run"])
    stats = out_stats()
    s = source(SAFETY)
    return {"summary": cache.bundled_reliability(SAFETY, run, strategy),
            "hist": cache.bundled_reliability(SAFETY, run, "uniform")["bins"],
            "model": str(row["model"]), "scenario": str(row["scenario"]), "run": run, "label": labels[i],
            "helm_ece": real_runs.reported_stat(stats, run, "ece_10_bin"),
            "helm_max_prob": real_runs.reported_stat(stats, run, "max_prob"),
            "source": s.describe() + " " + s.note}


def out_stats():
    return output(SAFETY).run_stats


def trials_sentence() -> str:
    """Instance-level seed sensitivity in the bundled bAbI run, in one sentence ('' when it has no repeated
    question). Draws nothing (slides put it in their talking points, with `TRIALS_LINK`)."""
    out = output(BABI)
    run = str(out.runs["run"].iloc[0])
    _, share = cache.bundled_trials(BABI, run)
    if not share["n"]:
        return ""
    return (f"Instance by instance, in a genuine HELM run: {out.runs['model'].iloc[0]} on bAbI task 15 answered "
            f"{fmt.count(share['changed'])} of {fmt.count(share['n'])} questions ({fmt.share(share['share'])}) "
            f"differently across its {share['trials']} sets of in-context examples, and was right in one and wrong in "
            f"another on {fmt.count(share['correct_changed'])} ({fmt.share(share['share_correct_changed'])}).")


TRIALS_LABEL = "The same bAbI question with three sets of in-context examples (a genuine HELM classic run)"
