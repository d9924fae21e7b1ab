"""`degrade.scan_page` (whole-page scans for the lab-report generator) and `png_bytes(level=...)`."""

import io

import numpy as np
from PIL import Image, ImageDraw

from envirobench_synth.degrade import ScanParams, scan_page
from envirobench_synth.png import png_bytes


def page():
    image = Image.new("L", (300, 400), 255)
    ImageDraw.Draw(image).rectangle((100, 150, 109, 159), fill=0)  # a 10 x 10 ink square
    return image


PARAMS = ScanParams(
    angle=0.8, blur_radius=0.5, noise_sigma=4.0, paper=240, ink=30, background=226, levels=16
)


def test_a_scanned_page_keeps_its_size_and_is_reproducible():
    first = scan_page(page(), PARAMS, 5, "p", 1)
    again = scan_page(page(), PARAMS, 5, "p", 1)
    other = scan_page(page(), PARAMS, 5, "p", 2)
    assert first.image.size == (300, 400) and first.image.mode == "L"
    assert first.image.tobytes() == again.image.tobytes()
    assert first.image.tobytes() != other.image.tobytes()  # another noise stream
    assert len(np.unique(np.asarray(first.image))) <= 16


def test_forward_maps_points_of_the_clean_page_onto_the_scan():
    scanned = scan_page(page(), PARAMS, 5, "p", 1)
    x, y = scanned.forward(105, 155)  # the square's centre
    pixels = np.asarray(scanned.image)
    assert pixels[round(y), round(x)] < 100  # ink there
    dark = np.argwhere(pixels < 100)
    centre_y, centre_x = dark.mean(axis=0)
    assert abs(centre_x - x) < 1.5 and abs(centre_y - y) < 1.5
    assert scanned.forward(150, 200) == (150.0, 200.0)  # the centre does not move


def test_png_level_trades_size_for_speed_and_stays_deterministic():
    image = scan_page(page(), PARAMS, 5, "p", 1).image
    fast = png_bytes(image, level=6)
    assert fast == png_bytes(image, level=6)
    assert Image.open(io.BytesIO(fast)).tobytes() == image.tobytes()
    assert png_bytes(image) == png_bytes(image, level=None)
