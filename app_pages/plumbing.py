"""HELM As Evaluation Plumbing (the home page): the same exam for every model, and what HELM publishes.

Slides: the exam (which models have a value on which scenarios: every model named on a desktop, one column per
pattern of blanks on a stage or a phone), what HELM publishes for every run (with one genuine prompt and
completion). After them, desktop and phone list every section of the app."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt, summary, taxonomy
from ui import cache, charts, components, nav, slides
from ui import real_runs as bundled
from ui.slides import Card, Chart, Ctx, Slide, Table, View

headline_counts = cache.on_release(summary.headline_counts)
exam_matrix = cache.on_release(summary.exam_matrix)
exam_patterns = cache.on_release(summary.exam_patterns)
blank_sentence = cache.on_release(summary.blank_sentence)
exam_setup = cache.on_release(summary.exam_setup)
bookkeeping_metrics = cache.on_release(summary.bookkeeping_metrics)
TEXT = components.text
NO_MODEL = "No model matches the sidebar's cohort and access filter. Widen the filter to see the exam."


def _no_models(ctx: Ctx) -> View | None:
    return None if ctx.models else View(point="No model matches the sidebar's cohort and access filter.",
                                        empty=NO_MODEL, empty_kind="warning")


def _cards(ctx: Ctx, counts: dict) -> list[Card]:
    rel = ctx.rel
    return [
        Card("Models", f"{counts['models']:,}"),
        Card("Organizations", f"{counts['organizations']:,}"),
        # "Core scenarios" only where they are classic's core scenarios; any other release counts its own.
        Card("Core scenarios" if rel.is_classic else "Scenarios", f"{counts['scenarios']:,}",
             TEXT(f"{rel.name} has {taxonomy.scenarios_phrase(rel)}.")),
        Card("Metric groups", summary.metric_groups_text(counts["metric_groups_measured"], counts["metric_groups"]),
             "The seven classic metric groups with at least one value for these models: "
             + taxonomy.groups_phrase(taxonomy.groups_with_values(rel, ctx.models)) + "."),
        Card("Accuracy measured", fmt.ratio(counts["accuracy_measured"], counts["accuracy_cells"]),
             TEXT(summary.coverage_help(counts, taxonomy.schema_name(rel)))),
    ]


# ----------------------------------------------------------------------------- slide 1: the same exam


def exam_view(ctx: Ctx) -> View:
    empty = _no_models(ctx)
    if empty is not None:
        return empty
    rel, models = ctx.rel, ctx.models
    scenarios = list(rel.taxonomy.scenario_names)
    exam = exam_matrix(models)
    patterns = exam_patterns(models)
    n_models, n_scen = len(models), len(scenarios)
    n_meas, n_cells = int(exam["measured"].sum()), len(exam)
    complete = int(patterns.loc[patterns["n_missing"] == 0, "n_models"].sum())
    who = summary.complete_phrase(complete, n_models)
    verb = "has" if n_models == 1 else "have"
    point = (f"**One exam, {fmt.count(n_scen, 'scenario')}: {who} {verb} a value on every one** "
             f"({n_meas:,} of {n_cells:,} cells measured).")
    counts = headline_counts(models)
    order = [m for m in rel.model_names if m in set(models)]
    full = ctx.mode == "desktop"  # every model named on its row; a stage or a phone gets the compact form
    if full:
        fig = charts.exam_dot_matrix(exam, order, scenarios)
        read = (f"Each row is a model, each column one of the {n_scen} scenarios of {TEXT(rel.name)}. A dot means "
                "HELM has the scenario's main accuracy metric for that model; a grey × means it does not.")
    else:
        fig = charts.exam_patterns_chart(patterns, scenarios, mode=ctx.mode)
        read = (f"Each row is one of the {n_scen} scenarios of {TEXT(rel.name)}; each column the models that lack "
                "the same scenarios, headed by how many they are (or by the model's name when it is alone). A dot "
                "means HELM has the scenario's main accuracy metric for them; a grey × means it does not.")
    alt = (f"Dot matrix of {len(order)} models by {n_scen} scenarios: {n_meas} measured cells and "
           f"{n_cells - n_meas} blank ones. {complete} of {n_models} models have every scenario.")
    chart = Chart(fig, key="plumbing_exam", alt=alt,
                  data=exam[["model", "scenario", "metric", "value", "measured"]], data_name="same_exam")
    setup = exam_setup()
    n_blank = n_cells - n_meas
    talk = [f"The columns are the same for everyone: {TEXT(summary.setup_phrase(setup))}, and the same metrics.",
            f"{who[0].upper() + who[1:]} {verb} a value on all {fmt.count(n_scen, 'scenario')}; "
            + (f"{fmt.count(n_blank, 'cell')} {fmt.plural(n_blank, 'is')} blank." if n_blank else "no cell is blank.")]
    sentence = blank_sentence(models)
    if sentence:
        talk.append(TEXT(sentence))
    books = bookkeeping_metrics()
    notes = [TEXT(
        f"Computed from {rel.name}: {fmt.count(counts['metric_values'], 'metric value')} and "
        f"{fmt.count(counts['metric_blank'], 'blank')} are kept side by side, because a blank says what HELM "
        f"could not measure."
        + (f" Apart from them, HELM's \"General information\" bookkeeping columns ({', '.join(books)}) hold "
           f"{fmt.count(counts['bookkeeping_values'], 'value')} and {fmt.count(counts['bookkeeping_blank'], 'blank')}."
           if books else ""))]
    return View(point=point, visual=chart, cards=_cards(ctx, counts), talk=talk, notes=notes, read=read,
                claims=["headline_models"] if rel.is_classic else [])


# ----------------------------------------------------------------------------- slide 2: what HELM publishes

PUBLISHED = [
    ("display_requests.json", "the request: the exact prompt sent to the model, with its instructions, in-context "
                              "examples and decoding parameters"),
    ("display_predictions.json", "the completion: what the model returned, and the answer it was mapped to"),
    ("per_instance_stats.json", "every metric for every test instance and seed"),
    ("groups/*.json", "the tables, blanks kept with their reason (\"No matching runs\")"),
]


def publishes_view(ctx: Ctx) -> View:
    ex = bundled.example()
    table = Table(pd.DataFrame(PUBLISHED, columns=["file", "what it holds"]), key="plumbing_files",
                  data_name="helm_run_files")
    if ex is None:
        point = "HELM publishes every run's prompts, completions and per-instance scores, and keeps its blank cells."
    else:
        point = (f"HELM publishes every run's prompts, completions and scores: below, a real "
                 f"{TEXT(ex.scenario)} prompt and {TEXT(ex.model)}'s answer.")
    talk = [f"`{f}`: {what}." for f, what in PUBLISHED[:3]]
    talk.append("The blanks: cells with no value stay in the tables, with the reason (\"No matching runs\").")
    return View(point=point, visual=table, talk=talk, claims=["headline_release"],
                read="Below: one genuine prompt and completion, as HELM's files hold them.")


def publishes_details(ctx: Ctx, view: View, event) -> None:
    bundled.example_card()


def where_next(ctx: Ctx) -> None:
    st.subheader("Where to go next")
    later = not ctx.rel.is_classic
    for spec in nav.available_pages()[1:]:
        st.page_link(spec.file, label=f"{nav.title(spec, later)}: {nav.takeaway(spec, later)}", icon=spec.icon)


DECK = slides.Deck("", [
    Slide("exam", "Same exam", view=exam_view),
    Slide("publishes", "What HELM publishes", view=publishes_view, details=publishes_details),
], outro=where_next)

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
