"""Prompts & Completions: browse the instances behind a number, from loaded HELM run folders.

Prompt, completion, input and reference text is shown only with st.code / st.text / st.dataframe (plain
text, whitespace kept), never as markdown or HTML. Nothing is generated here: every string comes from the
run's files.
"""
from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from helm_core import helm_output
from ui import cache, components, state

HELM_CLASSIC_URL = "https://crfm.stanford.edu/helm/classic/latest/"  # HELM_FACTS.md §13 [REPO@HEAD docs/README]
ALL = "all"
ORIGINAL = "original"

components.page_header("runs")
out = cache.active_output()


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


def _split(runs: pd.DataFrame, col: str) -> list[str]:
    """The distinct values of a comma-joined column of the runs table (seeds, perturbations)."""
    return sorted({p for v in runs[col] for p in str(v).split(",") if p}, key=lambda x: (len(x), x))


def fmt(stat: str, value: float) -> str:
    if math.isnan(value):
        return "–"
    if stat in ("num_instances", "num_train_instances"):
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
    if stat == "num_prompt_tokens":
        return f"{value:,.1f}"
    if "runtime" in stat:
        return f"{value:,.2f} s"
    return f"{value:.3f}"


def main() -> None:
    """The page; returns early (instead of st.stop(), which would also skip Home.py's end-of-run URL
    checks) when there is nothing to browse."""
    if out is None or out.runs.empty:
        if out is None:
            st.info(
                f"{cache.active_release().name} is HELM's published leaderboard: it holds the aggregated tables, "
                "not the per-run files, so there are no prompts or completions to show here. Nothing on this page "
                "is made up: it shows only what a loaded run folder contains.",
                icon=":material/info:",
            )
        else:
            st.info("The loaded dataset holds leaderboard tables only (groups/*.json), no run folders, so there are "
                    "no prompts or completions to show.", icon=":material/info:")
        st.subheader("What HELM publishes per run")
        what_helm_publishes()
        st.subheader("How to read real prompts and completions")
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
        return

    runs = out.runs
    models = set(cache.active_models())
    runs = runs[runs["model"].isin(models)]
    if runs.empty:
        st.info("No run of the loaded dataset belongs to a model in the sidebar's cohort and access filter. "
                "Widen the filter to see the runs.", icon=":material/filter_alt_off:")
        return

    st.markdown("**Pick a run**")
    f = st.columns(4)
    scen = f[0].selectbox("Scenario", [ALL, *sorted(runs["scenario"].unique())], key="runs_scenario")
    model = f[1].selectbox("Model", [ALL, *sorted(runs["model"].unique())], key="runs_model")
    seed_opts = [ALL, *_split(runs, "seeds")]
    seed = f[2].selectbox("Seed (in-context examples)", seed_opts, key="runs_seed",
                          help="HELM's train_trial_index: each seed samples its own in-context examples.")
    pert_opts = [ALL, ORIGINAL, *_split(runs, "perturbations")]
    pert = f[3].selectbox("Perturbation", pert_opts, key="runs_perturbation",
                          help="'original' = unperturbed instances; others are HELM's robustness / fairness perturbations.")

    sel = runs
    if scen != ALL:
        sel = sel[sel["scenario"] == scen]
    if model != ALL:
        sel = sel[sel["model"] == model]
    if seed != ALL:
        sel = sel[sel["seeds"].map(lambda v: seed in str(v).split(","))]
    if pert not in (ALL, ORIGINAL):
        sel = sel[sel["perturbations"].map(lambda v: pert in str(v).split(","))]
    if sel.empty:
        st.info("No run matches these filters.", icon=":material/filter_alt_off:")
        return

    run_ids = sel["run"].tolist()
    # Validated against every run of the dataset: a run the filters hide is not a bad link.
    state.allow("run", set(out.runs["run"]))
    run = st.selectbox(f"Run ({len(run_ids):,} match)", run_ids, key="run", bind="query-params")
    row = sel[sel["run"] == run].iloc[0]

    st.caption(components.text(
        f"{row['model']} · {row['scenario']} · method {row['method'] or 'unknown'} · "
        f"{int(row['n_instances']):,} instances · files: {row['instance_files'] or 'stats only'}"
    ))

    head = helm_output.run_headline(out, run)
    if head.empty:
        st.info("This run's stats.json has none of the headline statistics.", icon=":material/info:")
    else:
        cols = st.columns(min(len(head), 6))
        for i, h in enumerate(head.itertuples(index=False)):
            cols[i % len(cols)].metric(h.label, fmt(h.stat, h.value),
                                       help=f"stats.json: {h.stat}, split {h.split}, count {h.count:g}")
    with st.expander("All of this run's stats.json"):
        st.dataframe(pd.DataFrame(out.run_stats[out.run_stats["run"] == run].drop(columns="run")), hide_index=True,
                     width="stretch")

    if not bool(row["has_instances"]):
        st.info("This run folder has no per-instance files (scenario_state.json or display_predictions.json), so "
                "there are no prompts or completions to show.", icon=":material/info:")
        return

    with st.spinner("Reading this run's instance files…"):
        inst = cache.run_instances(run)
    st.subheader("Instances")
    q = st.text_input("Search in input, prompt, completion and references", key="runs_search",
                      placeholder="a word or phrase (case-insensitive)")
    seed_v = int(seed) if seed != ALL else None
    pert_v = None if pert == ALL else ("" if pert == ORIGINAL else pert)
    shown = cache.filtered_instances(run, seed_v, pert_v, q.strip()[:200])
    if shown.empty:
        st.info("No instance of this run matches the seed, perturbation and search.", icon=":material/search_off:")
        return

    n = len(shown)
    # Any page number is a fair link; one past the end (after a filter change) falls back to the first.
    state.allow("instance", lambda v: v.isdigit() and 1 <= int(v) <= 10_000_000)
    page = st.pagination(n, key="instance", bind="query-params", max_visible_pages=7)
    i = min(max(int(page), 1), n) - 1
    x = shown.iloc[i]
    st.caption(components.text(
        f"Instance {i + 1:,} of {n:,} · id {x['instance_id']} · split {x['split'] or '–'} · seed {x['train_trial_index']} · "
        f"perturbation {x['perturbation'] or 'none (original)'}"
        + (f" · chose option {int(x['reference_index']) + 1} of {len(x['references'])}"
           if str(x["method"]).startswith("multiple_choice_separate") and not pd.isna(x["reference_index"])
           else f" · reference {int(x['reference_index'])} ({x['request_mode']})" if not pd.isna(x["reference_index"])
           else "")
    ))

    left, right = st.columns([3, 2])
    with left:
        st.markdown("**Input**")
        if x["input"]:
            st.code(x["input"], language=None, wrap_lines=True)
        else:
            st.caption("The run's files hold no input text for this instance.")
        st.markdown(f"**Prompt as sent** ({len(x['prompt']):,} characters)")
        if x["prompt"]:
            st.code(x["prompt"], language=None, wrap_lines=True, height=320 if x["prompt"].count("\n") > 14 else "content")
        else:
            st.caption("The run's files hold no prompt for this instance (display_requests.json is missing).")
        comps = list(x["completions"]) if isinstance(x["completions"], list) else []
        st.markdown("**Completion**" + (f" (first of {len(comps)})" if len(comps) > 1 else ""))
        st.code(x["completion"] if x["completion"] != "" else "(empty completion)", language=None, wrap_lines=True)
        if len(comps) > 1:
            with st.expander(f"All {len(comps)} completions"):
                for c in comps:
                    st.code(c, language=None, wrap_lines=True)
        if x["mapped_output"]:
            st.text("Maps to the choice: " + x["mapped_output"])
    with right:
        c = st.columns(2)
        correct = x["correct"]
        c[0].metric("Correct", "–" if pd.isna(correct) else ("yes ✓" if correct >= 1 else "no ✗"),
                    help="HELM's per-instance exact_match when present; otherwise whether the (mapped) completion "
                         "equals a correct reference.")
        prob = x["prob"]
        c[1].metric("P(chosen answer)", "–" if pd.isna(prob) else f"{prob:.1%}", help=helm_output.describe_prob(x))
        if not pd.isna(x["prob_normalised"]):
            st.caption(f"Normalised over the answer letters in the top log-probabilities: {x['prob_normalised']:.1%}.")
        if pd.isna(prob):
            st.caption(helm_output.describe_prob(x))
        refs = x["references"] if isinstance(x["references"], list) else []
        st.markdown(f"**References** ({len(refs)})")
        if refs:
            table = {"choice": [r["label"] for r in refs],
                     "correct": ["✓ correct" if r["correct"] else "" for r in refs],
                     "reference": [r["text"] for r in refs]}
            if any("chosen" in r for r in refs):  # multiple_choice_separate_*: one request per option
                table["chosen"] = ["◀ chosen" if r.get("chosen") else "" for r in refs]
                table["log-prob"] = [r.get("logprob") for r in refs]
                table["tokens"] = [r.get("tokens") for r in refs]
            st.dataframe(
                pd.DataFrame(table), hide_index=True, width="stretch",
                column_config={"reference": st.column_config.TextColumn("reference", width="large"),
                               "log-prob": st.column_config.NumberColumn("log-prob", format="%.3f",
                                                                         help="Sum of the log-probabilities of the "
                                                                              "option's tokens in its own request.")},
            )
            if x.get("choice_source"):
                st.caption(components.text(f"Chosen option: {x['choice_source']}. Scored as HELM does for "
                                           f"{x['method']}: each option's log-probability per token, highest wins."
                                           if x["method"].endswith("original") else
                                           f"Chosen option: {x['choice_source']}."))
        else:
            st.caption("The run's files hold no references for this instance.")
        st.markdown("**Per-instance stats**")
        stats = x["stats"] if isinstance(x["stats"], dict) else {}
        if stats:
            st.dataframe(helm_output.instance_stats_table(stats), hide_index=True, width="stretch")
        else:
            st.caption("No per-instance stats for this instance (per_instance_stats.json is missing).")

    with st.expander("The run's configuration (run_spec.json adapter_spec)"):
        st.text(f"run {row['run_name']}\nmodel {row['model_id']}\nseeds {row['seeds'] or '–'}\n"
                f"perturbations {row['perturbations'] or 'none'}")
        st.code(row["adapter_spec"], language="json", wrap_lines=True)


main()
components.onward("runs")
