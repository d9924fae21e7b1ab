"""`damage.py` (seeded page damage) and `scans.py` (whole PDF pages scanned and re-embedded)."""

import io
import random

import numpy as np
import pytest
from PIL import Image, ImageDraw

from envirobench_synth.damage import (
    DAMAGE_KINDS,
    Affine,
    Damage,
    apply_damage,
    bitonal,
    fax_damage,
    sample_damage,
    sin_cos_degrees,
    strike_through,
)
from envirobench_synth.labreport.draft import BOLD, REGULAR, register_fonts
from envirobench_synth.pdfpages import rasterize
from envirobench_synth.scans import (
    Correction,
    ScanSettings,
    sample_scan_settings,
    scan_document,
    scan_image,
)

LETTER = (612.0, 792.0)
SQUARE = (300.0, 400.0, 360.0, 440.0)  # page points (top-left origin) of a filled rectangle


def page_image(size=(400, 300)):
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    for row in range(8):
        draw.text((20, 20 + 30 * row), f"MW-{row:02d}  Benzene  {row * 1.7:.2f} ug/L", fill=0)
    draw.rectangle((250, 200, 320, 230), fill=0)
    return image


def draw_report_page(canvas, index):
    register_fonts()
    canvas.setFont(BOLD, 16)
    canvas.drawString(72, 740, f"Certificate of Analysis - page {index + 1}")
    canvas.setFont(REGULAR, 9)
    rows = 40 if index == 0 else 20
    for row in range(rows):
        canvas.drawString(
            72, 700 - 14 * row, f"MW-{row:02d}   Benzene   71-43-2   {row * 1.37:.2f}   ug/L   0.50"
        )
    x0, y0, x1, y1 = SQUARE
    canvas.rect(x0, 792 - y1, x1 - x0, y1 - y0, stroke=0, fill=1)


def dark_pixels(image):
    return np.asarray(image.convert("L")) < 128


# -- damage --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [k for k in DAMAGE_KINDS if k != "strike"])
def test_every_damage_kind_changes_the_image_and_is_reproducible(kind):
    image = page_image()
    damage = sample_damage(random.Random(3), kind, date="NOV 03 2025" if kind == "stamp" else None)
    first = apply_damage(image, damage, 11, "case", 1)
    again = apply_damage(image, damage, 11, "case", 1)
    assert first.image.tobytes() == again.image.tobytes()
    assert first.image.tobytes() != image.tobytes()
    assert image.tobytes() == page_image().tobytes()  # the input is never changed


def test_strike_through_reports_what_was_struck_and_written():
    image = page_image((600, 300))
    box = (250, 200, 321, 231)
    damage = sample_damage(random.Random(5), "strike")
    done = strike_through(image, box, "0.12", "0.21", 7, "s", initials="JK", style="double")
    again = strike_through(image, box, "0.12", "0.21", 7, "s", initials="JK", style="double")
    assert done.image.tobytes() == again.image.tobytes() != image.tobytes()
    kinds = {m.kind: m for m in done.marks}
    assert kinds["strike"].text == "0.12" and kinds["correction"].text == "0.21"
    assert kinds["initials"].text == "JK"
    stroke = kinds["strike"].box
    assert stroke[0] <= box[0] and stroke[2] >= box[2]  # the stroke crosses the whole value
    written = kinds["correction"].box
    assert dark_pixels(done.image)[written[1] : written[3], written[0] : written[2]].any()
    assert damage.kind == "strike"


def test_stamp_reports_its_text_and_ink_box_inside_the_region():
    image = Image.new("L", (600, 400), 255)
    damage = sample_damage(random.Random(2), "stamp", date="2025-11-03")
    region = (300, 200, 590, 390)
    done = apply_damage(image, damage, 1, "stamp", region=region)
    (mark,) = done.marks
    assert mark.text == "RECEIVED\n2025-11-03"
    x0, y0, x1, y1 = mark.box
    assert region[0] <= x0 and region[1] <= y0
    ink = dark_pixels(done.image) | (np.asarray(done.image) < 250)
    assert ink[y0:y1, x0:x1].sum() == ink.sum()  # all ink is inside the reported box


def test_fax_stretch_is_carried_by_its_affine():
    image = Image.new("L", (400, 200), 255)
    ImageDraw.Draw(image).rectangle((100, 80, 139, 119), fill=0)
    done = fax_damage(image, 3, "f", stretch=1.05, halve_rows=False, drop_per_mille=0, streaks=0)
    x0, y0, x1, y1 = done.carry.carry_box((100, 80, 140, 120))
    ink = dark_pixels(done.image)
    ys, xs = np.nonzero(ink)
    assert x0 <= xs.min() and xs.max() < x1 and y0 <= ys.min() and ys.max() < y1
    assert xs.max() - xs.min() + 1 == pytest.approx(40 * 1.05, abs=1.5)


def test_bad_parameters_name_the_field():
    with pytest.raises(ValueError, match="kind"):
        sample_damage(random.Random(0), "crumple")
    with pytest.raises(ValueError, match="threshold"):
        bitonal(page_image(), 0)
    with pytest.raises(ValueError, match="params"):
        apply_damage(page_image(), Damage("jpeg", {}), 1)
    with pytest.raises(ValueError, match="skew"):
        ScanSettings(skew=7.0)


def test_taylor_sine_and_cosine_agree_with_libm():
    import math

    for angle in (-30.0, -5.0, -2.0, 0.0, 3.7, 12.0, 30.0):
        sin, cos = sin_cos_degrees(angle)
        assert sin == pytest.approx(math.sin(math.radians(angle)), abs=1e-15)
        assert cos == pytest.approx(math.cos(math.radians(angle)), abs=1e-15)


def test_affine_inverse_and_composition():
    m = Affine(0.9, 0.1, 5, -0.1, 0.9, 7).then(Affine.scale(2.0))
    x, y = m.inverse()(*m(13.0, 21.0))
    assert (x, y) == pytest.approx((13.0, 21.0))


# -- scans ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings",
    [
        ScanSettings(mode="bitonal", skew=4.0, paper=240, ink=20),
        ScanSettings(mode="bitonal", skew=-2.5, turn=90),
        ScanSettings(mode="gray", dpi=120, skew=3.0, turn=180, blur=0.6, quality=25),
        ScanSettings(mode="bitonal", skew=2.0, turn=270),
    ],
    ids=["skew", "skew-turn90", "gray-turn180", "turn270"],
)
def test_a_carried_box_contains_the_ink_of_the_rectangle(settings):
    result = scan_document(draw_report_page, [LETTER], {0: settings}, 5, "carry")
    scanned = result.pages[0]
    back = rasterize(result.pdf, 0, settings.dpi)  # what a reader of the PDF sees
    assert abs(back.size[0] - scanned.image.size[0]) <= 1
    box = scanned.carry_box(SQUARE)
    x0, y0, x1, y1 = box
    ink = dark_pixels(scanned.image)
    inside = ink[y0:y1, x0:x1].sum()
    # The square is 60 x 40 points: at dpi/72 it has this many pixels, all inside the box.
    area = 60 * 40 * (settings.dpi / 72) ** 2
    assert inside >= 0.95 * area
    # ...and the box is tight: it is no larger than the turned square's bounding box.
    assert (x1 - x0) * (y1 - y0) <= area * 1.3
    if settings.turn in (90, 270):
        assert scanned.image.size[0] > scanned.image.size[1]  # a sideways sheet


def test_scan_document_is_reproducible_and_keeps_vector_pages():
    settings = ScanSettings(
        mode="bitonal",
        skew=3.0,
        damages=(
            sample_damage(random.Random(1), "stamp", date="NOV 03 2025"),
            sample_damage(random.Random(2), "fax"),
        ),
    )
    fix = {
        0: [
            Correction((72, 92, 110, 104), "0.00", "1.4", sample_damage(random.Random(3), "strike"))
        ]
    }
    first = scan_document(
        draw_report_page, [LETTER, LETTER], {0: settings}, 9, "r", corrections=fix
    )
    again = scan_document(
        draw_report_page, [LETTER, LETTER], {0: settings}, 9, "r", corrections=fix
    )
    assert first.pdf == again.pdf
    assert {m.kind for m in first.pages[0].marks} >= {"stamp", "strike", "correction"}
    # Page 1 was not scanned: it keeps its text layer.
    assert b"BT" not in first.pdf or first.pdf.count(b"/Type /Page\n") == 2
    assert 1 not in first.pages


def test_sizes_stay_within_the_targets():
    bitonal_page = scan_document(
        draw_report_page, [LETTER], {0: ScanSettings(mode="bitonal", dpi=150, skew=3.0)}, 1
    ).pages[0]
    gray_page = scan_document(
        draw_report_page,
        [LETTER],
        {0: ScanSettings(mode="gray", dpi=135, skew=3.0, blur=0.6, quality=25, paper=240, ink=30)},
        1,
    ).pages[0]
    # Targets: 60 KB bitonal at 150 dpi, 90 KB grayscale; x1.5 so a font change cannot flake.
    assert len(bitonal_page.encoded) <= 60_000 * 1.5
    assert len(gray_page.encoded) <= 90_000 * 1.5
    assert Image.open(io.BytesIO(gray_page.encoded)).format == "JPEG"


def test_sampled_settings_are_reproducible_and_skew_within_range():
    first = [sample_scan_settings(random.Random(4)) for _ in range(3)]
    again = [sample_scan_settings(random.Random(4)) for _ in range(3)]
    assert first == again
    rng = random.Random(8)
    for _ in range(50):
        settings = sample_scan_settings(rng)
        assert 2.0 <= abs(settings.skew) <= 5.0


def test_scan_image_rejects_colour():
    with pytest.raises(ValueError, match="clean"):
        scan_image(Image.new("RGB", (10, 10)), (10.0, 10.0), ScanSettings(), 1)
