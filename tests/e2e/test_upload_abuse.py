"""Upload abuse against a real server: a zip bomb, path traversal, a symlink, a 0-byte file, random bytes with
a .zip name, a 50 MB JSON, a member stored twice. Each is refused with a clear message on the data page, another visitor's session
keeps working meanwhile, and the server's memory stays bounded. Names full of Markdown and HTML syntax, Infinity and
NaN cells and a table titled "" load instead, and read literally on the data page and the leaderboard."""
from __future__ import annotations

import io
import os
import stat
import threading
import warnings
import zipfile

import pytest

from bench.browser import rss_mb
from tests import hostile_names as H

from .conftest import serving
from .helpers import NAV, assert_clean, open_url, wait_settled

# Server RSS may grow by at most this much over the whole sequence (seen: +42 MB; Streamlit keeps the last
# upload of a session in memory, 50 MB here; uploads are parsed one at a time, each file within
# helm_output's per-file limits, and an oversized .json is refused by its size before it is read).
RSS_GROWTH_LIMIT_MB = 150


def _zip(members: list[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns on a name written twice (the "twice" case)
        for info, data in members:
            z.writestr(info, data)
    return buf.getvalue()


def _symlink_zip() -> bytes:
    info = zipfile.ZipInfo("demo/run/stats.json")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return _zip([(info, b"/etc/passwd"), ("demo/run/run_spec.json", b"{}")])


def _bomb() -> bytes:
    # 20 members of 30 MB of zeros: under the per-file limit each, 600 MB together, about 600 KB packed.
    zeros = b"0" * 30_000_000
    return _zip([(f"demo/run{i}/stats.json", zeros) for i in range(20)])


CASES = [
    ("bomb.zip", _bomb, "the archive unpacks to 600.0 MB, over the limit of 500.0 MB"),
    ("traversal.zip", lambda: _zip([("../../etc/stats.json", b"[]")]), "points outside the archive"),
    ("link.zip", _symlink_zip, "is a symbolic link; links are not accepted"),
    ("empty.zip", lambda: b"", "file is empty (0 bytes)"),
    ("random.zip", lambda: os.urandom(200_000), "not a readable zip archive"),
    ("huge.json", lambda: b"[" + b"{}," * 16_666_666 + b"{}]", "50.0 MB of JSON is over the per-file limit"),
    ("twice.zip", lambda: _zip([("demo/run/run_spec.json", b"{}"), ("demo/run/stats.json", b"[]"),
                                ("demo/run/stats.json", b"[1]")]), "is stored twice in the archive"),
]


@pytest.fixture(scope="module")
def own_server():
    """A server of this module's own, so its memory is this test's alone."""
    with serving() as proc:
        yield proc.url, proc.pid


def test_each_abusive_upload_is_refused_while_others_keep_working(own_server, browser, tmp_path):
    base, pid = own_server
    abuser_ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    bystander_ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    abuser, bystander = abuser_ctx.new_page(), bystander_ctx.new_page()
    try:
        open_url(bystander, base)  # warm the caches: the baseline is a server that has served a page
        open_url(abuser, f"{base}/data")
        baseline = rss_mb(pid)
        samples = [baseline]
        done = threading.Event()

        def sample() -> None:  # the server's RSS every 50 ms, so a short spike during a parse is seen too
            while not done.wait(0.05):
                samples.append(rss_mb(pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        for name, make, message in CASES:
            path = tmp_path / name
            path.write_bytes(make())
            abuser.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
            alert = abuser.locator('[data-testid="stAlert"]').filter(has_text=message)
            alert.wait_for(timeout=90_000)
            wait_settled(abuser)
            assert_clean(abuser)
            assert "Could not load this upload" in alert.inner_text(), name
            assert "keeps showing HELM classic v0.4.0" in alert.inner_text(), name
            # Meanwhile another visitor's session works, on the bundled data.
            open_url(bystander, f"{base}/?cohort=paper")
            assert_clean(bystander)
            models = bystander.locator('[data-testid="stMetric"]').filter(has_text="Models").first.inner_text()
            assert "28" in models, (name, models)
        done.set()
        sampler.join(timeout=5)
        peak = max(samples)
        growth = peak - baseline
        print(f"\nupload abuse: server RSS {baseline:.0f} MB before, peak {peak:.0f} MB (+{growth:.0f} MB)")
        assert growth < RSS_GROWTH_LIMIT_MB, f"server RSS grew by {growth:.0f} MB ({baseline:.0f} → {peak:.0f})"
    finally:
        abuser_ctx.close()
        bystander_ctx.close()


@pytest.mark.parametrize("name, make", [("hostile.zip", H.groups_zip), ("core_scenarios.json", H.groups_json)])
def test_hostile_names_and_values_load_and_read_literally(own_server, browser, tmp_path, name, make):
    """A zip (and a lone groups file) whose model, scenario, metric and table names hold `_ * [ ] < > & | $ ~`, with
    an Infinity and a NaN cell and a table HELM titled "": it loads; on the data page and the leaderboard every name
    reads as the loader holds it (no `&#95;`, `&lt;` or other entity, no stray backslash, no bold or struck text made
    of it), and the Infinity is named as left out."""
    base, _ = own_server
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    try:
        open_url(page, f"{base}/data")
        path = tmp_path / name
        path.write_bytes(make())
        page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(path))
        page.get_by_text(f"Now showing: Your HELM output ({name})").wait_for(timeout=60_000)
        wait_settled(page)
        assert_clean(page)
        main = page.locator('[data-testid="stMain"]')
        shown = main.inner_text().replace("\u2060", "")
        assert not [e for e in H.ENTITIES if e in shown] and "\\" not in shown
        assert H.SCENARIO in shown
        assert "1 value HELM could not have produced was left out" in shown and "= Infinity" in shown
        assert main.locator("strong, em, del, a, img").filter(has_text="v2").count() == 0
        nav = page.locator(NAV)
        nav.get_by_role("link", name="HELM's Leaderboard").first.click()
        page.wait_for_timeout(300)
        wait_settled(page)
        assert_clean(page)
        shown = main.inner_text().replace("\u2060", "")
        assert not [e for e in H.ENTITIES if e in shown] and "\\" not in shown
        tabs = [t.strip().replace("\u2060", "") for t in main.locator('[role="tab"]').all_inner_texts()]
        assert tabs == [H.TITLE, H.SCENARIO]
        assert f"puts {H.MODEL} first of 2 models" in shown
    finally:
        ctx.close()
