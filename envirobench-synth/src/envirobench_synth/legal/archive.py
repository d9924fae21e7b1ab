"""A paper copy as an archive holds it: scanned, photocopied or faxed, written on, and recorded page by page.

`archive_copy(pdf, pages, ...)` is the scanned copy of an instrument made with
`render_instrument(..., archival=True)`. The copy's *generation* is drawn once (a copy is faxed or
photocopied whole): an original through the recorder's scanner, a photocopy of it, or a fax. Each
page is rasterised, then:

1. written on (marks of the hands that handled the paper, in the margins, never over a signature
   line): the signer's initials at the foot of every page but the last (`initials`), a check mark
   in the left margin (`check`), a short note at the foot (`note`: "rec'd", "copy to file").
   A copy only bears initials when its instrument was signed in ink.
2. given what its generation does to paper: a photocopier's dark edge where the lid did not
   close (`copier-edge`), toner specks (`specks`), binder punch holes (`punch-holes`); the
   reverse's print showing through thin paper (`bleed-through`, on any generation); a fax's
   transmission header, stretched rows, halved vertical resolution, dropped lines and a streak
   (`fax-header`, `fax-lines`), sent at `FAX_DPI` and its printout scanned at the archive's
   resolution.
3. scanned (`degrade.office_scan`: skew up to `ARCHIVE_SKEW` degrees, blur, paper and ink levels,
   noise; a photocopy or fax is the heavier copy) and reduced to black and white.

What was done to every page is returned with the bytes (`PageScan`, one per page, with a
`severity`): the datasets record it in their answer keys, where a system never sees it and a
breakdown can read it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from ..damage import fax_damage, pen_mark
from ..degrade import black_and_white, office_scan
from ..fonts import font
from ..pdfpages import image_pdf, rasterize
from ..rng import make_bits, make_random

GENERATIONS = (("scan", 0.55), ("photocopy", 0.3), ("fax", 0.15))
FAX_DPI = 200  # a fax machine's standard mode: 200 dots an inch across, half that down (`fax_damage`)
ARCHIVE_SKEW = 1.8  # degrees: a page fed by hand, not the 0.6 of a clean feeder
NOTES = ("rec'd", "copy to file", "orig. to client", "see Exh. A", "file", "scan", "2 cc", "ok", "pd", "re-rec?")
SEVERITIES = ("light", "moderate", "heavy")


@dataclass(frozen=True)
class PageScan:
    """What one page of a scanned copy went through (1-based `page` within its document)."""

    page: int
    generation: str  # "scan", "photocopy" or "fax"
    dpi: int
    skew_degrees: float
    blur: float
    noise: float
    artefacts: tuple[str, ...]
    marks: tuple[str, ...]
    severity: str

    def to_json(self) -> dict[str, object]:
        return {"page": self.page, "generation": self.generation, "dpi": self.dpi, "skew_degrees": self.skew_degrees,
                "blur": self.blur, "noise": self.noise, "artefacts": list(self.artefacts), "marks": list(self.marks),
                "severity": self.severity}


def severity(generation: str, dpi: int, blur: float, noise: float, artefacts: tuple[str, ...]) -> str:
    """light, moderate or heavy: the scanner's blur and noise, the copy's generation, a low
    resolution and what covers the print (bleed-through, an edge, a fax's lost lines)."""
    score = blur / 1.3 + max(0.0, noise - 4) / 4 + {"scan": 0.0, "photocopy": 0.8, "fax": 1.6}[generation]
    score += 0.8 * (dpi < 150) + 0.5 * sum(a in ("bleed-through", "copier-edge", "fax-lines") for a in artefacts)
    return SEVERITIES[0 if score < 1.2 else 1 if score < 2.5 else 2]


def archive_copy(
    pdf: bytes, pages: int, size: tuple[float, float], title: str, creator: str, seed: int, *labels: str | int,
    dpis: tuple[int, ...], signed: bool, sender: str, sent: str,
) -> tuple[bytes, tuple[PageScan, ...]]:
    """The first `pages` pages of `pdf` as an archive's copy (module docstring), 1-bit Group 4
    images, and what was done to each page. `signed`: the instrument bears ink signatures (its
    pages may bear initials); `sender` and `sent`: a fax header's office and date text."""
    rng = make_random(seed, *labels, "archive")
    generation = rng.choices([g for g, _ in GENERATIONS], [w for _, w in GENERATIONS])[0]
    dpi = rng.choice(dpis)  # the archive's scanner; a fax is sent at FAX_DPI and its printout scanned at this
    raster = FAX_DPI if generation == "fax" else dpi
    initials = signed and rng.random() < 0.3
    check = rng.random() < 0.2
    note = rng.choice(NOTES) if rng.random() < 0.25 else None
    bleed = rng.random() < (0.35 if generation == "photocopy" else 0.15)
    images, records = [], []
    clean = [rasterize(pdf, index, raster) for index in range(pages)]
    for index, page in enumerate(clean):
        labels_page = (*labels, "archive", index)
        page_rng = make_random(seed, *labels_page)
        artefacts: list[str] = []
        marks: list[str] = []
        width, height = page.size
        inch = raster
        if initials and index < pages - 1:
            page = pen_mark(page, "initials", seed, *labels_page, region=(width - 2 * inch, height - inch * 9 // 20, width - inch // 2, height - 4),
                            text=page_rng.choice(("JM", "RK", "ds", "AB", "TL", "mw")), ink=page_rng.randint(20, 70)).image
            marks.append("initials")
        if check and page_rng.random() < 0.5:
            page = pen_mark(page, "check", seed, *labels_page, region=(8, inch, inch * 3 // 4, height - inch), ink=page_rng.randint(20, 70)).image
            marks.append("check")
        if note is not None and index == 0:  # at the foot, left of the page number: nothing is printed there
            region = (inch * 2 // 5, height - inch * 2 // 5, inch * 16 // 5, height - 4)
            page = pen_mark(page, "initials", seed, *labels_page, "note", region=region, text=note, ink=page_rng.randint(20, 70)).image
            marks.append("note")
        if bleed:
            page = _bleed_through(page, clean[index + 1] if index + 1 < pages else clean[index], page_rng)
            artefacts.append("bleed-through")
        if generation == "photocopy":
            page, found = _photocopy(page, seed, page_rng, *labels_page)
            artefacts += found
        elif generation == "fax":
            page = _fax_header(page, sender, sent, index + 1, pages, page_rng)
            page = fax_damage(page, seed, *labels_page, stretch=page_rng.uniform(1.0, 1.03),
                              drop_per_mille=page_rng.randint(2, 9), streaks=page_rng.randint(0, 2)).image
            artefacts += ["fax-header", "fax-lines"]
            page = page.resize((round(width * dpi / FAX_DPI), round(height * dpi / FAX_DPI)), Image.Resampling.BILINEAR)
        scanned, params = office_scan(page, seed, *labels_page, "scan", max_angle=ARCHIVE_SKEW, heavier=generation != "scan")
        images.append(black_and_white(scanned.image, params))
        found_artefacts = tuple(artefacts)
        records.append(PageScan(index + 1, generation, dpi, round(params.angle, 2), params.blur_radius, params.noise_sigma,
                                found_artefacts, tuple(marks),
                                severity(generation, dpi, params.blur_radius, params.noise_sigma, found_artefacts)))
    return image_pdf(images, size, title, creator, group4=True), tuple(records)


def _bleed_through(page: Image.Image, reverse: Image.Image, rng: random.Random) -> Image.Image:
    """The reverse side's print, mirrored and faint, under the page's own."""
    ghost = np.asarray(reverse.transpose(Image.Transpose.FLIP_LEFT_RIGHT), dtype=np.int32)
    strength = rng.uniform(0.08, 0.2)  # how much of the reverse's ink comes through
    shadow = 255 - ((255 - ghost) * strength).astype(np.int32)
    pixels = np.minimum(np.asarray(page, dtype=np.int32), shadow)
    return Image.fromarray(pixels.astype(np.uint8), mode="L")


def _photocopy(page: Image.Image, seed: int, rng: random.Random, *labels: str | int) -> tuple[Image.Image, list[str]]:
    """A photocopier's marks: a dark edge, toner specks, punch holes (each drawn or not)."""
    found = []
    width, height = page.size
    pixels = np.array(page, dtype=np.uint8)
    if rng.random() < 0.6:
        band = rng.randint(4, max(5, width // 60))
        grey = rng.randint(20, 90)
        side = rng.choice(("left", "right", "top", "bottom"))
        ragged = make_bits(seed, *labels, "edge").random_raw(max(width, height)) % np.uint64(max(2, band // 2))
        for k in range(height if side in ("left", "right") else width):
            reach = band + int(ragged[k])
            if side == "left":
                pixels[k, :reach] = np.minimum(pixels[k, :reach], grey)
            elif side == "right":
                pixels[k, width - reach :] = np.minimum(pixels[k, width - reach :], grey)
            elif side == "top":
                pixels[:reach, k] = np.minimum(pixels[:reach, k], grey)
            else:
                pixels[height - reach :, k] = np.minimum(pixels[height - reach :, k], grey)
        found.append("copier-edge")
    if rng.random() < 0.7:
        count = rng.randint(20, 160)
        raw = make_bits(seed, *labels, "specks").random_raw(2 * count)
        ys, xs = raw[:count] % np.uint64(height), raw[count:] % np.uint64(width)
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            pixels[y : y + rng.randint(1, 3), x : x + rng.randint(1, 3)] = rng.randint(10, 80)
        found.append("specks")
    image = Image.fromarray(pixels, mode="L")
    if rng.random() < 0.25:
        draw = ImageDraw.Draw(image)
        radius = max(6, width // 70)
        x = width // 30
        for fraction in (0.15, 0.5, 0.85) if rng.random() < 0.5 else (0.25, 0.75):
            y = int(height * fraction)
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=rng.randint(10, 50))
        found.append("punch-holes")
    return image, found


def _fax_header(page: Image.Image, sender: str, sent: str, number: int, pages: int, rng: random.Random) -> Image.Image:
    """The transmission line a fax machine prints across the top of every page it sends."""
    image = page.copy()
    width, _ = image.size
    size = max(9, width // 70)
    text = f"{sent}   FROM: {sender.upper()}   FAX ({rng.randint(200, 989)}) 555-{rng.randint(1000, 9999)}   P.{number:02d}/{pages:02d}"
    ImageDraw.Draw(image).text((width // 25, 4), text, fill=rng.randint(0, 40), font=font(size, "regular"))
    return image
