"""The grid-table families of the v2 table datasets (generate/grid_families.py): splits, shapes,
vocabulary by split, flat tables for table-separators, scans whose truth stays exact, compact
PNGs and the plan of a split. A handful of tables each; the shipped datasets are checked in
test_grid_families_datasets.py."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from envirobench import split_of
from envirobench_extract.generate import grid_damage as gd
from envirobench_extract.generate import grid_families as gf
from envirobench_synth import tables, vocabulary
from envirobench_synth.rng import make_random

SEED = 5


def table(family, index, scan=None):
    return gf.make_grid_table(SEED, f"t-{family.name}-{index}", family, family.split, scan)


def test_dev_and_test_families_are_disjoint_and_at_least_three_each():
    dev, test = gf.families_of("dev"), gf.families_of("test")
    assert len(dev) >= 3 and len(test) >= 3
    assert not {f.name for f in dev} & {f.name for f in test}
    with pytest.raises(ValueError, match="belongs to the test split"):
        gf.build(make_random(1), test[0], "dev")


@pytest.mark.parametrize("family", gf.FAMILIES, ids=lambda f: f.name)
def test_a_family_draws_valid_grids_of_many_shapes(family):
    shapes = set()
    for index in range(12):
        spec, _ = gf.build(make_random(SEED, family.name, index), family, family.split)
        tables.check_grid(spec.cells, spec.rows, spec.columns)  # every position covered once
        assert 2 <= spec.columns <= 20 and 2 <= spec.rows <= 46
        shapes.add((spec.rows, spec.columns))
    assert len(shapes) >= 8  # no constant grid fits a family


def test_the_families_hold_the_traps_they_claim():
    texts = {f.name: [] for f in gf.FAMILIES}
    spans = {f.name: 0 for f in gf.FAMILIES}
    bold = {f.name: 0 for f in gf.FAMILIES}
    for family in gf.FAMILIES:
        for index in range(12):
            spec, _ = gf.build(make_random(SEED, family.name, index), family, family.split)
            texts[family.name] += [c.text for c in spec.cells]
            spans[family.name] += sum(c.row_span > 1 or c.column_span > 1 for c in spec.cells)
            bold[family.name] += sum(
                bool(c.bold) and k == "result" for c, k in zip(spec.cells, spec.kinds, strict=True)
            )
    assert any("(Surr)" in t for t in texts["lab-sample-page"])  # surrogate QC rows
    assert any("(Surr)" in t for t in texts["qc-grouped-header"])
    assert any(t.startswith(("MW-", "SG-", "SS-", "SB-")) for t in texts["well-time-series"])
    for name in ("consultant-summary", "wide-matrix", "qc-grouped-header", "group-time-series"):
        assert spans[name] > 0, name  # merged headers or rows across the table
    # Exceedances of a screening level printed bold, in a dev and in test families.
    assert bold["consultant-summary"] > 0
    assert bold["wide-matrix"] + bold["group-time-series"] > 0


@pytest.mark.parametrize("family", gf.families_of("dev"), ids=lambda f: f.name)
def test_dev_tables_show_no_test_only_term(family):
    test_only = vocabulary.test_only_terms()
    for index in range(10):
        spec, _ = gf.build(make_random(SEED, "vocab", family.name, index), family, "dev")
        for cell in spec.cells:
            text = cell.text.replace("\n", " ")
            for term in test_only:
                assert text != term and not text.startswith(f"{term} ("), (text, term)
                assert not text.startswith(f"{term}: "), (text, term)


def test_test_tables_use_test_vocabulary():
    test_only = vocabulary.test_only_terms()
    seen = set()
    for family in gf.families_of("test"):
        for index in range(6):
            spec, _ = gf.build(make_random(SEED, "vocab", family.name, index), family, "test")
            seen |= {c.text.replace("\n", " ") for c in spec.cells} & test_only
    assert len(seen) >= 10


@pytest.mark.parametrize("family", gf.FAMILIES, ids=lambda f: f.name)
def test_flat_tables_for_separators_have_no_merged_cell(family):
    for index in range(4):
        rendered = gf.make_separator_table(SEED, f"s-{index}", family, family.split, None)
        rendered.geometry.check()
        assert len(rendered.geometry.rows.bands) >= 3 and len(rendered.geometry.columns.bands) >= 3


def test_a_scan_keeps_the_grid_and_carries_every_box_onto_its_text():
    family = gf.FAMILY_BY_NAME["wide-matrix"]
    clean = table(family, 1)
    for kind in gd.SCAN_KINDS:
        scanned = table(family, 1, kind)
        assert scanned.spec == clean.spec  # the truth is drawn before the scan
        assert scanned.image.size != clean.image.size  # a wider, skewed sheet
        width, height = scanned.image.size
        ink = np.asarray(scanned.image.convert("L")) < 128
        inked = [
            ink[y0:y1, x0:x1].any()
            for (x0, y0, x1, y1), cell in zip(scanned.boxes, scanned.spec.cells, strict=True)
            if cell.text.strip()
        ]
        assert all(0 <= b[0] < b[2] <= width and 0 <= b[1] < b[3] <= height for b in scanned.boxes)
        assert sum(inked) >= 0.97 * len(inked), kind  # every box lies on its cell's print


def test_scans_are_stored_compactly():
    family = gf.FAMILY_BY_NAME["edd-long-form"]
    assert table(family, 2, "bitonal").image.mode == "1"
    assert table(family, 2, "fax").image.mode == "1"
    for kind in ("grayscale", "jpeg"):
        greys = np.unique(np.asarray(table(family, 2, kind).image))
        assert len(greys) <= 4, kind
    clean = np.unique(np.asarray(table(family, 2).image))
    assert len(clean) <= 4


def test_scans_are_skewed_two_to_five_degrees():
    angles = [abs(gd.sample_scan(make_random(SEED, "scan", i)).angle) for i in range(50)]
    assert min(angles) >= 2.0 and max(angles) <= 5.0


def test_a_separator_scan_keeps_its_geometry_true():
    family = gf.FAMILY_BY_NAME["lab-sample-page"]
    for kind in gd.SCAN_KINDS:
        rendered = gf.make_separator_table(SEED, "scan-1", family, "dev", kind)
        rendered.geometry.check()  # every separator in a non-empty gap
        ink = np.asarray(rendered.image.convert("L")) < 100
        rows = rendered.geometry.rows
        # No text of one row reaches across a row separator: the print lies inside the bands.
        labels = rendered.row_labels
        for index, band in enumerate(rows.bands):
            ys = np.nonzero((labels == index + 1).any(axis=1))[0]
            assert band.start <= ys.min() and ys.max() < band.end
        assert ink.any()


def test_a_fax_widens_a_band_ending_on_an_even_line():
    axis = tables.AxisGeometry((tables.Band(4, 9), tables.Band(12, 20)), (10,))
    paired = gd._pair_bands(axis)
    assert paired.bands == (tables.Band(4, 10), tables.Band(12, 20)) and paired.separators == (10,)


@pytest.mark.parametrize("greys", [(0, 255), (0, 102, 221, 255), tuple(range(0, 256, 17))])
def test_compact_png_round_trips_pixels(greys):
    rng = np.random.default_rng(0)
    pixels = np.array(greys, dtype=np.uint8)[rng.integers(0, len(greys), size=(30, 41))]
    image = Image.fromarray(pixels, mode="L")
    data = gd.compact_png(image)
    assert data == gd.compact_png(image)
    with Image.open(io.BytesIO(data)) as decoded:
        assert np.array_equal(np.asarray(decoded.convert("L")), pixels)
    bitonal = image.point(lambda v: 255 if v > 128 else 0).convert("1", dither=Image.Dither.NONE)
    with Image.open(io.BytesIO(gd.compact_png(bitonal))) as decoded:
        assert np.array_equal(np.asarray(decoded), np.asarray(bitonal))


def test_compact_png_refuses_colour():
    with pytest.raises(ValueError, match="not 'RGB'"):
        gd.compact_png(Image.new("RGB", (4, 4)))


@pytest.mark.parametrize("folder", ["synthetic-dev-v2", "synthetic-test-v2"])
def test_the_plan_of_a_split(folder):
    split = split_of(folder)
    planned = gf.plan(folder, "x")
    assert len(planned) == gf.SIZES[split]
    assert len({p.case_id for p in planned}) == len(planned)
    assert {p.family for p in planned} == set(gf.families_of(split))
    scanned = [p for p in planned if p.scan]
    assert len(scanned) >= len(planned) / 4
    assert {p.scan for p in scanned} == set(gd.SCAN_KINDS)
    assert all(p.category == f"{p.family.name}-scanned" for p in scanned)
    with pytest.raises(ValueError, match="not a v2 grid-table dataset folder"):
        gf.plan("synthetic-v1", "x")


def test_a_struck_number_is_corrected_to_a_nearby_number():
    assert gd.strikable_text("0.033") and gd.strikable_text("1,250")
    assert not gd.strikable_text("14-Jul-21 09:42") and not gd.strikable_text("ND")
    assert not gd.strikable_text("") and not gd.strikable_text("0.50 U")
    for index in range(20):
        corrected = gd._correction(make_random(SEED, "fix", index), "0.033")
        assert corrected != "0.033" and corrected.startswith("0.03") and len(corrected) == 5
