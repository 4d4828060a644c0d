"""The page map (DESIGN.md §2): order, sections, titles and URL paths in one place."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class PageSpec:
    section: str
    file: str  # relative to the project root
    url_path: str  # "" for the default page
    title: str
    icon: str
    takeaway: str  # the one-line takeaway shown under the title

    @property
    def path(self) -> Path:
        return ROOT / self.file


PAGES: tuple[PageSpec, ...] = (
    PageSpec("Plumbing", "app_pages/plumbing.py", "", "HELM As Evaluation Plumbing", ":material/plumbing:",
             "HELM sets one exam and publishes the exam papers: prompts, completions, and the blanks where a model "
             "did not sit a part."),
    PageSpec("Plumbing", "app_pages/coverage.py", "coverage", "Coverage Jump", ":material/grid_on:",
             "Before HELM, models shared little comparable ground; HELM made it dense."),
    PageSpec("Plumbing", "app_pages/metrics.py", "metrics", "Metric Orbit", ":material/radar:",
             "Accuracy loses its monopoly: seven metric groups, and they do not always agree."),
    PageSpec("Plumbing", "app_pages/grid.py", "grid", "16 × 7 Core Grid", ":material/apps:",
             "112 cells, and the blank ones are signal: they say what could not be measured."),
    PageSpec("Reliability", "app_pages/calibration.py", "calibration", "Reliability, Not Just Confidence Theater", ":material/speed:",
             "A model that says 90% should be right 90% of the time, and the interface changes the picture."),
    PageSpec("Reliability", "app_pages/sensitivity.py", "sensitivity", "Prompt Sensitivity", ":material/tune:",
             "Which in-context examples and which format a prompt uses can move a score a long way."),
    PageSpec("Rankings", "app_pages/podium.py", "podium", "One Recipe Reorders The Podium", ":material/leaderboard:",
             "Change the weights on the seven metric groups and the podium changes."),
    PageSpec("Rankings", "app_pages/cost.py", "cost", "Capability vs Cost Pressure", ":material/bubble_chart:",
             "Capability against cost, coloured by harm risk: the best model depends on what you can pay."),
    PageSpec("Critique", "app_pages/limits.py", "limits", "Where \"Holistic\" Still Breaks", ":material/report:",
             "A guided walk through what HELM cannot close on its own."),
    PageSpec("Critique", "app_pages/releases.py", "releases", "Moving Targets", ":material/timeline:",
             "HELM classic, Lite and Capabilities side by side, from their own tables: what stayed, what went."),
    PageSpec("Critique", "app_pages/studies.py", "studies", "Targeted Studies As Microscopes", ":material/biotech:",
             "Narrow studies see what the broad grid blurs."),
    PageSpec("More", "app_pages/threads.py", "threads", "Related Threads", ":material/hub:",
             "Four threads that run from HELM into later work, each tied to a view in this app."),
    PageSpec("More", "app_pages/references.py", "references", "References", ":material/menu_book:",
             "The source trail: papers, releases and where every number here comes from."),
    PageSpec("More", "app_pages/leaderboard.py", "leaderboard", "HELM's Leaderboard", ":material/table_chart:",
             "HELM's own tables, as helm-summarize writes them, each cell linked to the runs behind it."),
    PageSpec("More", "app_pages/runs.py", "runs", "Prompts & Completions", ":material/article:",
             "Read the prompts and completions behind a number."),
    PageSpec("More", "app_pages/data.py", "data", "Bring Your Own HELM Output", ":material/upload_file:",
             "Load your own helm-run / helm-summarize output and see it on every page."),
)


# Pages outside the story and the navigation menu (st.Page visibility="hidden"): reached by their own links.
HIDDEN: tuple[PageSpec, ...] = (
    PageSpec("Live", "app_pages/speaker.py", "speaker", "Speaker view", ":material/co_present:",
             "The presenter's console: the current and next slide, talking points, clocks, and the controls."),
)


def available_pages() -> list[PageSpec]:
    """Pages whose file exists (all of them once every section is built)."""
    return [p for p in PAGES if p.path.exists()]


def spec_for(url_path: str) -> PageSpec | None:
    for p in PAGES:
        if p.url_path == url_path:
            return p
    return None


def spec_for_file(file: str) -> PageSpec | None:
    for p in PAGES:
        if p.file == file or p.path.name == Path(file).name:
            return p
    return None


# Takeaways that are true of HELM classic only, replaced on any other release (Lite, Capabilities, a loaded suite).
LATER_TAKEAWAYS: dict[str, str] = {
    "metrics": "Classic had seven metric groups; another release's tables may keep fewer, and this page shows which.",
    "grid": "The release's scenarios × the seven classic metric groups: blank columns are what it does not measure.",
    "podium": "Change the weights on the metric groups the release measures and the podium changes.",
}


# Titles that name classic's shape (16 core scenarios × 7 metric groups), replaced on any other release.
LATER_TITLES: dict[str, str] = {"grid": "Scenario × Metric Grid"}


def title(spec: PageSpec, later_release: bool) -> str:
    """The page's title; on any release but classic (`later_release`), a release-neutral one where classic's would
    not be true (the grid of a loaded suite is not 16 × 7)."""
    return LATER_TITLES.get(spec.url_path, spec.title) if later_release else spec.title


def takeaway(spec: PageSpec, later_release: bool) -> str:
    """The page's takeaway; on any release but classic (`later_release`), the release-neutral one where classic's
    would not be true."""
    return LATER_TAKEAWAYS.get(spec.url_path, spec.takeaway) if later_release else spec.takeaway


def sidebar_links(pages: dict) -> None:
    """The page list in the sidebar: one heading per section and one link per page, in the router's order (`pages`:
    section -> st.Page, as given to st.navigation). Plain headings and links, so assistive technology reads a
    heading per section and a link per page; the current page's link is marked by Streamlit (`aria-current`)."""
    hidden = {spec.url_path for spec in HIDDEN}
    with st.container(key="app_nav"):
        for section, section_pages in pages.items():
            shown = [page for page in section_pages if page.url_path not in hidden]
            if not shown:
                continue
            st.subheader(section, anchor=False)
            for page in shown:
                st.page_link(page)
