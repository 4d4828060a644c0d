"""Shared page pieces: header, claim badges, charts with a text alternative and data, onward links."""
from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from helm_core.content import CONFIDENCE_LEVELS, Claim

from . import cache, nav, presenter

BADGE_COLOR = {"verified": "green", "quoted": "blue", "unverified": "orange"}


def page_header(url_path: str) -> nav.PageSpec:
    spec = nav.spec_for(url_path)
    if spec is None:
        raise KeyError(url_path)
    rel = cache.active_release()
    data_label = f"Data: {rel.name}" + ("" if rel.is_bundled else " (loaded by you)")
    if presenter.is_on():
        # One compact block, so the page's main chart fits a 1280 × 720 screen below it.
        st.markdown(f"## {spec.title}\n**{spec.takeaway}** · *{text(data_label)}*")
        return spec
    st.title(spec.title)
    st.markdown(f"**{spec.takeaway}**")
    st.caption(data_label)
    return spec


def claim(claim_id: str, *, compact: bool = False) -> None:
    """Show a paper claim as a claim: statement, a badge with its confidence, and its source."""
    c: Claim = cache.claims()[claim_id]
    badge = f":{BADGE_COLOR[c.confidence]}-badge[Paper claim · {c.confidence}]"
    with st.container(border=not compact):
        st.markdown(f"{badge} {c.statement}")
        caption = f"Source: {c.source}. {c.confidence.capitalize()}: {CONFIDENCE_LEVELS[c.confidence]}."
        if c.note:
            caption += f" Note: {c.note}"
        st.caption(caption)


def chart(fig: go.Figure, *, key: str, alt: str, data: pd.DataFrame | None = None, data_name: str | None = None,
          main: bool = False, **kwargs):
    """A plotly chart with a stable key, a text alternative, and its data as a table and CSV download.
    `main`: the page's main chart; in presenter mode its height is capped so it fits a 1280 × 720 screen."""
    if main and presenter.is_on():
        fig.update_layout(height=presenter.chart_height(fig.layout.height or presenter.MAIN_CHART_MAX_HEIGHT))
    event = st.plotly_chart(fig, key=key, width="stretch", alt=alt, **kwargs)
    if data is not None:
        # Lazy: the table (and the browser's data-grid code, ~0.3 s per page load) only once it is opened.
        box = st.expander(f"Data behind this chart ({len(data):,} rows)", key=f"{key}_data", on_change="rerun")
        if box.open:
            with box:
                st.dataframe(data, hide_index=True, width="stretch")
                download(data, data_name or key, key=f"{key}_csv")
    return event


def download(df: pd.DataFrame, name: str, *, key: str, label: str = "Download CSV") -> None:
    """A CSV download whose bytes are made when clicked, not on every run of the page."""
    st.download_button(label, lambda: df.to_csv(index=False).encode("utf-8"), file_name=f"{name}.csv",
                       mime="text/csv", key=key, icon=":material/download:")


def text(value: object) -> str:
    """Escape text that comes from data or a visitor before it goes into markdown."""
    return html.escape(str(value)).replace("[", "&#91;").replace("]", "&#93;").replace("*", "&#42;").replace("_", "&#95;")


def onward(url_path: str) -> None:
    """Links to the previous and next sections, so no page is a dead end."""
    pages = nav.available_pages()
    idx = next((i for i, p in enumerate(pages) if p.url_path == url_path), None)
    if idx is None:
        return
    st.divider()
    cols = st.columns(2)
    if idx > 0:
        prev = pages[idx - 1]
        cols[0].page_link(prev.file, label=f"Previous: {prev.title}", icon=":material/arrow_back:")
    if idx + 1 < len(pages):
        nxt = pages[idx + 1]
        cols[1].page_link(nxt.file, label=f"Next: {nxt.title}", icon=":material/arrow_forward:")
