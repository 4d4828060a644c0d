"""The viewer's screen and theme: presenter mode, a phone probe, the light/dark choice kept in the URL, and the
page's CSS.

Presenter mode is a session flag (`PRESENTER_KEY`) that ui.presenter sets from the URL and its controls; every
layer reads it here (`presenting`, `screen`), so the shared page pieces never import the presenter's bar.

Phone: a tiny Streamlit component (components v2, inline JavaScript, no network) reports whether the window is at
most PHONE_MAX px wide. It sends a value only when that differs from what the session already has, so a desktop
visit runs once as before and a phone's first visit runs once more, in phone layout; a rotation or a resize across
the line reruns too. The same component keeps popovers and the sidebar in the keyboard's order (`keyboardOrder`).

Theme: the viewer's choice (system, light or dark) is the URL's `theme=`; Streamlit's own `embed_options=light_theme`
/ `dark_theme` URL option is what its frontend reads when a page loads, so choosing a theme writes both and reloads
the page (every other choice is in the URL too). `system` (the default) follows the browser. What the frontend
actually shows is `st.context.theme.type`, which charts use for their text colour.
"""
from __future__ import annotations

import streamlit as st

from . import state

PHONE_MAX = 480
PRESENTER_KEY = "presenter"
THEMES = ("system", "light", "dark")
_PROBE_KEY = "_viewport"

_PROBE_JS = """
export default function(component) {
  const { setStateValue, data } = component;
  const limit = (data && data.limit) || 480;
  const known = data && data.bucket;
  const report = () => {
    const bucket = window.innerWidth <= limit ? "phone" : "wide";
    if (bucket !== known) { setStateValue("bucket", bucket); }
  };
  report();
  let timer = null;
  const onResize = () => { clearTimeout(timer); timer = setTimeout(report, 250); };
  window.addEventListener("resize", onResize);
  keyboardOrder();
  return () => window.removeEventListener("resize", onResize);
}

// Keyboard order, installed once per window (`keyboardOrder`), where Streamlit's own left focus behind what shows:
// - a popover's body is drawn at the end of the document (a floating layer), so Tab from its button went on through
//   the page behind it and its controls came last. Tab on an open popover's button goes into the popover; Tab past
//   its last control closes it and goes on to what follows the button; Shift+Tab from its first control goes back
//   to the button (the order a body placed right after its button would have);
// - the sidebar opened from the keyboard took focus nowhere (its button is gone): focus goes to its first control,
//   and back to the button that opens it when it closes. Where it lies over the page (a phone), Tab stays in it
//   until it is closed, so focus never goes to what it covers;
// - a rerun that redraws the focused control keeps focus where it was (below).
function keyboardOrder() {
  if (window.__helmKeyboardOrder) return;
  window.__helmKeyboardOrder = true;
  const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), '
                  + 'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
  const stops = root => Array.from(root.querySelectorAll(FOCUSABLE)).filter(e => {
    if (!e.getClientRects().length || e.closest('[inert]') || getComputedStyle(e).visibility === 'hidden') return false;
    // A radio group is one stop: its checked radio (or its first, when none is).
    if (e.type === 'radio' && e.name) {
      const group = Array.from(root.querySelectorAll('input[type="radio"]')).filter(r => r.name === e.name);
      return e === (group.find(r => r.checked) || group[0]);
    }
    return true;
  });
  const shown = sel => Array.from(document.querySelectorAll(sel)).find(e => e.getClientRects().length);
  const sidebar = () => document.querySelector('[data-testid="stSidebar"]');
  const lost = () => !document.activeElement || document.activeElement === document.body;
  const overlays = bar => {
    const main = document.querySelector('[data-testid="stMain"]');
    return main && bar.getBoundingClientRect().right > main.getBoundingClientRect().left + 1;
  };
  document.addEventListener("keydown", ev => {
    if (ev.key !== "Tab" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const here = document.activeElement;
    const button = shown('[data-testid="stPopoverButton"][aria-expanded="true"]');
    const body = shown('[data-testid="stPopoverBody"][role="dialog"]');
    const inside = button && body ? stops(body) : [];
    let to = null;
    if (inside.length) {
      if (here === button && !ev.shiftKey) to = inside[0];
      else if (here === inside[0] && ev.shiftKey) to = button;
      else if (here === inside[inside.length - 1] && !ev.shiftKey) {
        to = stops(document).find(e => !body.contains(e) && !button.contains(e)
                                       && (button.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)) || null;
        // Leaving forward closes the popover (its button toggles it), so what takes focus is not under it.
        if (to) button.click();
      }
    } else {
      const bar = sidebar();
      if (bar && bar.dataset.collapsed === "false" && overlays(bar) && bar.contains(here)) {
        const own = stops(bar);
        if (own.length && here === own[own.length - 1] && !ev.shiftKey) to = own[0];
        else if (own.length && here === own[0] && ev.shiftKey) to = own[own.length - 1];
      }
    }
    if (!to) return;
    ev.preventDefault();
    to.focus();
  }, true);
  // The sidebar opening or closing: focus into it, or back to its opening button, when focus was lost.
  let watched = null;
  const watch = () => {
    const bar = sidebar();
    if (!bar || bar === watched) return;
    watched = bar;
    new MutationObserver(() => {
      if (!lost()) return;
      const target = bar.dataset.collapsed === "false" ? stops(bar)[0]
                     : shown('[data-testid="stExpandSidebarButton"]');
      if (target) target.focus();
    }).observe(bar, { attributes: true, attributeFilter: ["data-collapsed"] });
  };
  // A rerun that replaces the focused element (a button that becomes another, as Detach becomes Rejoin; tabs drawn
  // again) dropped focus to the page's start. Focus goes to the same place: the innermost keyed box (Streamlit's
  // `st-key-…` class) of the lost element that is still on the page: its chosen tab, or its first control.
  let last = null, keys = [];
  document.addEventListener("focusin", ev => {
    last = ev.target;
    keys = [];
    for (let e = ev.target; e && e !== document.body; e = e.parentElement) {
      for (const c of e.classList || []) if (c.startsWith("st-key-")) keys.push(c);
    }
  }, true);
  const restore = () => {
    if (!last || last.isConnected || !lost()) return;
    for (const k of keys) {
      const box = Array.from(document.getElementsByClassName(k)).find(e => e.getClientRects().length);
      const to = box && (box.querySelector('[role="tab"][aria-selected="true"]') || stops(box)[0]);
      if (to) { last = null; to.focus(); return; }
    }
  };
  watch();
  new MutationObserver(() => { watch(); restore(); }).observe(document.body, { childList: true, subtree: true });
}
"""

_probe = None


def _component():
    global _probe
    if _probe is None:
        import streamlit.components.v2 as v2

        _probe = v2.component("helm_viewport_probe", js=_PROBE_JS)
    return _probe


def probe() -> None:
    """Mount the phone probe (call once per run, from Home.py). Its value is read by `mode()`."""
    known = _bucket()
    try:
        _component()(key=_PROBE_KEY, data={"bucket": known, "limit": PHONE_MAX}, height=0)
    except Exception:  # noqa: BLE001 - a frontend without custom components (AppTest): desktop layout
        pass


def _bucket() -> str:
    value = st.session_state.get(_PROBE_KEY)
    got = value.get("bucket") if isinstance(value, dict) or hasattr(value, "get") else None
    return got if got in ("phone", "wide") else "wide"


def mode() -> str:
    """"phone" when the window is at most PHONE_MAX px wide, else "desktop"."""
    return "phone" if _bucket() == "phone" else "desktop"


def presenting() -> bool:
    """Presenter mode is on in this session."""
    return bool(st.session_state.get(PRESENTER_KEY, False))


def screen() -> str:
    """The screen a page is laid out for: "presenter", else `mode()` ("phone" or "desktop")."""
    return "presenter" if presenting() else mode()


def theme() -> str:
    """The theme the frontend shows ("light" or "dark"). While the viewer has chosen none (system), that is the
    configured base theme (.streamlit/config.toml) whatever the browser prefers, and st.context would report the
    browser's preference on a session's first run (streamlit#11920: dark chart text on a light page); otherwise
    what st.context reports."""
    if st.session_state.get("_theme_applied") in (None, "system"):
        try:
            base = st.get_option("theme.base")
        except Exception:  # noqa: BLE001 - no config (a bare script)
            base = None
        if base in ("light", "dark"):
            return base
    try:
        t = st.context.theme.type
    except Exception:  # noqa: BLE001 - no frontend context (AppTest, a script)
        t = None
    return t if t in ("light", "dark") else "light"


# ----------------------------------------------------------------------------- the theme choice

def _apply_theme_js(choice: str) -> str:
    # A constant script per choice (no visitor text goes in): sets the frontend's own embed option to match the
    # choice and reloads once; the URL keeps `theme=` for the server.
    option = {"light": "light_theme", "dark": "dark_theme"}.get(choice, "")
    return f"""<script>
(function () {{
  const w = window.parent || window;
  const url = new URL(w.location.href);
  const want = "{option}";
  const have = url.searchParams.getAll("embed_options").filter(v => v === "light_theme" || v === "dark_theme");
  if ((want && have.length === 1 && have[0] === want) || (!want && have.length === 0)) return;
  url.searchParams.delete("embed_options");
  if (want) url.searchParams.append("embed_options", want);
  w.location.replace(url.toString());
}})();
</script>"""


def theme_control() -> None:
    """The sidebar's theme choice, in the URL as `theme=`; applied through Streamlit's embed option."""
    state.allow("theme", THEMES)
    choice = st.segmented_control("Theme", THEMES, default="system", key="theme", bind="query-params",
                                  required=True,
                                  help="Light or dark for every page; system follows your browser. Kept in the "
                                       "link, so a shared link opens in the same theme.")
    choice = choice if choice in THEMES else "system"
    before = st.session_state.get("_theme_applied")
    st.session_state["_theme_applied"] = choice
    # A link that names a theme, or a new choice: make the frontend show it (a reload, once). A visit that never
    # chose one follows the system and runs no script.
    if before != choice and (before is not None or "theme" in st.query_params):
        st.html(_apply_theme_js(choice), unsafe_allow_javascript=True)


# ----------------------------------------------------------------------------- page CSS (every mode)

PAGE_CSS = """
<style>
[class*="st-key-cookie_js"] { display: none; }
/* The slide's point: the sentence a presenter says out loud. */
[class*="st-key-slide_point_"] [data-testid="stMarkdownContainer"] p {
  font-size: 1.35rem; font-weight: 600; line-height: 1.35; margin-bottom: 0.2rem; }
/* The sidebar's page list (ui/nav.py): section headings as small labels, links close together. */
.st-key-app_nav h3 { font-size: 0.8rem; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase;
  padding: 0.6rem 0 0.1rem 0; margin: 0; }
.st-key-app_nav [data-testid="stHeading"] [data-testid="stMarkdownContainer"] { margin-bottom: 0; }
.st-key-app_nav { gap: 0.1rem; }
/* Keyboard focus, visible on both themes (#0072B2: 5.2:1 on white, 3.6:1 on the dark background), and never
   under Streamlit's fixed header when the browser scrolls a focused element into view. */
:focus-visible { outline: 3px solid #0072B2 !important; outline-offset: 2px; }
/* A radio's or checkbox's input is drawn invisible (the circle or box beside it is what shows): the outline goes
   round the whole option. */
label:has(input[type="radio"]:focus-visible, input[type="checkbox"]:focus-visible) { outline: 3px solid #0072B2; outline-offset: 2px; border-radius: 0.25rem; }
[data-testid="stMain"] { scroll-padding-top: 4.5rem; scroll-padding-bottom: 1rem; }
/* A collapsed sidebar is moved off screen, but its links and controls stayed in the Tab order (on a phone and in
   presenter mode): focus went to what nobody can see. Hidden, it leaves the Tab order until it is opened. */
[data-testid="stSidebar"][data-collapsed="true"], [data-testid="stSidebar"][data-collapsed="true"] * { visibility: hidden !important; }
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { animation-duration: 0.01ms !important; animation-iteration-count: 1 !important;
    transition-duration: 0.01ms !important; scroll-behavior: auto !important; }
}
/* A caption is faded by opacity in Streamlit, which fades what it holds too (a badge, code: 3:1). Fade its text
   colour instead (60 % of the theme's text, as before), so a badge or code in a caption keeps its own contrast. */
[data-testid="stCaptionContainer"] { opacity: 1 !important; color: color-mix(in srgb, currentColor 60%, transparent); }
/* A multiselect's chosen items: white on the light primary in both themes (6.3:1); on the dark theme's lighter
   primary, Streamlit's white text read at 2.3:1. */
[data-testid="stMultiSelectTagsContainer"] [data-tag] { background-color: #00659E !important; color: #ffffff !important; }
/* Tables never push the page sideways: a wide one scrolls inside its own box. */
[data-testid="stMain"] [data-testid="stMarkdownContainer"] table { display: block; max-width: 100%; overflow-x: auto; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] { overflow-wrap: anywhere; }
[data-testid="stMain"] [data-testid="stMarkdownContainer"] td, [data-testid="stMain"] [data-testid="stMarkdownContainer"] th { overflow-wrap: normal; }
@media (max-width: 480px) {
  [data-testid="stMain"] .block-container { padding-left: 0.75rem; padding-right: 0.75rem; }
  [data-testid="stMain"] h1 { font-size: 1.7rem; }
  [class*="st-key-slide_point_"] [data-testid="stMarkdownContainer"] p { font-size: 1.1rem; }
  /* Number cards two to a row. */
  .st-key-slide_cards { flex-wrap: wrap; }
  .st-key-slide_cards > div { flex: 1 1 calc(50% - 0.5rem) !important; min-width: calc(50% - 0.5rem) !important; max-width: calc(50% - 0.25rem); }
  [data-testid="stMain"] [data-testid="stHorizontalBlock"] { flex-wrap: wrap; }
  [data-testid="stMain"] pre, [data-testid="stMain"] code { white-space: pre-wrap; word-break: break-word; }
}
</style>
"""


def page_css() -> None:
    st.html(PAGE_CSS)
