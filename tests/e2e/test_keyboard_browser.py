"""Chromium, keyboard only (WCAG 2.1.1 keyboard, 2.4.3 focus order, 2.4.7 focus visible, 2.4.11 focus not
obscured): no mouse click and no programmatic focus, only Tab, Shift+Tab, arrows, Enter, Space, Escape, PageDown.

One page of each kind:
- a story page with sections and controls (the podium, 1400 × 900): every Tab stop shows a focus indicator on
  screen and not under Streamlit's fixed header; the sidebar's page links, the section tabs (arrow keys), the
  recipe radio, the weights popover and a slider in it all work from the keyboard;
- the stepper (the limits walk): Next, Back and the step picker;
- presenter mode (1280 × 720): the bar's Next and Previous, the Audience popover opened with Enter and closed
  with Escape, focus back on its button; a live room started from it, the follow view's Detach and Rejoin
  (390 × 844), the speaker view's Next, Previous and Jump moving the presenter's screen.
The whole presenter route by PageDown is the pre-show walk's (test_slides_browser.py)."""
from __future__ import annotations

import re

from ui import nav

from .helpers import assert_clean, open_url, wait_run, wait_settled, watch_runs

# The focused element, and what shows its focus: a radio's or checkbox's input is drawn invisible, so its label
# (the option) carries the outline. "indicator": an outline of at least 2 px or a box-shadow ring; "shown": the
# indicator's centre is inside the window and what is drawn there is the element itself (not the fixed header,
# not another element laid over it).
FOCUS_JS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  const hidden = e.tagName === 'INPUT' && (e.type === 'radio' || e.type === 'checkbox');
  const box = hidden && e.closest('label') ? e.closest('label') : e;
  const s = getComputedStyle(box), r = box.getBoundingClientRect();
  const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2)
            || /\\b([2-9]|\\d{2,})(\\.\\d+)?px\\)?\\s*$|\\s([2-9]|\\d{2,})(\\.\\d+)?px(,|$)/.test(s.boxShadow) && s.boxShadow !== 'none';
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const inside = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  const top = document.elementFromPoint(cx, cy);
  const header = top && top.closest('[data-testid="stHeader"]') && !box.closest('[data-testid="stHeader"]');
  const own = top && (top === box || box.contains(top) || top.contains(box));
  // Its name as assistive technology reads it, near enough: aria-label, its label, or its text less what is
  // hidden from it (Streamlit's icons are ligature text marked aria-hidden).
  const text = n => n.nodeType === 3 ? n.textContent
                    : n.nodeType !== 1 || n.getAttribute('aria-hidden') === 'true' || /^(SCRIPT|STYLE)$/.test(n.tagName)
                    ? '' : Array.from(n.childNodes).map(text).join(' ');
  const name = (e.getAttribute('aria-label') || (e.labels && e.labels[0] && text(e.labels[0]))
                || text(e) || e.getAttribute('title') || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
  return {tag: e.tagName, role: e.getAttribute('role') || e.type || '', name, ring, inside,
          shown: inside && own && !header, w: r.width, h: r.height};
}"""


def focus(page) -> dict | None:
    return page.evaluate(FOCUS_JS)


def assert_visible_focus(info: dict | None, where: str) -> None:
    assert info is not None, f"{where}: Tab left the page (focus on the body)"
    assert info["ring"], f"{where}: no visible focus indicator on {info}"
    assert info["shown"], f"{where}: the focused element is off screen or covered: {info}"


def tab_to(page, name: str | re.Pattern, *, role: str | None = None, back: bool = False, limit: int = 160,
           where: str = "") -> dict:
    """Press Tab (Shift+Tab with `back`) until the focused element is named `name` (and has `role`), checking the
    focus is visible at every stop on the way. Returns the stop."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        info = focus(page)
        assert_visible_focus(info, f"{where} (on the way to {name!r})")
        seen.append(f"{info['role']} {info['name']!r}")
        hit = re.search(name, info["name"]) if isinstance(name, re.Pattern) else info["name"] == name
        if hit and (role is None or info["role"] == role):
            return info
    raise AssertionError(f"{where}: {name!r} not reached in {limit} Tab presses: {seen}")


# A button with a keyboard shortcut shows it after its label ("Next →").
NAMED = {w: re.compile(rf"^{w}\b") for w in ("Next", "Back", "Previous")}


def wait_step(page, n: int) -> None:
    """The stepper shows step `n` (its progress line; step 1 is the default, which the URL leaves out)."""
    page.get_by_text(re.compile(rf"^Step {n} of \d+")).first.wait_for(timeout=30_000)
    wait_settled(page)


def test_story_page_every_stop_shows_focus_and_every_control_works(server, page):
    open_url(page, f"{server}/podium")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "One Recipe Reorders The Podium" in page.title()
    stops: list[dict] = []
    for i in range(200):
        page.keyboard.press("Tab")
        info = focus(page)
        if info is None and stops:
            break  # past the page's last stop: the browser's own UI is next
        assert_visible_focus(info, f"podium, Tab stop {i + 1}")
        stops.append(info)
    else:
        raise AssertionError("200 Tab presses never reached the end of the page")
    names = [s["name"] for s in stops]
    titles = {spec.title for spec in nav.available_pages()}
    reached = {s["name"] for s in stops if s["tag"] == "A"} & titles
    assert len(reached) == len(titles), \
        f"sidebar page links not reached by Tab: {sorted(titles - reached)}; stops {[(s['tag'], s['name']) for s in stops]}"
    assert {"Recipe podium", "Presenter mode"} <= set(names), names
    assert any("Adjust weights" in n for n in names), names

    # Section tabs: the arrow keys move between them (WAI-ARIA tabs), and the tab shows its slide.
    open_url(page, f"{server}/podium")
    tab_to(page, "Recipe podium", role="tab", where="podium")
    page.keyboard.press("ArrowRight")
    watch_runs(page)
    page.keyboard.press("Enter")
    wait_run(page)  # the run the Enter started, not only an idle page (it can start late on a busy machine)
    # The rerun redraws the tab list; keyboardOrder() puts focus back on the selected tab once the old one is gone.
    page.wait_for_function("() => document.activeElement?.getAttribute('role') === 'tab'", timeout=15_000)
    info = focus(page)
    assert info is not None and info["name"] == "Robustness", info
    assert page.get_by_role("tab", name="Robustness").get_attribute("aria-selected") == "true"
    assert_clean(page)

    # The recipe radio: arrows choose another recipe.
    open_url(page, f"{server}/podium")
    weights = page.locator('[data-testid="stPlotlyChart"][aria-label^="Current recipe weights"]').first
    before = weights.get_attribute("aria-label")
    tab_to(page, "holistic", role="radio", where="podium recipe")
    page.keyboard.press("ArrowDown")
    wait_settled(page)
    after = weights.get_attribute("aria-label")
    assert after != before, "ArrowDown on the recipe radio changed nothing"
    assert_visible_focus(focus(page), "podium recipe after ArrowDown")

    # The weights popover opens with Enter; its first slider moves with the arrow keys.
    tab_to(page, "Adjust weights", where="podium weights")
    page.keyboard.press("Enter")
    page.locator('[data-testid="stPopoverBody"] input').first.wait_for(state="visible")  # its controls drawn

    # Tab from its button goes into it (ui/viewport.py keyboardOrder), to its first slider, an <input type=range>.
    slider = tab_to(page, "Accuracy", role="range", limit=3, where="podium weights")
    value = page.evaluate("document.activeElement.value")
    page.keyboard.press("ArrowRight")
    wait_settled(page)
    assert page.evaluate("document.activeElement.value") != value, slider
    # On to its last control, then out: the popover closes and focus goes on to what follows its button.
    tab_to(page, "Toxicity", role="range", limit=20, where="podium weights")
    page.keyboard.press("Tab")
    page.locator('[data-testid="stPopoverBody"]').wait_for(state="hidden")
    assert_visible_focus(focus(page), "podium, past the weights popover")
    assert_clean(page)


def test_stepper_by_keyboard(server, page):
    open_url(page, f"{server}/limits")
    tab_to(page, NAMED["Next"], where="limits")
    page.keyboard.press("Enter")
    wait_step(page, 2)
    assert_visible_focus(focus(page), "limits after Next")
    tab_to(page, NAMED["Back"], back=True, where="limits")
    page.keyboard.press("Enter")
    wait_step(page, 1)
    # The step picker: open with Enter, move with the arrows, choose with Enter.
    tab_to(page, "Jump to step", role="combobox", where="limits picker")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    wait_step(page, 3)
    assert_clean(page)


def test_phone_sidebar_by_keyboard(server, browser):
    """On a phone the sidebar lies over the page: opened from the keyboard, focus goes into it and stays there
    (Tab wraps round it) until it is closed, and then goes back to the button that opens it."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    try:
        open_url(page, f"{server}/coverage")
        tab_to(page, "Expand sidebar", limit=6, where="phone")  # the collapsed sidebar's links are not Tab stops
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement?.getAttribute('aria-label') !== null"
                               " && document.querySelector('[data-testid=stSidebar]').contains(document.activeElement)")
        page.wait_for_function("() => document.querySelector('[data-testid=stSidebar]').getBoundingClientRect().left"
                               " >= 0")  # slid in
        first = focus(page)
        assert first["name"] == "Collapse sidebar", first
        page.keyboard.press("Shift+Tab")  # round to its last control, not out to the covered page
        assert_visible_focus(focus(page), "phone sidebar, Shift+Tab from its first control")
        assert page.evaluate("document.querySelector('[data-testid=stSidebar]').contains(document.activeElement)")
        tab_to(page, "Collapse sidebar", limit=60, where="phone sidebar, round it once")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement?.dataset.testid === 'stExpandSidebarButton'")
        assert_visible_focus(focus(page), "phone, sidebar closed")
        assert_clean(page)
    finally:
        ctx.close()


def test_presenter_bar_popovers_and_live_views_by_keyboard(server, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    extra = []
    try:
        open_url(page, f"{server}/?present=1")
        counter = page.locator(".st-key-present_bar")
        assert re.search(r"Step 1 of \d+", counter.inner_text())
        tab_to(page, NAMED["Next"], where="presenter bar")
        page.keyboard.press("Enter")
        page.wait_for_function("() => /Step 2 of/.test(document.querySelector('.st-key-present_bar').innerText)")
        wait_settled(page)
        tab_to(page, NAMED["Previous"], back=True, where="presenter bar")
        page.keyboard.press("Enter")
        page.wait_for_function("() => /Step 1 of/.test(document.querySelector('.st-key-present_bar').innerText)")
        wait_settled(page)

        # A popover: Enter opens it, Escape closes it and gives focus back to its button.
        body = page.locator('[data-testid="stPopoverBody"]')
        tab_to(page, "Audience", where="presenter bar")
        page.keyboard.press("Enter")
        body.wait_for(state="visible")
        tab_to(page, "Start a live room", where="Audience popover")
        page.keyboard.press("Enter")
        wait_settled(page)
        text = body.inner_text(timeout=15_000)
        follow = re.search(r"https?://\S+\?follow=\w+", text)
        assert follow, text[:500]
        page.keyboard.press("Escape")
        body.wait_for(state="hidden")
        assert focus(page)["name"] == "Audience", focus(page)
        tab_to(page, "Speaker", where="presenter bar")
        page.keyboard.press("Enter")
        link = page.get_by_role("link", name="Open speaker view")
        speaker = link.get_attribute("href", timeout=10_000)
        page.keyboard.press("Escape")
        body.wait_for(state="hidden")

        # The follow view on a phone: Detach, then Rejoin.
        f_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        extra.append(f_ctx)
        fpage = f_ctx.new_page()
        open_url(fpage, server + follow.group(0)[follow.group(0).index("/?"):])
        tab_to(fpage, "Detach", where="follow view")
        fpage.keyboard.press("Enter")
        # The rerun draws Rejoin where Detach was, and focus stays there (ui/viewport.py keyboardOrder).
        fpage.wait_for_function("() => /Rejoin/.test(document.activeElement?.innerText || '')")
        assert_visible_focus(focus(fpage), "follow view, detached")
        fpage.keyboard.press("Enter")
        fpage.wait_for_function("() => /Detach/.test(document.activeElement?.innerText || '')")
        assert_visible_focus(focus(fpage), "follow view, rejoined")

        # The speaker view: Next and Previous move the presenter's screen; Jump takes it to a chosen slide.
        s_ctx = browser.new_context(viewport={"width": 1000, "height": 900})
        extra.append(s_ctx)
        spage = s_ctx.new_page()
        open_url(spage, server + speaker[speaker.index("/speaker"):])
        tab_to(spage, NAMED["Next"], where="speaker view")
        spage.keyboard.press("Enter")
        page.wait_for_function("() => /Step 2 of/.test(document.querySelector('.st-key-present_bar').innerText)",
                               timeout=15_000)
        spage.locator(".st-key-sp_prev button:not([disabled])").wait_for(timeout=15_000)  # its next poll
        tab_to(spage, NAMED["Previous"], back=True, where="speaker view")
        spage.keyboard.press("Enter")
        page.wait_for_function("() => /Step 1 of/.test(document.querySelector('.st-key-present_bar').innerText)",
                               timeout=15_000)
        tab_to(spage, re.compile(r"Jump to"), role="combobox", where="speaker view jump")
        spage.keyboard.press("Enter")
        for _ in range(3):
            spage.keyboard.press("ArrowDown")
        spage.keyboard.press("Enter")
        page.wait_for_function("() => !/Step [12] of/.test(document.querySelector('.st-key-present_bar').innerText)",
                               timeout=15_000)
        for pg in (page, fpage, spage):
            assert_clean(pg)
    finally:
        for c in extra:
            c.close()
        ctx.close()
