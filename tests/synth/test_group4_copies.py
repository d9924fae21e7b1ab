"""Scanned copies as 1-bit Group 4 images (envirobench_synth.pdfpages, group4=True): the pixels a reader sees are
the pixels of the 8-bit copy, in a third of the bytes; grey pages are refused; the Legal datasets
(every one: their scans are archival copies, envirobench_synth.legal.archive) embed nothing else."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PIL import Image, ImageDraw

from envirobench_legal.package import PACKAGE
from envirobench_synth.pdfpages import black_and_white_bits, image_pdf, rasterize, scanned_copy

SIZE = (612.0, 792.0)


def page_image() -> Image.Image:
    """A black-and-white page at 100 dpi: lines of 'text' blocks and a ruled box."""
    image = Image.new("L", (850, 1100), 255)
    draw = ImageDraw.Draw(image)
    for row in range(12):
        for col in range(6):
            draw.rectangle((60 + col * 120, 80 + row * 60, 60 + col * 120 + 90, 80 + row * 60 + 14), fill=0)
    draw.rectangle((100, 900, 700, 1000), outline=0, width=3)
    return image


def test_a_group4_page_renders_to_the_same_pixels_as_the_8_bit_page_in_fewer_bytes():
    image = page_image()
    group4, eight = image_pdf([image], SIZE, "Document", "test", group4=True), image_pdf([image], SIZE, "Document", "test")
    assert b"/CCITTFaxDecode" in group4 and re.search(rb"/BitsPerComponent 1\b", group4)
    assert re.search(rb"/BitsPerComponent 8\b", eight) and not re.search(rb"/BitsPerComponent 1\b", eight)
    # At the image's own resolution both render to the image itself, pixel for pixel.
    for pdf in (group4, eight):
        assert np.array_equal(np.asarray(rasterize(pdf, 0, 100)), np.asarray(image))
    assert len(group4) < len(eight)


def test_the_same_pages_give_the_same_bytes_and_a_repeated_page_is_embedded_once():
    image = page_image()
    once = image_pdf([image], SIZE, "Document", "test", group4=True)
    assert once == image_pdf([image], SIZE, "Document", "test", group4=True)
    twice = image_pdf([image, image], SIZE, "Document", "test", group4=True)
    assert len(re.findall(rb"/CCITTFaxDecode", twice)) == 1


def test_a_grey_pixel_is_refused_not_thresholded():
    image = page_image()
    image.putpixel((5, 5), 128)
    with pytest.raises(ValueError, match=r"black and white; this one has grey levels \[128\]"):
        image_pdf([image], SIZE, "Document", "test", group4=True)
    assert black_and_white_bits(page_image()).mode == "1"


def test_a_scanned_copy_is_the_8_bit_copy_s_pixels():
    source = image_pdf([page_image()], SIZE, "Document", "test")
    args = (source, 1, 120, SIZE, "Document", "test", 7, "case-1")
    group4, eight = scanned_copy(*args, max_angle=1.0, group4=True), scanned_copy(*args, max_angle=1.0)
    assert np.array_equal(np.asarray(rasterize(group4, 0, 120)), np.asarray(rasterize(eight, 0, 120)))
    assert len(group4) < len(eight)


@pytest.mark.parametrize("type_id", ["chain-of-title", "use-limitations", "instrument-execution", "party-roles", "indemnity-terms"])
def test_the_legal_datasets_hold_their_scans_as_group4_only(type_id):
    layout = PACKAGE.layout(type_id)
    for folder in layout.datasets:
        pdfs = sorted((layout.dataset_dir(folder) / "assets").glob("*.pdf"))
        scanned = [p for p in pdfs if b"/Subtype /Image" in p.read_bytes() or b"/Subtype/Image" in p.read_bytes()]
        assert scanned, folder
        for path in scanned:
            data = path.read_bytes()
            assert b"/CCITTFaxDecode" in data and b"/DeviceRGB" not in data, path.name
