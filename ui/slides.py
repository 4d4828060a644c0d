"""The slide model: every page is an ordered list of slides, and one layout renders any slide for the stage
(presenter mode, 1280 × 720), a desktop window and a phone.

A page (app_pages/<name>.py) declares a `DECK` and nothing else at import time, and renders it when Streamlit runs
it as a page:

    DECK = slides.Deck("grid", [slides.Slide("grid", "Grid", view=grid_view, controls=grid_controls), ...])
    if __name__ == "__main__":
        slides.render(DECK)

Because a page module can be imported without running it, the presenter route, the speaker view and the offline
handout read the same slides: `route()` lists every slide on the story route; `Slide.view(ctx)` computes a
slide's point, visual, talking points and sources for any context (a page run, a speaker view following a room,
the handout script) without drawing a widget.

A slide declares:
- `view(ctx) -> View`: its point (one sentence computed from the loaded data), its main visual (a plotly figure
  or a table), its talking points (two to four short lines with the numbers a presenter says), its sources
  (claim ids, provenance and caveat notes; the visual's data table and CSV come with the visual), a line on how
  to read the visual, and number cards. No widgets: it reads its state with `ctx.get(key, default, valid)`.
- `controls(ctx)`: draws its widgets (bound to the URL as before); may return extra state for the view.
- `details(ctx, view, event)`: what a desktop reader may want below (a cell's detail, a full table); drawn in
  every mode, below the visual and the controls.

Layout per mode (one place, `render_slide`):
- presenter: the point, then the visual filling the rest of the screen; cards, controls and details under it
  (below the fold); talking points, how to read, sources and caveats in one collapsed block at the bottom.
- desktop: the point, then the visual on the first screen (controls beside it when the slide asks), then the talking
  points, cards, how to read, controls, details, and the sources and caveats, shown.
- phone (≤ 480 px, ui.viewport): as desktop in one column, charts in their phone layout (ui.stage).
"""
from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from helm_core import fmt

# ----------------------------------------------------------------------------- what a slide shows


@dataclass(frozen=True)
class Chart:
    """A plotly figure (or its plain spec, e.g. a cached `*_spec` dict) as a slide's main visual, with its text
    alternative and the data behind it."""
    figure: go.Figure | dict
    key: str
    alt: str
    data: pd.DataFrame | None = None
    data_name: str | None = None
    select: bool = False  # clicks select points (on_select="rerun", points); the event goes to `details`
    fit: bool = True  # presenter mode: stretch the figure to the height the stage leaves


@dataclass(frozen=True)
class Table:
    """A table that fits as a slide's main visual (drawn as one Markdown table; long ones scroll in their box)."""
    data: pd.DataFrame
    key: str
    formats: Mapping[str, Any] | None = None
    labels: Mapping[str, str] | None = None
    highlight: Sequence[bool] | None = None
    links: Sequence[str] = ()
    data_name: str | None = None


@dataclass(frozen=True)
class Card:
    label: str
    value: str
    help: str | None = None


@dataclass(frozen=True)
class Link:
    """A link to a page of this app with its state, shown with the sources (st.page_link)."""
    label: str
    page: str  # url_path
    query: Mapping[str, str] = field(default_factory=dict)
    icon: str = ":material/arrow_outward:"


@dataclass
class View:
    point: str  # Markdown (data text escaped by the page)
    visual: Chart | Table | None = None
    talk: Sequence[str] = ()
    claims: Sequence[str] = ()
    notes: Sequence[str] = ()  # caveats and provenance (Markdown)
    read: str | None = None  # how to read the visual (Markdown)
    cards: Sequence[Card] = ()
    empty: str | None = None  # said instead of a visual when the data has none for it (Markdown)
    empty_kind: str = "info"  # "info" or "warning"
    links: Sequence[Link] = ()  # onward links into the app (e.g. the same view on HELM classic)


def claim_note(claim) -> str:
    """A question's truth taken from a paper claim, said as one (its source and confidence, HELM_FACTS.md)."""
    return f"paper claim · {claim.source} · {claim.confidence}"


# ----------------------------------------------------------------------------- the context a slide is computed in

MODES = ("presenter", "desktop", "phone", "handout")


@dataclass(frozen=True)
class Ctx:
    """What a slide is computed for: the loaded release, the cohort's models, the screen and the state."""
    rel: Any  # helm_core.data.Release
    models: tuple[str, ...]
    mode: str = "desktop"
    theme: str = "light"
    state: Mapping[str, Any] = field(default_factory=dict)
    cohort: str = "paper"

    @property
    def presenter(self) -> bool:
        return self.mode == "presenter"

    @property
    def phone(self) -> bool:
        return self.mode == "phone"

    def get(self, key: str, default: Any = None, valid: Callable[[Any], bool] | Sequence | None = None) -> Any:
        """The state's value for `key` when it is valid (a collection of allowed values or a predicate), else
        `default`."""
        v = self.state.get(key, default)
        if v is None:
            return default
        if valid is None:
            return v
        ok = valid(v) if callable(valid) else v in valid
        return v if ok else default

    def with_state(self, extra: Mapping[str, Any] | None) -> Ctx:
        if not extra:
            return self
        merged = dict(self.state)
        merged.update(extra)
        return replace(self, state=merged)


# ----------------------------------------------------------------------------- slides and decks


@dataclass(frozen=True)
class Slide:
    id: str  # stable within the page (route, speaker view, handout)
    title: str  # its tab label / step title
    view: Callable[[Ctx], View]
    controls: Callable[[Ctx], Mapping[str, Any] | None] | None = None
    details: Callable[[Ctx, View, Any], None] | None = None
    on_route: bool = True  # on the presenter route (False: a desktop-only section)
    controls_beside: bool = False  # desktop: the controls in a column beside the chart
    fragment: bool = False  # run as an st.fragment: a widget change reruns this slide only, not the page
    # predict-then-reveal: the questions this slide can put to a live room, their true values computed from the
    # slide's own data (helm_core.participation); a question the data cannot answer is not offered
    ask: Callable[[Ctx], Sequence[Any]] | None = None


@dataclass(frozen=True)
class Deck:
    url_path: str
    slides: Sequence[Slide] | Callable[[Ctx], Sequence[Slide]]
    picker: str = "tabs"  # "tabs": one lazy tab per slide; "stepper": ui.stepper's Back/Next (`step=N`)
    keep: Sequence[str] = ()  # query keys of widgets in any slide (kept while another slide is open)
    outro: Callable[[Ctx], None] | None = None  # desktop and phone only, after the slides (e.g. links onward)

    @property
    def key(self) -> str:
        """The query key that names the open slide: `<page>_section` (a tab label) or `step` (1-based)."""
        return "step" if self.picker == "stepper" else f"{self.url_path or 'home'}_section"

    def slides_for(self, ctx: Ctx) -> list[Slide]:
        s = self.slides(ctx) if callable(self.slides) else self.slides
        return list(s)

    def token(self, slides: Sequence[Slide], i: int) -> str:
        """The URL value that opens slide i: its tab label, or its step number."""
        return str(i + 1) if self.picker == "stepper" else slides[i].title


def deck_of(spec) -> Deck | None:
    """The Deck a page module declares (importing it runs no page code), or None when it declares none."""
    module = "app_pages." + spec.path.stem
    if 'if __name__ == "__main__":' not in spec.path.read_text(encoding="utf-8"):
        return None  # a page that still draws at import time (not a slide deck): never import it
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return getattr(mod, "DECK", None)


@dataclass(frozen=True)
class Step:
    """One step of the presenter route: a slide of a page."""
    index: int
    page: str  # url_path
    file: str
    key: str | None  # the query key that opens it (None: the page has one slide)
    token: str | None
    page_title: str
    title: str  # the slide's title
    slide_id: str
    section: str  # the navigation section (Plumbing, Reliability, ...)

    @property
    def label(self) -> str:
        return self.page_title if self.title == self.page_title else f"{self.page_title} · {self.title}"


def route(ctx: Ctx) -> list[Step]:
    """Every slide on the story route, in order: the pages in navigation order, each page's slides in order."""
    from . import nav

    later = not getattr(ctx.rel, "is_classic", True)
    steps: list[Step] = []
    for spec in nav.available_pages():
        deck = deck_of(spec)
        title = nav.title(spec, later)
        if deck is None:  # a page that declares no slides: one step
            steps.append(Step(len(steps), spec.url_path, spec.file, None, None, title, title, spec.url_path or "home",
                              spec.section))
            continue
        slides = deck.slides_for(ctx)
        one = len(slides) == 1 and deck.picker == "tabs"
        for i, s in enumerate(slides):
            if not s.on_route:
                continue
            steps.append(Step(len(steps), spec.url_path, spec.file, None if one else deck.key,
                              None if one else deck.token(slides, i), title, s.title, s.id, spec.section))
    return steps


# ----------------------------------------------------------------------------- presenter geometry

STAGE_WIDTH, STAGE_HEIGHT = 1280, 720
_STAGE_CHROME = 120  # the presenter bar, the gaps and the page's padding above the chart (px)
_POINT_LINE = 40  # one line of the point at stage size (px)
_POINT_CHARS = 78  # characters per line of the point at stage size


def point_lines(point: str) -> int:
    plain = point.replace("**", "").replace("\\", "")
    return max(1, math.ceil(len(plain) / _POINT_CHARS))


def stage_height(point: str) -> int:
    """The chart height that fills a 1280 × 720 stage under the bar and the point."""
    return max(360, STAGE_HEIGHT - _STAGE_CHROME - _POINT_LINE * point_lines(point))


def styled_figure(chart: Chart, ctx: Ctx, point: str) -> go.Figure:
    """The chart's figure dressed for the mode and theme (ui.stage), stretched to the stage in presenter mode; a
    figure Streamlit serialises as it is (ui.stage.SpecFigure)."""
    from . import stage

    source = chart.figure if isinstance(chart.figure, dict) else chart.figure.to_plotly_json()
    spec = stage.style_spec(source, mode="presenter" if ctx.presenter else ctx.mode, theme=ctx.theme)
    if ctx.presenter and chart.fit:
        spec["layout"]["height"] = stage_height(point)
    return stage.SpecFigure(spec)


def talk_text(view: View) -> list[str]:
    return [t for t in view.talk if t]


def count_phrase(n: int, word: str) -> str:
    return fmt.count(n, word)


def slide_of(step: Step, ctx: Ctx) -> Slide | None:
    """The Slide a route step names, in `ctx` (None for a page without a deck or a slide not in it)."""
    from . import nav

    spec = nav.spec_for(step.page)
    deck = deck_of(spec) if spec else None
    return next((s for s in deck.slides_for(ctx) if s.id == step.slide_id), None) if deck else None


def questions(step: Step, ctx: Ctx) -> list:
    """The predict-then-reveal questions of a route step's slide (Slide.ask) in `ctx`; none when it has none or
    its data cannot answer them here (a question that cannot compute is not offered; the slide still shows)."""
    slide = slide_of(step, ctx)
    if slide is None or slide.ask is None:
        return []
    try:
        return list(slide.ask(ctx))
    except Exception:  # noqa: BLE001
        return []
