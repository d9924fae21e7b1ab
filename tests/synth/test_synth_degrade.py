"""Scan degradation: deterministic, and the geometry stays right after skew and blur."""

import numpy as np
import pytest
from PIL import Image

from envirobench_synth import degrade, tables
from envirobench_synth.png import png_bytes
from envirobench_synth.rng import make_random

HEADER = ["Analyte", "CAS No.", "Result", "Units", "Reporting Limit"]
ROWS = [
    ["Benzene", "71-43-2", "0.0123", "mg/kg", "0.0050"],
    ["Methyl tert-butyl\nether (MTBE)", "1634-04-4", "ND", "mg/kg", "0.0050"],
    ["Tetrachloroethene", "127-18-4", "1.25", "mg/kg", "0.10"],
    ["Vinyl chloride", "75-01-4", "<0.50", "mg/kg", "0.50"],
    ["Lead", "7439-92-1", "12.5", "mg/kg", "1.0"],
]


def clean(style=None):
    return tables.render_table(HEADER, ROWS, style or tables.unruled(pad_x=12, pad_y=8))


@pytest.mark.parametrize("angle", [-0.9, -0.4, 0.0, 0.3, 0.8])
@pytest.mark.parametrize("blur", [0.0, 0.8])
def test_bands_after_skew_and_blur_cover_all_text_and_gaps_stay_blank(angle, blur):
    # No noise and no clean-up, so every pixel that is not paper comes from the table's text.
    params = degrade.ScanParams(angle=angle, blur_radius=blur, paper=240, ink=30)
    scanned = degrade.scan(clean(), params, 1)
    pixels = np.asarray(scanned.image)
    geometry = scanned.geometry
    geometry.check()
    for axis, numpy_axis in ((geometry.rows, 1), (geometry.columns, 0)):
        profile = (pixels != params.paper).any(axis=numpy_axis)
        inked = np.flatnonzero(profile)
        assert axis.bands[0].start <= inked[0] and inked[-1] < axis.bands[-1].end
        for band in axis.bands:
            assert profile[band.start : band.end].any()  # every band holds ink
        for (start, end), separator in zip(axis.gaps(), axis.separators, strict=True):
            assert start < end
            assert not profile[start:end].any()  # gaps hold none
            assert start <= separator < end


def test_skew_grows_row_bands_by_at_most_the_drift_across_the_row():
    table = clean()
    angle = 0.8
    scanned = degrade.scan(table, degrade.ScanParams(angle=angle), 1)
    grew = 0
    for index, (before, after) in enumerate(
        zip(table.geometry.rows.bands, scanned.geometry.rows.bands, strict=True)
    ):
        xs = np.flatnonzero((table.row_labels == index + 1).any(axis=0))
        drift = (xs[-1] - xs[0]) * np.tan(np.radians(angle))
        # Text lines slope by the drift, but a band grows less when its tallest glyphs are not at
        # both ends; resampling adds at most a pixel each side.
        grown = (after.end - after.start) - (before.end - before.start)
        assert 0 <= grown <= drift + 2
        grew += grown > 0
    assert grew == len(table.geometry.rows.bands)


def test_ruled_separators_follow_the_rules_through_the_middle_of_the_table():
    style = tables.fully_ruled(pad_y=8)
    table = clean(style)
    scanned = degrade.scan(table, degrade.ScanParams(angle=0.6), 1)
    pixels = np.asarray(scanned.image)
    columns = scanned.geometry.columns
    middle = (columns.bands[0].start + columns.bands[-1].end) // 2
    for y in scanned.geometry.rows.separators:
        # The rule crosses the middle of the table at the separator, give or take resampling.
        assert pixels[y - 1 : y + 2, middle].min() < 128


def test_same_seed_gives_identical_bytes_and_another_seed_differs():
    params = degrade.ScanParams(
        angle=0.5, blur_radius=0.7, noise_sigma=5, paper=240, ink=40, background=226, levels=32
    )
    first = png_bytes(degrade.scan(clean(), params, 7, "case-1").image)
    assert first == png_bytes(degrade.scan(clean(), params, 7, "case-1").image)
    assert first != png_bytes(degrade.scan(clean(), params, 7, "case-2").image)
    assert first != png_bytes(degrade.scan(clean(), params, 8, "case-1").image)


def test_sampled_scans_are_deterministic_and_within_bounds():
    for i in range(20):
        params = degrade.sample_scan_params(make_random(3, i), max_angle=0.7)
        assert params == degrade.sample_scan_params(make_random(3, i), max_angle=0.7)
        assert 0.175 <= abs(params.angle) <= 0.7
        assert params.ink < params.background <= params.paper


def test_max_skew_keeps_every_gap_open():
    table = clean()
    for blur in (0.0, 0.9):
        safe = degrade.max_skew_degrees(table.geometry, blur_radius=blur, min_gap=3)
        assert 0 < safe < 5
        for angle in (safe, -safe):
            scanned = degrade.scan(table, degrade.ScanParams(angle=angle, blur_radius=blur), 1)
            for axis in (scanned.geometry.rows, scanned.geometry.columns):
                assert min(end - start for start, end in axis.gaps()) >= 3


def test_a_skew_that_closes_a_gap_is_refused():
    tight = tables.render_table(HEADER, ROWS * 4, tables.unruled(pad_y=2))
    with pytest.raises(ValueError, match="touch or overlap"):
        degrade.scan(tight, degrade.ScanParams(angle=3.0), 1)


def test_noise_has_the_requested_spread():
    flat = Image.new("L", (400, 300), 128)
    noisy = np.asarray(degrade.add_noise(flat, 6.0, 1), dtype=float)
    assert abs(noisy.mean() - 128) < 0.1
    assert abs(noisy.std() - 6.0) < 0.2


def test_clean_up_removes_background_and_reduces_grey_levels():
    params = degrade.ScanParams(
        angle=0.4, blur_radius=0.7, noise_sigma=4, paper=240, ink=40, background=228, levels=16
    )
    pixels = np.asarray(degrade.scan(clean(), params, 1).image)
    assert len(np.unique(pixels)) <= 16
    assert (pixels == 255).mean() > 0.8  # the paper came out white despite the noise


@pytest.mark.parametrize(
    "bad",
    [
        dict(angle=6.0),
        dict(blur_radius=-1.0),
        dict(paper=100, ink=120),
        dict(levels=1),
        dict(paper=240, ink=40, background=30),
    ],
)
def test_implausible_scans_are_refused(bad):
    with pytest.raises(ValueError):
        degrade.ScanParams(**bad)


def test_blur_reach_is_measured_from_pillows_blur():
    assert degrade.blur_reach(0.0) == 0
    reaches = [degrade.blur_reach(r) for r in (0.5, 0.7, 0.9, 1.5, 3.0)]
    assert reaches == sorted(reaches) and reaches[0] >= 1
    for radius, reach in zip((0.5, 0.7, 0.9, 1.5, 3.0), reaches, strict=True):
        assert reach <= 3 * radius + 2
