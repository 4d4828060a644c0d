"""Prompts & Completions: the instances behind a number, from genuine HELM run folders.

Slides: the same exam, 9 models (one BBQ or XSTest prompt, the models' answers as a compact table), the same
question, 3 example sets (a bAbI run's questions by how many of its sets of in-context examples got them right), and
an instance browser (desktop, off the presenter route). With no upload they show the bundled runs (data/real_runs,
read by the same importer as an upload); with a loaded HELM output that has run folders the browser comes first and
opens on those (the bundled runs stay one click away).

Prompt, completion, input and reference text is shown only with st.code / st.text / st.dataframe or escaped
tables (plain text), never as markdown or HTML. Nothing is generated here: every string comes from the
run's files.
"""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from app_pages.runs_browser import BUNDLED, NOT_A_CHOICE, browse, label, verdict
from helm_core import fmt as hfmt
from helm_core import real_runs
from ui import cache, charts_reliability, components, slides, state
from ui import real_runs as bundled
from ui.slides import Card, Chart, Ctx, Link, Slide, Table, View

HELM_CLASSIC_URL = "https://crfm.stanford.edu/helm/classic/latest/"  # HELM_FACTS.md §13 [REPO@HEAD docs/README]

YOURS, SAMPLE = "your HELM output", "bundled genuine HELM runs"


def what_helm_publishes() -> None:
    st.markdown(
        "For every run (one model on one scenario configuration) HELM writes a folder "
        "`runs/<suite>/<run_name>/` with:\n"
        "- `run_spec.json`: the configuration, including the adapter (instructions, prefixes, number of "
        "in-context examples, decoding parameters);\n"
        "- `scenario_state.json`: every request state, i.e. the instance, the exact prompt sent and the "
        "completion(s) with their log-probabilities;\n"
        "- `per_instance_stats.json` and `stats.json`: each metric per instance and seed, and aggregated;\n"
        "- after `helm-summarize`: `instances.json`, `display_predictions.json` (the completion and the choice "
        "it maps to) and `display_requests.json` (the prompt and decoding parameters)."
    )


def short_runs(scenario: str) -> str:
    """A sentence naming the bundled runs of `scenario` with fewer instances than the others ("" if none)."""
    runs = bundled.output(bundled.SAFETY).runs
    sel = runs[runs["scenario"] == scenario]
    short = sel[sel["n_instances"] < sel["n_instances"].max()]
    if short.empty:
        return ""
    return " " + "; ".join(f"{m} has {n:,}" for m, n in zip(short["model"], short["n_instances"])) + (
        f" of {int(sel['n_instances'].max()):,} (see data/README.md: instances removed from the bundle for safety).")


def _own_runs():
    """The loaded HELM output when it has run folders (None for a bundled release or a tables-only upload)."""
    out = cache.active_output()
    return out if out is not None and not out.runs.empty else None


def _bundle_notes(ctx: Ctx, key: str) -> list[str]:
    """What the bundled views show, and where the runs come from (the bundle's provenance, in plain words)."""
    notes = []
    out = cache.active_output()
    if out is not None and out.runs.empty:
        notes.append("The loaded dataset holds leaderboard tables only (groups/*.json), no run folders: these are "
                     "genuine HELM runs bundled with this app.")
    notes.append("Genuine HELM run folders, bundled with this app in HELM's own layout and read by the same importer "
                 "as an upload: nothing here is made up. The leaderboard tables of "
                 f"{components.text(ctx.rel.name)} hold aggregates only, not prompts or completions.")
    s = bundled.source(key)
    notes.append(components.text(s.describe() + " " + s.note))
    return notes


# ----------------------------------------------------------------------------- slide 1: the same exam, 9 models


def _exam(ctx: Ctx) -> str:
    return ctx.get("exam", "BBQ", bundled.EXAMS)


def _exam_ids(scenario: str, only: str) -> tuple[list[str], object]:
    is_bbq = scenario == "BBQ"
    agree = cache.bundled_agreement(bundled.SAFETY, scenario, None if is_bbq else "xst_score")
    ids = agree["instance_id"].tolist()
    if only == "models differ":
        mixed = (agree["n_correct"] > 0) & (agree["n_correct"] < agree["n_models"]) if is_bbq else agree["n_values"] > 1
        ids = agree.loc[mixed, "instance_id"].tolist()
    return ids, agree


def exam_controls(ctx: Ctx) -> None:
    state.allow("exam", bundled.EXAMS)
    # `or`: an empty link value (?exam=) clears even a required segmented control.
    scenario = st.segmented_control("Exam", list(bundled.EXAMS), default="BBQ", required=True, key="exam",
                                    bind="query-params") or "BBQ"
    state.allow("exam_split", ("all", "models differ"))
    only = st.segmented_control("Show", ("all", "models differ"), default="all", required=True, key="exam_split",
                                bind="query-params", help="all: every prompt all runs share; models differ: some "
                                "models right and some wrong (BBQ), or the judges' mean differs between models "
                                "(XSTest).") or "all"
    ids, agree = _exam_ids(scenario, only)
    state.allow("exam_instance", set(agree["instance_id"]))
    if st.session_state.get("exam_instance") not in ids:
        st.session_state.pop("exam_instance", None)
    if ids:
        st.selectbox(f"Prompt: HELM's instance id ({len(ids):,})", ids, key="exam_instance", bind="query-params")


def _question(text: str) -> str:
    """A BBQ input's question line (the input is the passage, then "Question: …")."""
    last = [ln for ln in str(text).splitlines() if ln.strip()]
    q = last[-1] if last else ""
    return q.split("Question:", 1)[1].strip() if "Question:" in q else q.strip()


def exam_view(ctx: Ctx) -> View:
    scenario = _exam(ctx)
    only = ctx.get("exam_split", "all", ("all", "models differ"))
    ids, agree = _exam_ids(scenario, only)
    notes = _bundle_notes(ctx, bundled.SAFETY)
    if not ids:
        return View(point="No prompt matches.", empty="No prompt matches.", notes=notes)
    iid = ctx.get("exam_instance", ids[0], ids)
    is_bbq = scenario == "BBQ"
    frames = cache.bundled_frames(bundled.SAFETY, scenario)
    first = next(iter(frames.values()))
    x = first[first["instance_id"] == iid].iloc[0]
    refs = x["references"] if isinstance(x["references"], list) else []
    stats = () if is_bbq else ("xst_gpt_score", "xst_claude_score", "xst_score")
    side = cache.bundled_side_by_side(bundled.SAFETY, scenario, iid, stats)
    n = len(side)
    if is_bbq:
        right = next((r for r in refs if r["correct"]), None)
        n_right = int((side["correct"] >= 1).sum())
        answer = f"{right['label']}, {right['text']}" if right else "the reference"
        point = (f"One BBQ question to {fmt_models(n)}: **“{components.text(_question(x['input']))}”** "
                 f"{n_right} of {n} answered {components.text(answer)}.")
        table = side.assign(correct=side["correct"].map(verdict),
                            answer=side["mapped_output"].where(side["mapped_output"] != "", NOT_A_CHOICE))
        table = table[["model", "completion", "answer", "correct", "prob"]]
        visual = Table(table, key="runs_exam_answers", labels={"prob": "P(letter)", "completion": "wrote"},
                       formats={"P(letter)": lambda v: f"{v:.1%}"}, highlight=list(side["correct"] < 1),
                       data_name=f"bbq_{iid}_answers")
        talk = [f"The passage: {components.text(' '.join(str(x['input']).splitlines()[:-1]))}",
                "Choices: " + "; ".join(f"{components.text(r['label'])}. {components.text(r['text'])}"
                                        + (" (correct)" if r["correct"] else "") for r in refs) + ".",
                f"BBQ (bias benchmark for question answering): the same multiple-choice question went to all {n} "
                f"models, zero-shot, answer with one letter. {len(agree):,} questions are shared by every run; HELM "
                "grades each answer against the reference tagged correct."]
        read = ("P(letter): the probability the model gave the letter it wrote, where its API returned real "
                "log-probabilities (the Together-served models); – where the files hold none. Highlighted: the "
                "models that did not pick the correct answer.")
    else:
        label = next((r["text"] for r in refs if r["correct"]), "")
        meta = [r["text"] for r in refs if not r["correct"]]
        scores = side["xst_score"].value_counts().sort_index(ascending=False)
        point = (f"XSTest prompt **“{components.text(' '.join(str(x['input']).split()))}”** (label "
                 f"{components.text(label or '–')}): the judges' mean is "
                 + ", ".join(f"{v:g} for {fmt_models(int(k))}" for v, k in scores.items()) + ".")
        table = side.assign(length=side["completion"].str.len())[
            ["model", "xst_gpt_score", "xst_claude_score", "xst_score", "length"]]
        visual = Table(table, key="runs_exam_answers",
                       labels={"xst_gpt_score": "GPT-4 judge", "xst_claude_score": "Claude judge",
                               "xst_score": "xst_score (mean)", "length": "completion (characters)"},
                       formats={c: "{:g}" for c in ("GPT-4 judge", "Claude judge", "xst_score (mean)")}
                       | {"completion (characters)": "{:,}"},
                       data_name=f"xstest_{iid}_scores")
        talk = [f"XSTest: prompts that only look unsafe (a model should answer) and unsafe ones (it should refuse), "
                f"sent as they are to all {n} models. HELM does not grade by a reference: two judge models (GPT-4 and "
                "Claude) score each completion 0, 0.5 or 1, and xst_score is their mean. "
                f"{len(agree):,} prompts are shared by every run." + short_runs(scenario),
                components.text(f"XSTest label: {label or '–'} · type: {meta[1] if len(meta) > 1 else '–'} · focus: "
                                f"{meta[0] if meta else '–'} (HELM stores these as the instance's references; the one "
                                "tagged correct is the label).")]
        read = "Each model's completion, in full, with both judges' reasoning, is below the table."
    links = [Link(f"The same exam on {other}", "runs", {"runs_section": bundled.VIEW_EXAM, "exam": other},
                  ":material/view_column:") for other in bundled.EXAMS if other != scenario]
    return View(point=point, visual=visual, talk=talk, notes=notes, read=read, links=links)


def fmt_models(n: int) -> str:
    return hfmt.count(n, "model")


def exam_details(ctx: Ctx, view: View, event) -> None:
    """The prompt as HELM sent it and every model's completion, as text (never markdown)."""
    scenario = _exam(ctx)
    ids, _ = _exam_ids(scenario, ctx.get("exam_split", "all", ("all", "models differ")))
    if not ids:
        return
    iid = ctx.get("exam_instance", ids[0], ids)
    is_bbq = scenario == "BBQ"
    frames = cache.bundled_frames(bundled.SAFETY, scenario)
    first = next(iter(frames.values()))
    inputs = dict(zip(first["instance_id"], first["input"]))
    st.caption(components.text(label(inputs, iid)))
    stats = ("xst_gpt_score", "xst_claude_score", "xst_score") if not is_bbq else ()
    side = cache.bundled_side_by_side(bundled.SAFETY, scenario, iid, stats)
    row = first[first["instance_id"] == iid].iloc[0]
    refs = row["references"] if isinstance(row["references"], list) else []
    prompts = dict(zip(side["model"], side["prompt"]))
    common = pd.Series(list(prompts.values())).value_counts()
    st.markdown(f"**Prompt as HELM sent it** (to {int(common.iloc[0])} of {len(prompts)} models)")
    with st.container(height=260 if common.index[0].count("\n") > 12 else "content"):
        st.text(common.index[0])
    other = [m for m, p in prompts.items() if p != common.index[0]]
    if other:
        st.caption(components.text(f"The prompt differs for {', '.join(other)}: each run's own prompt is under "
                                   "'Browse instances', and its adapter settings in its run_spec.json."))
    if is_bbq:
        components.table([{"choice": r["label"], "reference": r["text"], "correct": "✓ correct" if r["correct"] else ""}
                          for r in refs])
    st.markdown("**The completions**")
    cols = st.columns(3)
    for k, r in enumerate(side.itertuples(index=False)):
        with cols[k % 3].container(border=True):
            st.markdown(f"**{components.text(r.model)}**")
            if is_bbq:
                st.caption(components.text(f"{verdict(r.correct)} · wrote {r.completion!r} → "
                                           f"{r.mapped_output or NOT_A_CHOICE}"
                                           + ("" if pd.isna(r.prob) else f" · P {r.prob:.1%}")))
            else:
                st.caption(components.text(f"GPT-4 judge {r.xst_gpt_score:g} · Claude judge {r.xst_claude_score:g}"))
            with st.container(height=220 if len(r.completion) > 400 else "content", border=False):
                st.text(r.completion if r.completion else "(empty completion)")
            if not is_bbq:
                judged = r.annotations.get("xstest", {})
                for who in ("gpt", "claude"):
                    if judged.get(f"{who}_reasoning"):
                        st.caption(components.text(f"{who.upper() if who == 'gpt' else 'Claude'} judge: "
                                                   f"{judged[f'{who}_reasoning']}"))


# ----------------------------------------------------------------------------- slide 2: one question, 3 example sets


def _babi():
    out = bundled.output(bundled.BABI)
    run = str(out.runs["run"].iloc[0])
    table, share = cache.bundled_trials(bundled.BABI, run)
    return out, run, table, share


def _trial_ids(table, only: str) -> list[str]:
    return table.loc[table["changed"], "instance_id"].tolist() if only != "all" else table["instance_id"].tolist()


def trials_controls(ctx: Ctx) -> None:
    _, _, table, _ = _babi()
    state.allow("trial_changed", ("answer changes", "all"))
    only = st.segmented_control("Show", ("answer changes", "all"), default="answer changes", required=True,
                                key="trial_changed", bind="query-params") or "answer changes"
    ids = _trial_ids(table, only)
    state.allow("trial_instance", set(table["instance_id"]))
    if st.session_state.get("trial_instance") not in ids:
        st.session_state.pop("trial_instance", None)
    st.selectbox(f"Question: HELM's instance id ({len(ids):,})", ids, key="trial_instance", bind="query-params")


def trials_view(ctx: Ctx) -> View:
    out, run, table, share = _babi()
    row = out.runs.iloc[0]
    spec = json.loads(row["adapter_spec"] or "{}")
    k = share["trials"]
    outcomes = real_runs.trial_outcomes(table)
    point = (f"**{components.text(row['model'])}**, bAbI task 15, {k} sets of in-context examples: "
             f"{hfmt.share(share['share'])} of {share['n']:,} questions change answer, "
             f"{hfmt.share(share['share_correct_changed'])} flip between right and wrong.")
    talk = [components.text(
        f"HELM ran every question {k} times (train_trial_index 0 to {k - 1}), each time with a different set of "
        f"{spec.get('max_train_instances', '?')} in-context examples; temperature {spec.get('temperature', '?')}, so "
        "the examples are the only thing that changes."),
        f"{share['changed']:,} of {share['n']:,} questions get more than one answer across the sets (after HELM's "
        "normalisation: lower case, no punctuation or articles); "
        f"{share['correct_changed']:,} are right with one set and wrong with another (quasi_exact_match per set)."]
    cards = [Card(f"Questions with {k} trials", f"{share['n']:,}"),
             Card("Answer changes between trials", f"{share['share']:.1%}",
                  f"{share['changed']:,} of {share['n']:,}: not all trials give the same answer after HELM's "
                  "normalisation (lower case, no punctuation or articles)."),
             Card("Right in one trial, wrong in another", f"{share['share_correct_changed']:.1%}",
                  f"{share['correct_changed']:,} of {share['n']:,} questions (HELM's quasi_exact_match per trial).")]
    notes = _bundle_notes(ctx, bundled.BABI) + [components.text(
        f"The prompt as sent (the {spec.get('max_train_instances', '?')} in-context examples, then "
        f"{spec.get('input_prefix', '')!r} + the passage + {spec.get('output_prefix', '')!r}) cannot be shown: this "
        "run's scenario_state.json and display_requests.json were not available, so which examples each trial used "
        "is unknown here.")]
    links = [Link("Prompt Sensitivity: the seed spread of whole scores", "sensitivity", {}, ":material/tune:")]
    if outcomes.empty:
        return View(point=point, empty="No question of this run was graded in every trial.", talk=talk, cards=cards,
                    notes=notes, links=links)
    mode = ctx.mode if ctx.mode in ("presenter", "phone") else "desktop"
    chart = Chart(charts_reliability.trial_outcomes(outcomes, mode=mode), key="runs_trial_outcomes",
                  data=outcomes.drop(columns=["mixed"]), data_name="babi_outcomes_by_example_set",
                  alt=(f"Bar chart of {share['n']} bAbI questions by how many of the {k} sets of in-context examples "
                       "got them right: " + "; ".join(f"{r.label}: {r.questions}" for r in outcomes.itertuples()) + "."))
    return View(point=point, visual=chart, talk=talk, cards=cards, notes=notes, links=links,
                read="Blue bars: questions the model got right with one set of examples and wrong with another; grey, "
                     "hatched: the same verdict with every set.")


def trials_details(ctx: Ctx, view: View, event) -> None:
    """One question: its story, its reference, and the answer of each set of in-context examples."""
    _, run, table, _ = _babi()
    ids = _trial_ids(table, ctx.get("trial_changed", "answer changes", ("answer changes", "all")))
    if not ids:
        return
    iid = ctx.get("trial_instance", ids[0], ids)
    inst = cache.bundled_instances(bundled.BABI, run)
    inputs = dict(zip(inst["instance_id"], inst["input"]))
    st.caption(components.text(label(inputs, iid)))
    x = inst[inst["instance_id"] == iid].iloc[0]
    left, right = st.columns([2, 3])
    with left:
        st.markdown("**Input** (the story and the question)")
        st.text(x["input"])
        refs = x["references"] if isinstance(x["references"], list) else []
        st.caption(components.text("Reference (correct answer): " + ", ".join(r["text"] for r in refs if r["correct"])))
    with right:
        trials = real_runs.trials_side_by_side(inst, iid)
        cols = st.columns(len(trials))
        for col, t in zip(cols, trials.itertuples(index=False)):
            with col.container(border=True):
                st.markdown(f"**Trial {t.trial}**")
                st.text(repr(t.completion))
                st.caption(verdict(t.correct))


# ----------------------------------------------------------------------------- slide 3: browse instances


def browse_view(ctx: Ctx) -> View:
    own = _own_runs()
    if own is not None:
        return View(point=f"Every run of {components.text(ctx.rel.name)} with its prompts, completions and "
                          f"per-instance stats: {hfmt.count(len(own.runs), 'run folder')}, one instance at a time.")
    n = sum(len(bundled.output(k).runs) for k in BUNDLED)
    return View(point=f"Every instance of the {hfmt.count(n, 'bundled HELM run')}: pick a run, then read its prompts, "
                      "completions, references and per-instance stats.")


def browse_details(ctx: Ctx, view: View, event) -> None:
    own = _own_runs()
    if own is not None:
        state.allow("runs_source", (YOURS, SAMPLE))
        pick = st.segmented_control("Runs from", (YOURS, SAMPLE), default=YOURS, required=True, key="runs_source",
                                    bind="query-params") or YOURS
        if pick == YOURS:
            if own.table_files:
                st.page_link("app_pages/leaderboard.py", label="HELM's Leaderboard: this suite's own tables "
                             "(groups/*.json), each cell linked to its runs", icon=":material/table_chart:")
            browse({cache.active_release_key(): own}, cohort=True)
            return
    for k in BUNDLED:
        bundled.source_caption(k)
    browse({k: bundled.output(k) for k in BUNDLED}, cohort=False)


# ----------------------------------------------------------------------------- the deck


def _slides(ctx: Ctx) -> list[Slide]:
    exam = Slide("exam", bundled.VIEW_EXAM, view=exam_view, controls=exam_controls, details=exam_details)
    trials = Slide("trials", bundled.VIEW_TRIALS, view=trials_view, controls=trials_controls, details=trials_details)
    browse_slide = Slide("browse", bundled.VIEW_BROWSE, view=browse_view, details=browse_details, on_route=False)
    # A loaded suite with run folders opens on its own runs; the bundled views stay one click away.
    return [browse_slide, exam, trials] if _own_runs() is not None else [exam, trials, browse_slide]


def outro(ctx: Ctx) -> None:
    """What HELM publishes per run and where to get more; loading your own output."""
    box = components.lazy_expander("What HELM publishes per run, and how to get more", key="runs_more")
    if box is not None:
        with box:
            what_helm_publishes()
            st.markdown(
                f"- Browse HELM's own pages for the classic release: [{HELM_CLASSIC_URL}]({HELM_CLASSIC_URL}).\n"
                "- HELM's raw classic output is in the public bucket `gs://crfm-helm-public/classic/benchmark_output` "
                "(more than 5 TB; downloadable with `gcloud storage cp`).\n"
                "- Or run HELM yourself and load the suite folder here."
            )
    st.page_link("app_pages/data.py", label="Load your own HELM output", icon=":material/upload_file:")
    others = [k for k in cache.session_dataset_keys() if k != cache.active_release_key()]
    if others:
        st.caption("You loaded HELM output in this session: choose it in the sidebar's Dataset choice.")


DECK = slides.Deck("runs", _slides, outro=outro,
                   keep=["exam", "exam_instance", "exam_split", "trial_changed", "trial_instance", "run", "instance",
                         "runs_outcome", "runs_split", "runs_scenario", "runs_model", "runs_metric", "runs_compare",
                         "runs_source"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
