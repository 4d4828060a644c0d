"""What a screen shows, measured in Chromium: used by the browser tests and by `scripts/check_slides.py`.

- `visual_box(page)`: the slide's main visual (its first plotly chart, else its first table) and whether it is
  fully inside the viewport.
- `chart_texts(page)`: every rendered chart text (ticks, legends, annotations, colour bars, titles, labels): its
  size in px, its box, whether it lies inside its chart's SVG, its fill colour.
- `overlaps(texts)`: pairs of chart texts in one chart whose boxes overlap.
- `sideways(page)`: how far the document (or the main area) scrolls sideways.
- `contrast(...)`: WCAG contrast of a text colour against the page background.
"""
from __future__ import annotations

VISUAL_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return null;
  const vis = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const box = el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
  const chart = [...main.querySelectorAll('[data-testid="stPlotlyChart"]')].find(vis);
  // A table that fits: a Markdown table (ui.components.table), inside its own scroll box when it has one.
  const table = [...main.querySelectorAll('[data-testid="stMarkdownContainer"] table, [data-testid="stDataFrame"]')]
    .find(vis);
  let el = chart || null, kind = chart ? 'chart' : null;
  if (!el && table) {
    kind = 'table';
    el = table;
    for (let p = table.parentElement; p && p !== main; p = p.parentElement) {
      const s = getComputedStyle(p);
      if ((s.overflowY === 'auto' || s.overflowY === 'scroll') && p.clientHeight < p.scrollHeight + 1) { el = p; break; }
    }
  }
  if (!el) return {kind: null};
  const b = box(el);
  return {kind, ...b, inside: b.top >= -1 && b.bottom <= window.innerHeight + 1 && b.left >= -1 && b.right <= window.innerWidth + 1};
}"""

TEXTS_JS = """() => {
  const out = [];
  document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]').forEach((c, ci) => {
    const svgs = [...c.querySelectorAll('svg.main-svg')];
    if (!svgs.length) return;
    const sb = svgs.map(s => s.getBoundingClientRect());
    const frame = {left: Math.min(...sb.map(b => b.left)), top: Math.min(...sb.map(b => b.top)),
                   right: Math.max(...sb.map(b => b.right)), bottom: Math.max(...sb.map(b => b.bottom))};
    c.querySelectorAll('svg.main-svg text').forEach(t => {
      if (t.closest('.hoverlayer') || t.closest('.modebar')) return;
      const txt = (t.textContent || '').trim();
      if (!txt) return;
      const s = getComputedStyle(t);
      if (s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) === 0) return;
      const r = t.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return;
      // The text's own box, turned as it is drawn (rotated tick labels): four corners on the screen.
      let quad = null;
      try {
        const bb = t.getBBox(), m = t.getScreenCTM();
        const pt = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
        quad = [pt(bb.x, bb.y), pt(bb.x + bb.width, bb.y), pt(bb.x + bb.width, bb.y + bb.height), pt(bb.x, bb.y + bb.height)];
      } catch (e) { quad = null; }
      const kind = t.closest('.legend') ? 'legend' : t.closest('.colorbar') ? 'colorbar'
        : t.closest('.annotation') ? 'annotation' : t.closest('.gtitle') || t.classList.contains('gtitle') ? 'title'
        : (t.closest('.xtick') || t.closest('.ytick') || t.closest('.angularaxistick') || t.closest('.radialaxis')) ? 'tick'
        : (t.closest('.g-xtitle') || t.closest('.g-ytitle') || t.classList.contains('xtitle') || t.classList.contains('ytitle')) ? 'axis-title'
        : 'label';
      out.push({chart: ci, key: (c.closest('[class*="st-key-"]') || {className: ''}).className.toString().match(/st-key-([^ ]+)/)?.[1] || '',
                text: txt.slice(0, 60), kind, size: parseFloat(s.fontSize), fill: s.fill,
                box: [r.left, r.top, r.right, r.bottom], quad,
                inside: r.left >= frame.left - 1 && r.top >= frame.top - 1 && r.right <= frame.right + 1 && r.bottom <= frame.bottom + 1});
    });
  });
  return out;
}"""

SIDEWAYS_JS = """() => {
  const d = document.documentElement;
  const main = document.querySelector('[data-testid="stMain"]');
  const over = el => el ? Math.max(0, el.scrollWidth - el.clientWidth) : 0;
  return {document: over(d), body: over(document.body), main: over(main)};
}"""

BACKGROUND_JS = """() => getComputedStyle(document.querySelector('[data-testid="stApp"]') || document.body).backgroundColor"""


def visual_box(page) -> dict | None:
    return page.evaluate(VISUAL_JS)


def chart_texts(page) -> list[dict]:
    return page.evaluate(TEXTS_JS)


def _intersect(a, b, tol: float = 1.0) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > tol and min(a[3], b[3]) - max(a[1], b[1]) > tol


def _quads_overlap(p, q, tol: float = 1.0) -> bool:
    """Two convex quadrilaterals (corner lists) overlap by more than `tol` px (separating axis theorem)."""
    for poly in (p, q):
        for i in range(4):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            norm = (nx * nx + ny * ny) ** 0.5 or 1.0
            nx, ny = nx / norm, ny / norm
            pa = [nx * x + ny * y for x, y in p]
            pb = [nx * x + ny * y for x, y in q]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= tol:
                return False
    return True


def overlaps(texts: list[dict]) -> list[tuple[str, str]]:
    """Pairs of texts of one chart whose boxes overlap by more than a pixel each way."""
    bad = []
    by_chart: dict[int, list[dict]] = {}
    for t in texts:
        by_chart.setdefault(t["chart"], []).append(t)
    for items in by_chart.values():
        for i, a in enumerate(items):
            for b in items[i + 1:]:
                if not _intersect(a["box"], b["box"]):
                    continue
                if a.get("quad") and b.get("quad") and not _quads_overlap(a["quad"], b["quad"]):
                    continue
                if True:
                    bad.append((f"{a['kind']}:{a['text']}", f"{b['kind']}:{b['text']}"))
    return bad


def sideways(page) -> dict:
    return page.evaluate(SIDEWAYS_JS)


def _rgb(css: str) -> tuple[float, float, float] | None:
    import re

    m = re.match(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)", css or "")
    return tuple(float(x) for x in m.groups()) if m else None


def _lum(rgb) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(fg_css: str, bg_css: str) -> float | None:
    fg, bg = _rgb(fg_css), _rgb(bg_css)
    if fg is None or bg is None:
        return None
    a, b = _lum(fg), _lum(bg)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def background(page) -> str:
    return page.evaluate(BACKGROUND_JS)


def problems(page, mode: str, min_size: float | None = None) -> list[str]:
    """What is wrong with the screen for `mode` ("presenter", "desktop", "phone"), once it has held still: a
    problem seen while a chart is still being laid out (plotly redraws a chart when its container settles on its
    width, and the theme's colours arrive) is looked at again 0.8 s later, and only what is still wrong counts."""
    found = _problems(page, mode, min_size)
    if found:
        page.wait_for_timeout(800)
        found = _problems(page, mode, min_size)
    return found


def _problems(page, mode: str, min_size: float | None) -> list[str]:
    out = []
    texts = chart_texts(page)
    if mode == "presenter":
        vb = visual_box(page)
        if not vb or not vb.get("kind"):
            out.append("no chart or table on the slide")
        elif not vb["inside"]:
            out.append(f"the {vb['kind']} is not fully on screen (top {vb['top']:.0f}, bottom {vb['bottom']:.0f})")
        small = [t for t in texts if t["size"] < (min_size or 16) - 0.01 and t["kind"] != "label-hidden"]
        if small:
            out.append("chart text under 16 px: " + ", ".join(f"{t['kind']} '{t['text']}' {t['size']:.0f}px"
                                                             for t in small[:6]))
        bg = background(page)
        low = [t for t in texts if (c := contrast(t["fill"], bg)) is not None and c < 4.5 and t["kind"] != "label"]
        if low:
            out.append("chart text under 4.5:1 contrast: " + ", ".join(f"'{t['text']}' {t['fill']}" for t in low[:4]))
    if mode == "phone":
        sw = sideways(page)
        if max(sw.values()) > 1:
            out.append(f"scrolls sideways: {sw}")
    outside = [t for t in texts if not t["inside"]]
    if outside:
        out.append("chart text outside its chart: " + ", ".join(f"{t['kind']} '{t['text']}'" for t in outside[:6]))
    clash = overlaps(texts)
    if clash:
        out.append(f"{len(clash)} overlapping chart texts, e.g. " + "; ".join(f"{a} × {b}" for a, b in clash[:4]))
    return out
