"""The offline handout: every slide of the story route in one self-contained HTML file.

Each slide's title, point, interactive chart (plotly.js embedded once, so the file opens with the network off),
or its table, its talking points, and its sources and caveats. It is the stage fallback if the server fails and
the take-home for viewers. Built by `python -m scripts.export_deck deck.html` and by the download button of
presenter mode (ui.showtime), for a bundled release and cohort; slides are computed with their default state, as
a fresh link opens them.
"""
from __future__ import annotations

import html
import json
import re
from collections.abc import Callable

import pandas as pd

from . import slides
from .slides import Chart, Table, View

_ESCAPED = re.compile(r"\\(.)", re.S)


def md_inline(text: str) -> str:
    """The app's Markdown (points, talking points, notes) as HTML: bold, italics, code, links, badges and
    colour directives, backslash escapes; every other character shown literally."""
    text = html.unescape(str(text))
    kept: list[str] = []

    def protect(m: re.Match) -> str:
        kept.append(m.group(1))
        return f"\x00{len(kept) - 1}\x00"

    text = _ESCAPED.sub(protect, text)
    text = html.escape(text, quote=False)
    text = re.sub(r":material/[a-z_]+:", "", text)
    text = re.sub(r":([a-z]+)-badge\[([^\]\n]*)\]", r'<span class="badge \1">\2</span>', text)
    text = re.sub(r":([a-z]+)(?:-background)?\[([^\]\n]*)\]", r"\2", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text, flags=re.S)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", text)
    text = re.sub(r"`([^`\n]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\[([^\]\n]+)\]\(&lt;(https?://[^\s&]+)&gt;\)|\[([^\]\n]+)\]\((https?://[^\s)]+)\)",
                  lambda m: f'<a href="{m.group(2) or m.group(4)}">{m.group(1) or m.group(3)}</a>', text)
    text = text.replace("  \n", "<br>")
    return re.sub(r"\x00(\d+)\x00", lambda m: html.escape(kept[int(m.group(1))], quote=False), text)


def md_block(text: str) -> str:
    """Paragraphs and '- ' lists of the app's Markdown as HTML."""
    out = []
    for para in re.split(r"\n\s*\n", str(text).strip()):
        lines = para.split("\n")
        if all(ln.lstrip().startswith("- ") for ln in lines if ln.strip()):
            out.append("<ul>" + "".join(f"<li>{md_inline(ln.lstrip()[2:])}</li>" for ln in lines if ln.strip())
                       + "</ul>")
        else:
            out.append(f"<p>{md_inline(para)}</p>")
    return "\n".join(out)


def _table_html(df: pd.DataFrame, limit: int = 60) -> str:
    from helm_core import fmt

    shown = df.head(limit)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in shown.columns)

    def cell(v) -> str:
        if fmt.missing(v):
            return "–"
        if isinstance(v, float):
            return fmt.value(v)
        return html.escape(str(v))

    rows = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in r) + "</tr>"
                   for r in shown.itertuples(index=False, name=None))
    more = f"<p class='more'>The first {limit} of {len(df)} rows.</p>" if len(df) > limit else ""
    return f"<div class='table'><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>{more}"


def slide_html(step: slides.Step, view: View, ctx: slides.Ctx, claims: dict, fig_id: str) -> tuple[str, str | None]:
    """One slide's section, and the script that draws its chart (None without a chart)."""
    parts = [f"<section class='slide' id='{fig_id}-s'>",
             f"<p class='where'>{step.index + 1}. {html.escape(step.section)} · {html.escape(step.page_title)}</p>",
             f"<h2>{html.escape(step.title)}</h2>", f"<p class='headline'>{md_inline(view.point)}</p>"]
    script = None
    v = view.visual
    if isinstance(v, Chart):
        fig = slides.styled_figure(v, ctx, view.point)
        # A figure named by its caption (the text alternative, shown): plotly's own markup holds controls, so the
        # chart itself cannot be one image (axe: nested-interactive); the data behind it is one click away.
        parts.append(f"<figure aria-labelledby='{fig_id}-alt'><div class='chart' id='{fig_id}'></div>"
                     f"<figcaption id='{fig_id}-alt'>{html.escape(v.alt)}</figcaption></figure>")
        if v.data is not None and len(v.data):
            parts.append(f"<details><summary>Data behind this chart ({len(v.data)} rows)</summary>"
                         f"{_table_html(v.data)}</details>")
        spec = fig.to_plotly_json()
        payload = json.dumps({"data": spec.get("data", []), "layout": spec.get("layout", {})},
                             default=_json_default).replace("</", "<\\/")
        script = (f"Plotly.newPlot({json.dumps(fig_id)}, ...(p => [p.data, p.layout])({payload}), "
                  "{responsive: true, displaylogo: false});")
    elif isinstance(v, Table):
        parts.append(_table_html(v.data.rename(columns=dict(v.labels or {}))))
    elif view.empty:
        parts.append(f"<p class='empty'>{md_inline(view.empty)}</p>")
    if view.cards:
        parts.append("<div class='cards'>" + "".join(
            f"<div class='card'><span>{html.escape(c.label)}</span><b>{html.escape(c.value)}</b></div>"
            for c in view.cards) + "</div>")
    talk = slides.talk_text(view)
    if talk:
        parts.append("<h3>Talking points</h3><ul>" + "".join(f"<li>{md_inline(t)}</li>" for t in talk) + "</ul>")
    if view.read:
        parts.append(f"<p class='read'>{md_inline(view.read)}</p>")
    sources = []
    for cid in view.claims:
        c = claims.get(cid)
        if c is None:
            continue
        label = getattr(c, "badge_label", None) or (f"Paper claim · {c.confidence}" if c.is_paper_claim
                                                      else "Note on sources")
        sources.append(f"<li><span class='badge'>{html.escape(label)}</span> {md_inline(c.statement)} "
                       f"<span class='src'>Source: {html.escape(c.source)}.</span></li>")
    sources += [f"<li>{md_inline(n)}</li>" for n in view.notes]
    if sources:
        parts.append("<h3>Sources and caveats</h3><ul class='sources'>" + "".join(sources) + "</ul>")
    parts.append("</section>")
    return "\n".join(parts), script


def _json_default(o):
    import numpy as np

    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return None if o != o else float(o)
    if isinstance(o, (pd.Timestamp,)):
        return o.isoformat()
    return str(o)


CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #31333F; margin: 0 auto;
       max-width: 1100px; padding: 1.5rem; line-height: 1.45; }
h1 { font-size: 2rem; margin-bottom: 0.2rem; } h2 { margin: 0.2rem 0; } h3 { font-size: 1rem; margin: 1rem 0 0.3rem; }
.slide { border-top: 2px solid #e6e6e6; padding: 1.2rem 0 1.5rem; page-break-inside: avoid; }
.where { color: #5c5f6b; font-size: 0.9rem; margin: 0; }
.headline { font-size: 1.35rem; font-weight: 600; }
.chart { width: 100%; min-height: 420px; }
figure { margin: 0; } figcaption { color: #5c5f6b; font-size: 0.9rem; margin: 0.2rem 0 0.4rem; }
summary { cursor: pointer; color: #1f4e8c; font-size: 0.9rem; }
.table { overflow-x: auto; } table { border-collapse: collapse; font-size: 0.9rem; }
td, th { border: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
.badge { display: inline-block; font-size: 0.75rem; padding: 0 0.4rem; border-radius: 0.4rem; background: #eef0f4; }
.src, .read, .more { color: #5c5f6b; font-size: 0.9rem; }
.cards { display: flex; flex-wrap: wrap; gap: 0.5rem; } .card { border: 1px solid #ddd; border-radius: 0.5rem; padding: 0.4rem 0.7rem; }
.card span { display: block; font-size: 0.8rem; color: #5c5f6b; } .card b { font-size: 1.3rem; }
nav ol { columns: 2; font-size: 0.9rem; }
"""


def answers_html(answers) -> str:
    """The live room's questions (ui.live.LiveStore.export) as the handout's last section: each question with its
    answers' distribution and the true value with its source; "" when the room asked none."""
    if answers is None or answers.empty:
        return ""
    cols = [("question", "Question"), ("answers", "Answers"), ("distribution", "Distribution"),
            ("true_value", "True value"), ("true_value_source", "Its source"), ("result", "Result")]
    head = "".join(f"<th scope='col'>{t}</th>" for _, t in cols)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(r[c]))}</td>" for c, _ in cols) + "</tr>"
                   for _, r in answers.iterrows())
    return ("<section class='slide' id='room-answers'><h2>The room's answers</h2>"
            f"<p>{len(answers)} question(s) put to the live audience; answers are anonymous.</p>"
            f"<table><caption>Each question, its answers and the true value</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table></section>")


def build(release_name: str, cohort: str, *, progress: Callable[[int, int], None] | None = None,
          answers=None) -> str:
    """The handout for a bundled release and cohort, as one HTML string (with a live room's `answers`, a
    DataFrame from ui.live.LiveStore.export, as its last section)."""
    import plotly.offline

    from helm_core import data as D

    from . import cache

    rel = cache.bundled_release(release_name)
    # The slides' cached computations read the active release and cohort from the session (a page run) or the
    # bare-mode session dict (the export script).
    import streamlit as st

    st.session_state["release"] = release_name
    st.session_state["cohort"] = cohort
    models = tuple(D.cohort_models(rel, cache.active_cohort()))
    ctx = slides.Ctx(rel=rel, models=models, mode="handout", theme="light", state={}, cohort=cache.active_cohort())
    steps = slides.route(ctx)
    claims = cache.claims()
    body, scripts = [], []
    for i, step in enumerate(steps):
        slide = slides.slide_of(step, ctx)
        if slide is None:
            continue
        view = slide.view(ctx)
        section, script = slide_html(step, view, ctx, claims, f"slide-{i + 1}")
        body.append(section)
        if script:
            scripts.append(script)
        if progress is not None:
            progress(i + 1, len(steps))
    toc = "".join(f"<li><a href='#slide-{i + 1}-s'>{html.escape(s.label)}</a></li>" for i, s in enumerate(steps))
    cohort_text = ("the 2022 paper's cohort" if ctx.cohort == "paper" else "every model of the release")
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>HELM Explorer handout · {html.escape(rel.name)}</title><style>{CSS}</style>"
        f"<script>{plotly.offline.get_plotlyjs()}</script></head><body>"
        f"<h1>HELM Explorer: the story in {len(steps)} slides</h1>"
        f"<p>Data: {html.escape(rel.name)}, {cohort_text} ({len(models)} models). Every number is computed from "
        "the HELM results bundled with the app; claims from the 2022 paper are marked as claims with their "
        "source and confidence. Interactive charts: hover for values. Works offline.</p>"
        f"<nav><ol>{toc}</ol></nav>" + "\n".join(body) + answers_html(answers)
        + "<script>" + "\n".join(scripts) + "</script></body></html>"
    )
