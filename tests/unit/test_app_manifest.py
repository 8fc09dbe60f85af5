"""The installable app's manifest, icons and page tags (py_lessons/plugin/app_manifest.py), checked
on what is written: the JSON a browser reads and the icons' pixels."""

from __future__ import annotations

import json
import math

import pytest
from PIL import Image

from py_lessons.plugin.base import dependencies
from py_lessons.plugin.ship.app_manifest import AppManifest, first_letter, write_app
from py_lessons.plugin.base.fonts import convert_font
from py_lessons.plugin.base.fonts import PLOT_FONT, plot_fonts

THEME = "#2e7d32"
# drawn on the test icons: "ম"'s headline spans its whole box, so the box's top corners carry ink
# and a letter drawn too large for the maskable safe zone shows
LETTER = "ম"
APP = AppManifest.for_site("পাঠশালা — মেশিন লার্নিং", description="একটি কোর্স", theme_color=THEME, icon_text=LETTER)


@pytest.fixture(scope="module")
def bangla_font(tmp_path_factory):
    """The TrueType Bangla font, made as the build makes it (from the plugin's npm font package)."""
    ttf = tmp_path_factory.mktemp("font") / PLOT_FONT[0]
    convert_font(plot_fonts(dependencies.node_modules())[PLOT_FONT[0]], ttf)
    return ttf


@pytest.fixture(scope="module")
def written(tmp_path_factory, bangla_font):
    site = tmp_path_factory.mktemp("site")
    write_app(site, APP, bangla_font)
    return site, json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("text", "letter"), [
    ("পাঠশালা", "পা"),          # a consonant with its vowel sign
    ("ক্ষমা", "ক্ষ"),            # a conjunct (ক + virama + ষ) stays whole
    ("  মেশিন", "মে"),          # a vowel sign drawn before its consonant still follows it in text
    ("python course", "P"),
])
def test_the_icon_letter_is_the_first_letter_as_a_reader_sees_it(text, letter):
    assert first_letter(text) == letter


def test_names_default_to_the_site_name_and_its_first_part():
    app = AppManifest.for_site("পাঠশালা — মেশিন লার্নিং")
    assert (app.name, app.short_name, app.icon_text) == ("পাঠশালা — মেশিন লার্নিং", "পাঠশালা", "পা")
    assert AppManifest.for_site("পাঠশালা: মেশিন লার্নিং").short_name == "পাঠশালা"
    assert AppManifest.for_site("ML-course").short_name == "ML-course"  # a hyphen inside a word is no separator
    chosen = AppManifest.for_site("x", name="লম্বা নাম", short_name="ছোট", icon_text="ক")
    assert (chosen.name, chosen.short_name, chosen.icon_text) == ("লম্বা নাম", "ছোট", "ক")


def test_the_manifest_is_relative_so_the_app_works_from_a_sub_path(written):
    site, manifest = written
    assert manifest["name"] == "পাঠশালা — মেশিন লার্নিং" and manifest["short_name"] == "পাঠশালা"
    assert manifest["description"] == "একটি কোর্স"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert "id" not in manifest  # it would resolve against the origin: two courses on a host would be one app
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == THEME
    for icon in manifest["icons"]:
        assert not icon["src"].startswith(("/", "http"))
        width, height = Image.open(site / icon["src"]).size
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
    declared = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= declared


def _white(pixel) -> bool:
    return pixel[3] == 255 and min(pixel[:3]) >= 250


def test_the_icons_carry_the_letter_centred_and_maskable_ones_keep_it_in_the_safe_zone(written):
    site, manifest = written
    theme = tuple(int(THEME[i:i + 2], 16) for i in (1, 3, 5)) + (255,)
    for icon in manifest["icons"]:
        image = Image.open(site / icon["src"]).convert("RGBA")
        size = image.size[0]
        pixels = image.load()
        ink = [(x, y) for y in range(size) for x in range(size) if _white(pixels[x, y])]
        assert len(ink) > size * size * 0.05  # the letter is there, not a speck
        xs, ys = [x for x, _ in ink], [y for _, y in ink]
        off_centre = max(abs((min(xs) + max(xs)) / 2 - size / 2), abs((min(ys) + max(ys)) / 2 - size / 2))
        assert off_centre <= size * 0.01
        assert pixels[size // 2, size // 20] == theme  # the background is the theme colour
        if icon["purpose"] == "maskable":
            assert pixels[0, 0] == theme  # full bleed: the platform cuts its own shape
            farthest = max(math.dist((x + 0.5, y + 0.5), (size / 2, size / 2)) for x, y in ink)
            assert farthest <= 0.4 * size  # the W3C safe zone: a centred circle of radius 40%
        else:
            assert pixels[0, 0][3] == 0  # rounded corners on transparency


def test_the_same_inputs_give_the_same_bytes(written, bangla_font, tmp_path):
    """A rebuild must not change the icons' precache revisions (the service worker would fetch them
    again for nothing)."""
    site, _ = written
    again = write_app(tmp_path, APP, bangla_font)
    for path in again:
        assert path.read_bytes() == (site / path.relative_to(tmp_path)).read_bytes()


def test_a_page_at_any_depth_points_at_the_site_root():
    tags = AppManifest.for_site("t", theme_color="#111111", theme_color_dark="#222222").head_tags("../../")
    assert '<link rel="manifest" href="../../manifest.webmanifest">' in tags
    assert '<meta name="theme-color" media="(prefers-color-scheme: light)" content="#111111">' in tags
    assert '<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#222222">' in tags
    assert '<link rel="apple-touch-icon" href="../../assets/pathshala/app/apple-touch-icon.png">' in tags
