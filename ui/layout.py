"""The one layout that renders a page's slides (ui.slides) in presenter, desktop and phone mode.

Pages call `render(DECK)`; nothing else lays out a mode. See ui/slides.py for the model and the order of things in
each mode.
"""
from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from . import cache, components, nav, presenter, slides, state, stepper, viewport
from .slides import Chart, Ctx, Deck, Slide, Table, View


def context() -> Ctx:
    """The context of this run: the active release and cohort, the screen (presenter / phone / desktop), the theme
    and the session's state."""
    mode = viewport.screen()
    return Ctx(rel=cache.active_release(), models=cache.active_models(), mode=mode, theme=viewport.theme(),
               state=st.session_state, cohort=cache.active_cohort())


def render(deck: Deck) -> None:
    """Run a page: its header, the slide picker (tabs or stepper), the open slide, and the page's way onward."""
    ctx = context()
    components.page_header(deck.url_path)
    all_slides = deck.slides_for(ctx)
    if not all_slides:
        st.info("This page has nothing to show for the loaded data.")
        return
    opened = _pick(deck, all_slides, ctx)
    presenter.record_slides(deck, all_slides, opened)
    slide = all_slides[opened]
    if deck.picker == "tabs" and len(all_slides) > 1:
        with _TAB_BODY.pop():
            render_slide(ctx, slide)
    else:
        render_slide(ctx, slide)
    if not ctx.presenter:
        if deck.outro is not None:
            deck.outro(ctx)
        components.onward(deck.url_path)


_TAB_BODY: list = []


def _pick(deck: Deck, all_slides: Sequence[Slide], ctx: Ctx) -> int:
    """Draw the slide picker and return the open slide's index. Tabs are lazy: only the open one is built (its
    label in the URL as `<page>_section`); a stepper keeps its step in the URL as `step`."""
    state.keep(deck.keep)
    if len(all_slides) == 1 and deck.picker == "tabs":
        return 0
    titles = [s.title for s in all_slides]
    if deck.picker == "stepper":
        return stepper.stepper(titles, key=deck.key, buttons=not ctx.presenter) - 1
    state.allow(deck.key, titles)
    tabs = st.tabs(titles, key=deck.key, on_change="rerun", bind="query-params")
    opened = next((i for i, tab in enumerate(tabs) if tab.open), 0)
    _TAB_BODY.append(tabs[opened])
    return opened


def render_slide(ctx: Ctx, slide: Slide) -> View | None:
    """One slide in the context's mode (as a fragment when the slide asks: a widget change then reruns the slide,
    not the page)."""
    if slide.fragment:
        st.fragment(_render_slide)(ctx, slide)
        return None
    return _render_slide(ctx, slide)


def _render_slide(ctx: Ctx, slide: Slide) -> View:
    """Containers are made in screen order first and filled after, so the controls can run before the view that
    reads them while the point and the visual still come first."""
    point_box = st.container(key=f"slide_point_{slide.id}")
    if ctx.presenter or ctx.phone or not slide.controls_beside or slide.controls is None:
        visual_box = st.container()
        side_box = None
    else:
        visual_box, side_box = st.columns([3, 1], gap="medium")
    below = st.container()
    controls_box = (side_box if side_box is not None else st.container()) if slide.controls else None
    details_box = st.container() if slide.details else None
    sources_slot = st.container()

    extra = None
    if slide.controls is not None:
        with controls_box:
            extra = slide.controls(ctx)
    view = slide.view(ctx.with_state(extra))

    with point_box:
        point(view.point, ctx)
    event = None
    with visual_box:
        event = _visual(ctx, view)
    with below:
        if not ctx.presenter:
            _talk(view)
        _cards(view)
        if not ctx.presenter and view.read:
            st.caption(view.read)
    if details_box is not None:
        with details_box:
            slide.details(ctx, view, event)
    with sources_slot:
        _sources(ctx, slide, view)
    return view


def point(text: str, ctx: Ctx) -> None:
    """The slide's point: the sentence a presenter says out loud, in large type."""
    st.markdown(text)  # sized by the page CSS (ui.viewport: the slide_point_* containers)


def _visual(ctx: Ctx, view: View):
    v = view.visual
    if v is None:
        if view.empty:
            (st.warning if view.empty_kind == "warning" else st.info)(view.empty, icon=":material/info:")
        return None
    if isinstance(v, Table):
        height = 520 if ctx.presenter and len(v.data) > 12 else (560 if len(v.data) > 15 else None)
        components.table(v.data, formats=v.formats, labels=v.labels, highlight=v.highlight, height=height,
                         links=v.links)
        return None
    fig = slides.styled_figure(v, ctx, view.point)
    kwargs = {"on_select": "rerun", "selection_mode": "points"} if v.select else {}
    return st.plotly_chart(fig, key=v.key, width="stretch", alt=v.alt, **kwargs)


def _talk(view: View) -> None:
    lines = slides.talk_text(view)
    if lines:
        st.markdown("\n".join(f"- {t}" for t in lines))


def _cards(view: View) -> None:
    if not view.cards:
        return
    with st.container(key="slide_cards", horizontal=True, gap="small"):
        for c in view.cards:
            st.metric(c.label, c.value, help=c.help, border=True, width="content")


def _sources(ctx: Ctx, slide: Slide, view: View) -> None:
    """Sources and caveats: the claims with their badges, the notes, and the visual's data with its CSV. Shown on
    desktop and phone; one collapsed block (built only when opened) in presenter mode."""
    v = view.visual
    data = v.data if isinstance(v, (Chart, Table)) else None
    has_any = (view.claims or view.notes or view.links or data is not None
               or (ctx.presenter and (view.talk or view.read)))
    if not has_any:
        return
    if ctx.presenter:
        box = components.lazy_expander("Talking points, sources and data", key=f"sources_{slide.id}")
        if box is None:
            return
        with box:
            _talk(view)
            if view.read:
                st.caption(view.read)
            _source_body(view, data, v)
        return
    if view.claims or view.notes:
        st.markdown("**Sources and caveats**")
    _source_body(view, data, v)


def _source_body(view: View, data, v) -> None:
    for cid in view.claims:
        components.claim(cid, compact=True)
    for note in view.notes:
        st.caption(note)
    for link in view.links:
        spec = nav.spec_for(link.page)
        if spec is not None and spec.path.exists():
            st.page_link(spec.file, label=link.label, icon=link.icon, query_params=dict(link.query) or None)
    if data is not None:
        name = v.data_name or v.key
        box = components.lazy_expander(f"Data behind this {'chart' if isinstance(v, Chart) else 'table'} "
                                       f"({components.fmt.count(len(data), 'row')})", key=f"{v.key}_data")
        if box is not None:
            with box:
                st.dataframe(data, hide_index=True, width="stretch")
                components.download(data, name, key=f"{v.key}_csv")


def nav_title(url_path: str) -> str:
    spec = nav.spec_for(url_path)
    return nav.title(spec, not cache.active_release().is_classic) if spec else url_path
