"""Chromium: Metric Orbit's radar draws every group's label inside the chart (the top one used to be cut off by
the chart's 10 px top margin)."""
from __future__ import annotations

from .helpers import assert_clean, open_url

LABELS_JS = """() => {
  const chart = document.querySelector('.st-key-metrics_profile [data-testid="stPlotlyChart"] .main-svg');
  if (!chart) return null;
  const box = chart.getBoundingClientRect();
  const labels = [...chart.parentElement.querySelectorAll('.angularaxistick text')].map(t => {
    const r = t.getBoundingClientRect(); return [t.textContent, r.top, r.bottom, r.left, r.right]; });
  return {box: [box.top, box.bottom, box.left, box.right], labels};
}"""


def test_radar_labels_are_inside_the_chart(server, page):
    open_url(page, f"{server}/metrics?cohort=all")
    assert_clean(page)
    found = page.evaluate(LABELS_JS)
    assert found is not None, "the profile radar is not on the page"
    top, bottom, left, right = found["box"]
    labels = found["labels"]
    assert {t for t, *_ in labels} >= {"Accuracy", "Calibration", "Efficiency"}
    for text, t, b, lft, rgt in labels:
        assert t >= top - 0.5 and b <= bottom + 0.5 and lft >= left - 0.5 and rgt <= right + 0.5, (text, found["box"])
