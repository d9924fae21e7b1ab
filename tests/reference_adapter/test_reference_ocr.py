"""RapidOCR as the adapter runs it: offline, from the models inside the installed wheel."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from envirobench_reference_adapter import layout, ocr
from envirobench_reference_adapter.layout import Word


def text_image(lines: list[str], size: int = 20) -> Image.Image:
    image = Image.new("L", (520, 40 + 45 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=size)
    for k, line in enumerate(lines):
        draw.text((12, 15 + 45 * k), line, font=font, fill=0)
    return image


def test_models_ship_inside_the_rapidocr_package():
    files = ocr.model_files()
    assert set(files) == {"det", "rec", "cls"}
    for path in files.values():
        assert path.is_file() and path.stat().st_size > 100_000
        assert path.is_relative_to(ocr.models_dir())


def test_engine_is_pointed_at_the_bundled_files_only():
    config = ocr.engine().cfg
    assert config.Det.model_path == str(ocr.model_files()["det"])
    assert config.Rec.model_path == str(ocr.model_files()["rec"])
    assert config.EngineConfig.onnxruntime.intra_op_num_threads == 1


def test_recognizes_rendered_text_with_boxes_in_reading_order():
    image = text_image(["Benzene 71-43-2 0.52 mg/kg J", "Toluene <0.50 ug/L ND"])
    words = ocr.recognize(image)
    lines = layout.group_lines(words)
    assert [line.text for line in lines] == ["Benzene 71-43-2 0.52 mg/kg J", "Toluene <0.50 ug/L ND"]
    benzene = lines[0].words[0]
    assert 5 <= benzene.x0 < 20 and benzene.x1 < 110 and benzene.top < 40
    assert all(0.5 <= w.confidence <= 1.0 for w in words)
    # Boxes are narrowed to the ink: the blank between two words is a real blank.
    assert lines[0].words[1].x0 - lines[0].words[0].x1 >= 3


def test_same_image_same_words():
    image = text_image(["Reporting Limit 0.0050"])
    assert ocr.recognize(image) == ocr.recognize(image)


def test_blank_image_has_no_words():
    assert ocr.recognize(Image.new("L", (200, 60), 255)) == []


def test_sideways_text_is_turned_upright():
    image = text_image(["Tetrachloroethene 127-18-4 35,200"]).transpose(Image.Transpose.ROTATE_90)
    assert ocr.vertical_text(image)
    words, turns, upright = ocr.recognize_upright(image)
    assert turns == 1
    assert upright.size == (image.height, image.width)
    assert " ".join(w.text for w in words) == "Tetrachloroethene 127-18-4 35,200"


def test_jitter_is_seeded():
    gray = np.full((20, 30), 200, dtype=np.uint8)
    first = ocr.jitter_image(gray, np.random.default_rng(1))
    assert (first == ocr.jitter_image(gray, np.random.default_rng(1))).all()
    assert not (first == ocr.jitter_image(gray, np.random.default_rng(2))).all()


@pytest.mark.parametrize(("raw", "clean"), [("」", "J"), ("0.050ª", "0.050a"), ("\u03bcg/L", "\u00b5g/L")])
def test_look_alikes_are_undone(raw, clean):
    assert ocr.clean_text(raw) == clean


def test_dropped_spaces_are_restored_where_the_ink_has_a_blank():
    # "EngineeringGroup" over 160 px with a 5-px blank (0.3 em at em 16) where the space was.
    profile = np.ones(160, dtype=bool)
    profile[108:113] = False
    profile[40] = False  # a 1-px gap between two letters is no space
    word = Word("EngineeringGroup", 0.0, 0.0, 160.0, 27.0, 0.9)
    pieces = ocr.restore_spaces(word, profile, em=16.0)
    assert [p.text for p in pieces] == ["Engineering", "Group"]
    assert pieces[0].x1 == 108 and pieces[1].x0 == 113
    # No blank, or no place in the text for a space: unchanged.
    assert ocr.restore_spaces(word, np.ones(160, dtype=bool), em=16.0) == [word]
    assert ocr.restore_spaces(Word("71-43-2", 0, 0, 70, 27), np.r_[np.ones(30, bool), np.zeros(6, bool), np.ones(34, bool)], em=16.0)[0].text == "71-43-2"


def test_a_tilted_scan_is_read_level_and_its_words_placed_back_where_the_scan_has_them():
    # Two words far apart on one line, the page then tilted 1.5 degrees (a hand-fed scan): read
    # level, each word's box lies on its ink in the tilted image, the right-hand word lower.
    page = Image.new("L", (900, 300), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.load_default(size=28)
    draw.text((40, 130), "Grantor", font=font, fill=0)
    draw.text((700, 130), "Grantee", font=font, fill=0)
    tilted = page.rotate(-1.5, resample=Image.Resampling.BICUBIC, fillcolor=255)  # clockwise: the right end drops
    words = {w.text: w for w in ocr.recognize_level(tilted)}
    assert {"Grantor", "Grantee"} <= set(words)
    ink = np.asarray(tilted) < 128
    for word in words.values():
        box = ink[int(word.top) : int(word.bottom) + 1, int(word.x0) : int(word.x1) + 1]
        assert box.sum() > 0.8 * ink[:, int(word.x0) : int(word.x1) + 1].sum()  # the box holds the word's ink
    assert words["Grantee"].cy - words["Grantor"].cy > 10  # placed back on the tilted line, not level


def test_an_untilted_scan_is_read_as_it_is():
    image = text_image(["Warranty Deed"])
    assert [w.text for w in ocr.recognize_level(image)] == [w.text for w in ocr.recognize(image)]
