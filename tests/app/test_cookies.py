"""ui/cookies.py: only names and values that pass the patterns reach the page's script or are read back."""
from __future__ import annotations

from unittest import mock

import pytest

from ui import cookies

GOOD = "a" * 32


@pytest.mark.parametrize("name, value", [
    ("helm_follower", '";alert(1);"' + "a" * 20),  # a value that would leave the string
    ("helm_follower", "short"),                      # too short to be an id
    ("helm_follower", "a" * 65),                     # too long
    ("helm follower", GOOD),                         # not a name of this app
    ("other", GOOD),
    ("helm_x=1; path", GOOD),
])
def test_script_refuses_what_fails_the_patterns(name, value):
    with pytest.raises(ValueError):
        cookies.script(name, value)


@pytest.mark.parametrize("value, want", [
    (GOOD, f'helm_follower={GOOD}; path=/; SameSite=Strict"'),
    (None, 'helm_follower=; path=/; SameSite=Strict; max-age=0"'),
])
def test_script_sets_or_removes(value, want):
    assert want in cookies.script("helm_follower", value)


class _Context:
    def __init__(self, jar):
        self.cookies = jar


@pytest.mark.parametrize("jar, want", [
    ({"helm_follower": GOOD}, GOOD),
    ({"helm_follower": "<script>" + "a" * 20}, None),
    ({"helm_follower": "a" * 8}, None),
    ({}, None),
])
def test_read_keeps_only_values_that_pass(jar, want):
    with mock.patch.object(cookies.st, "context", _Context(jar)):  # not monkeypatch: that clears every cache
        assert cookies.read("helm_follower") == want


def test_read_without_a_browser_is_none():
    class NoBrowser:
        @property
        def cookies(self):
            raise RuntimeError("no script run context")

    with mock.patch.object(cookies.st, "context", NoBrowser()):
        assert cookies.read("helm_room") is None
