"""The app's colours: one meaning per colour, legible on the light and the dark theme, colour-blind safe.

Semantic colours carry a meaning wherever they appear (a chart mark, a badge, a table highlight). Each is one hex
that keeps a contrast of at least 3:1 against both of Streamlit's backgrounds (white, and the dark theme's
#0E1117), so a mark never vanishes when a viewer switches theme; tests/core/test_palette.py checks that, and that
the colours stay apart under simulated protanopia, deuteranopia and tritanopia.

`INK` is the one exception: the theme's own text colour, for marks that must stand out most (the highlighted top
three, a selected point). Builders use the light value; ui.stage swaps it for the dark one on the dark theme.

Categorical series (several models in one chart, the seven metric groups as series) take `SERIES`, whose colours
say only "series k" and are named in each chart's legend.
"""
from __future__ import annotations

# ----------------------------------------------------------------------------- semantic colours
DATA = "#0072B2"        # a measured value: HELM's data (blue)
NEUTRAL = "#767676"     # no value / blank / unchanged / context (grey)
CLAIM = "#AA4499"       # a number the 2022 paper states (purple)
UP = "#009E73"          # moved up, better than (bluish green)
DOWN = "#D55E00"        # moved down, worse than (vermillion)
GAP = DOWN              # a calibration gap is "worse than the diagonal": the same meaning, the same colour
HIGHLIGHT = "#31333F"   # = INK: the recipe's top three, a selected point (theme text colour; see ui.stage)
INK = HIGHLIGHT
INK_DARK = "#FAFAFA"

# The bundled releases (Moving Targets): one hue each, used for nothing else.
RELEASE = {
    "classic": "#B26B00",       # dark orange
    "lite": "#999933",          # olive
    "capabilities": "#CC79A7",  # reddish purple (light)
}

# Harm risk on the cost page: low blue, middle purple, high vermillion. Every stop keeps 3:1 against both
# backgrounds (no grey or pale middle that vanishes), and the ends stay apart under every simulated colour-vision
# deficiency (blue against yellow-brown for deuteranopes and protanopes).
HARM_SCALE = [[0.0, "#0072B2"], [0.5, "#AA4499"], [1.0, "#D55E00"]]

# ----------------------------------------------------------------------------- series (identity only)
SERIES = ["#0072B2", "#D55E00", "#009E73", "#AA4499", "#B26B00", "#999933", "#CC79A7", "#767676"]

# Badges (st.badge / :color-badge[...]) name Streamlit's colour words; the same meanings.
BADGE = {
    "data": "blue",
    "neutral": "gray",
    "claim": "violet",
    "up": "green",
    "down": "red",
    "highlight": "orange",
}

# Backgrounds the semantic colours must read on (Streamlit's light and dark themes).
BACKGROUNDS = {"light": "#FFFFFF", "dark": "#0E1117"}
TEXT = {"light": INK, "dark": INK_DARK}
SEMANTIC = {"DATA": DATA, "NEUTRAL": NEUTRAL, "CLAIM": CLAIM, "UP": UP, "DOWN": DOWN,
            **{f"RELEASE_{k}": v for k, v in RELEASE.items()}}


def luminance(hex_colour: str) -> float:
    """Relative luminance (WCAG 2.x) of a #RRGGBB colour."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #RRGGBB colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def for_theme(colour: str, theme: str) -> str:
    """The colour to draw on `theme`: INK becomes the dark theme's text colour there; every other colour is
    legible on both themes as it is."""
    if theme == "dark" and colour.upper() == INK.upper():
        return INK_DARK
    return colour
