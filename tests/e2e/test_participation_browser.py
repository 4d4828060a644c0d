"""Chromium: the room takes part. A presenter (1280 × 720), a speaker view and three followers (one at 390 × 844),
each in its own browser context, on the group's shared server:

- the presenter opens the grid slide's own question from the bar (Ask); every follower answers on its screen; a
  follower's second answer is refused with a message; the presenter's stage counts them; the speaker view reveals
  it and every screen shows the distribution beside the true value (14 of the 112 cells are blank);
- the speaker view opens a poll; the followers vote; the presenter's stage counts them;
- a follower asks a question with hostile text, another upvotes it, the speaker view sees it by votes and marks it
  answered; the text shows literally everywhere (no element made from it);
- a follower that reloads is the same follower (one answer still); a presenter's window that reloads keeps its room.
"""
from __future__ import annotations

import re

from .helpers import assert_clean, dump_pages, open_url, wait_settled
from .test_showtime_browser import _context, _start_room

HOSTILE = "<img src=x onerror=alert(1)> **bold** [link](https://evil.example)"


# Visitor text is shown literally; an invisible word joiner (U+2060) after "https" keeps a bare address from
# becoming a link (helm_core.escape), so the page's text is compared without it.


def _text(page, key: str) -> str:
    return page.evaluate("s => (document.querySelector(s) || {}).innerText || ''", f".st-key-{key}")


def _wait_text(page, key: str, pattern: str, timeout_ms: int = 30_000) -> str:
    page.wait_for_function("([s, p]) => new RegExp(p).test((document.querySelector(s) || {}).innerText || '')",
                           arg=[f".st-key-{key}", pattern], timeout=timeout_ms)
    return _text(page, key)


def _answer_slider(page, presses: int) -> None:
    box = page.locator(".st-key-live_follow")
    thumb = box.get_by_role("slider")
    thumb.focus()
    thumb.press("Home")
    for _ in range(presses):
        thumb.press("ArrowRight")
    box.get_by_role("button", name="Send").click()


def test_predict_reveal_poll_and_questions(server, browser):
    contexts = []
    try:
        pctx, presenter = _context(browser)
        contexts.append(pctx)
        open_url(presenter, f"{server}/grid?present=1")
        follow, speaker = _start_room(presenter)
        sctx, spk = _context(browser, 1000, 1000)
        contexts.append(sctx)
        open_url(spk, speaker)
        followers = []
        for i in range(3):
            fctx, fp = _context(browser, *((390, 844) if i == 0 else (1400, 900)))
            contexts.append(fctx)
            open_url(fp, follow)
            followers.append(fp)

        # Predict, then reveal: the grid slide's own question, from the bar.
        presenter.get_by_role("button", name="Ask").click()
        presenter.get_by_role("button", name=re.compile("how many are blank")).click()
        wait_settled(presenter)
        presenter.keyboard.press("Escape")
        for fp, presses in zip(followers, (14, 15, 40)):
            _wait_text(fp, "live_follow", "how many are blank")
            _answer_slider(fp, presses)
            _wait_text(fp, "live_follow", "Your answer is in")
        followers[0].locator(".st-key-live_follow").get_by_role("button", name="Send").click()
        assert "answered this question already" in _wait_text(followers[0], "live_follow", "already")
        # A reload is the same follower (its id is in the browser's session cookie): still one answer.
        followers[1].reload()
        wait_settled(followers[1])
        _wait_text(followers[1], "live_follow", "how many are blank")
        _answer_slider(followers[1], 3)
        assert "answered this question already" in _wait_text(followers[1], "live_follow", "already")
        _wait_text(presenter, "live_stage", r"\b3 answers so far")
        spk.get_by_role("button", name="Reveal").click()
        line = "3 answers; median guess 15; true value 14; 2 of 3 within 10 % (±1.4)."
        assert line in _wait_text(presenter, "live_stage", re.escape(line))
        for fp in followers:
            assert line in _wait_text(fp, "live_follow", re.escape(line))
            fp.wait_for_timeout(2500)  # two more ticks of the panel: nothing of the answer form is left
            assert fp.locator(".st-key-live_follow").get_by_role("button", name="Send").count() == 0
        assert presenter.locator(".st-key-live_stage .js-plotly-plot").count() == 1

        # A poll from the speaker view.
        spk.get_by_text("A poll or a word answer").click()
        spk.get_by_label("Question").fill("Which slide should come back?")
        spk.get_by_label("Options, one per line").fill("Grid\nPodium")
        spk.get_by_label("Options, one per line").press("Control+Enter")
        spk.get_by_role("button", name="Open the poll").click()
        for i, fp in enumerate(followers):
            _wait_text(fp, "live_follow", "Which slide should come back")
            box = fp.locator(".st-key-live_follow")
            box.get_by_text("Podium" if i == 0 else "Grid", exact=True).click()
            box.get_by_role("button", name="Send").click()
            _wait_text(fp, "live_follow", "Your answer is in")
        _wait_text(presenter, "live_stage", r"\b3 answers so far")
        # The presenter's window reloads: its room and the poll's count are still there.
        presenter.reload()
        wait_settled(presenter)
        _wait_text(presenter, "live_stage", r"\b3 answers so far")
        presenter.get_by_role("button", name="Audience").click()
        assert presenter.get_by_text("End the room").count() == 1
        presenter.keyboard.press("Escape")

        # Questions from the room: asked with hostile text, upvoted, answered.
        asker, voter = followers[1], followers[2]
        asker.get_by_text("Questions from the room").click()
        asker.get_by_label("Ask the presenter").fill(HOSTILE)
        asker.get_by_label("Ask the presenter").press("Enter")
        asker.get_by_role("button", name="Ask", exact=True).click()
        asker.wait_for_function("t => document.body.innerText.replaceAll('\u2060', '').includes(t)", arg=HOSTILE, timeout=30_000)
        voter.get_by_text("Questions from the room").click()
        voter.wait_for_function("t => document.body.innerText.replaceAll('\u2060', '').includes(t)", arg=HOSTILE, timeout=30_000)
        voter.get_by_role("button", name="▲ 1").click()
        spk.wait_for_function("t => document.body.innerText.replaceAll('\u2060', '').includes('▲ 2 · ' + t)", arg=HOSTILE, timeout=30_000)
        spk.get_by_role("button", name="Answered").first.click()
        asker.wait_for_function("t => document.body.innerText.replaceAll('\u2060', '').includes(t + ' · answered')", arg=HOSTILE,
                                timeout=30_000)
        for pg in (asker, voter, spk):
            assert pg.locator("img[src='x']").count() == 0 and pg.locator("a[href*='evil.example']").count() == 0
        for pg in (presenter, spk, *followers):
            assert_clean(pg)
    except BaseException:
        dump_pages("test_predict_reveal_poll_and_questions", [pg for c in contexts for pg in c.pages])
        raise
    finally:
        for c in contexts:
            c.close()
