"""axe-core (the engine behind Lighthouse; bundled by axe-playwright-python) on the page as it is now drawn: the
WCAG 2.0, 2.1 and 2.2 level A and AA rules, serious and critical violations only.

Used by every browser walk that draws a screen anyway (the desktop and phone sweeps of every page, the presenter
route with its speaker and follow views, the offline handout), so no screen is drawn a second time for it.

`problems(page, where)` returns one line per violated rule: the rule, how many elements, the first element's
selector and markup. A violation in Streamlit's or plotly's own markup that the app cannot change is left out by its
exact selector only, listed in UPSTREAM with the upstream issue; none is needed today."""
from __future__ import annotations

from functools import lru_cache

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
COUNTED = ("serious", "critical")
# The rules whose verdict depends on colours alone: the second theme of a drawing is checked with these (the app's
# markup is the same in both themes; only colours change).
THEME_RULES = ["color-contrast", "link-in-text-block"]

# (rule id, exact CSS selector axe reports) -> the upstream issue that keeps it out of the count.
UPSTREAM: dict[tuple[str, str], str] = {}


@lru_cache(maxsize=1)
def _axe_script() -> str:
    from axe_playwright_python.sync_playwright import Axe

    return Axe().axe_script


def violations(page, rules: list[str] | None = None) -> list[dict]:
    """axe's serious and critical violations on `page`, each {"id", "impact", "help", "nodes": [{target, html}]},
    with the UPSTREAM selectors taken out (a rule left with no element is dropped). `rules`: only these rule ids
    (e.g. ["color-contrast"] for a second theme, where nothing but colour changed), else every rule of TAGS.

    axe is sent to the document once and kept there: a move inside the app keeps the document, so a walk pays
    the 0.5 MB script's parse once per page load, not once per check (axe-playwright-python's Axe.run sends it
    every time)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    run_only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": TAGS}
    response = page.evaluate("o => axe.run(document, o)", {"runOnly": run_only, "resultTypes": ["violations"]})
    found = []
    for v in response["violations"]:
        if v.get("impact") not in COUNTED:
            continue
        nodes = [n for n in v["nodes"]
                 if (v["id"], " ".join(str(t) for t in n["target"])) not in UPSTREAM]
        if nodes:
            found.append({"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": nodes})
    return found


def describe(v: dict) -> str:
    first = v["nodes"][0]
    detail = ""
    data = (first.get("any") or [{}])[0].get("data")
    if v["id"] == "color-contrast" and isinstance(data, dict):
        detail = f" ({data.get('fgColor')} on {data.get('bgColor')}: {data.get('contrastRatio')}:1)"
    return (f"axe {v['impact']} {v['id']} ×{len(v['nodes'])}: {v['help']}; first "
            f"{' '.join(str(t) for t in first['target'])[:160]} {first.get('html', '')[:140]}{detail}")


def problems(page, where: str = "", rules: list[str] | None = None) -> list[str]:
    """One line per serious or critical violation on the drawn `page` (empty: none); `rules` as in violations."""
    prefix = f"{where}: " if where else ""
    return [prefix + describe(v) for v in violations(page, rules)]
