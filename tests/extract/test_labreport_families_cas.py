"""The `cas` of a v2 lab-report record (envirobench_synth.labreport.families) is the CAS number
printed on the result's own row, and null where that row prints none.

Checked on the drawn pages, not on the generator's bookkeeping: a few reports of every family
(and, per family, two reports stapled in one PDF) are rendered, each results table part is cut
into its printed rows (the texts sharing a baseline), and every record must come from rows that
show its CAS number, or, when its CAS is null, rows that show no CAS number at all. The long-table
families print no CAS column, so none of their records has a CAS; a CAS printed elsewhere in the
report does not count. A results page cut out on its own (as table-records stores it) shows the
CAS numbers of its records, and no other page supplies them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache

import pypdfium2 as pdfium
import pytest

from envirobench_synth.labreport.draft import PageDraft, Part, Text
from envirobench_synth.labreport.families import FAMILIES, cas_column, sample_family_report
from envirobench_synth.labreport.skeletons import render_family_reports
from envirobench_synth.rng import make_random

SEED = 5151
PER_FAMILY = 3
CAS = re.compile(r"[0-9]{2,7}-[0-9]{2}-[0-9]")


@cache
def rendered(name: str, n: int):
    """Report n of family `name` (n == PER_FAMILY: two reports stapled), rendered unscanned."""
    family = next(f for f in FAMILIES if f.name == name)
    count = 2 if n == PER_FAMILY else 1
    reports = [
        sample_family_report(make_random(SEED, name, n, k), family, family.split)
        for k in range(count)
    ]
    return render_family_reports(reports, SEED, name, n)


def printed_rows(page: PageDraft, part: Part) -> list[list[str]]:
    """The texts of a table part, one list per baseline (a printed row, a title or a caption)."""
    left, top, right, bottom = part.bbox
    rows: dict[float, list[str]] = defaultdict(list)
    for item in page.items:
        if (
            isinstance(item, Text)
            and item.angle == 0
            and left - 1 <= item.x <= right + 1
            and top <= item.y <= bottom
        ):
            rows[round(item.y, 2)].append(item.text)
    return [rows[y] for y in sorted(rows)]


def page_text(pdf: bytes) -> str:
    document = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_a_record_has_a_cas_exactly_when_its_row_prints_it(family):
    with_cas = without_cas = 0
    for n in range(PER_FAMILY + 1):
        out = rendered(family, n)
        for page in out.drafts:
            for part in page.parts:
                records = [r for r in part.records if r >= 0]
                if not records:
                    continue
                rows = printed_rows(page, part)
                for r in records:
                    record = out.records[r]
                    # The rows of this table part that print the record's analyte (a long table
                    # prints it once per sample; every such row of one table shows the same CAS).
                    source = [row for row in rows if record.analyte in row]
                    assert source, (family, n, record)
                    for row in source:
                        shown = [text for text in row if CAS.fullmatch(text)]
                        expected = [record.cas] if record.cas is not None else []
                        assert shown == expected, (family, n, record, row)
                    with_cas += record.cas is not None
                    without_cas += record.cas is None
    if cas_column(next(f for f in FAMILIES if f.name == family)):
        assert with_cas > 0  # (% solids and petroleum-fraction rows print `--`: no CAS)
    else:
        assert with_cas == 0 and without_cas > 0


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_a_results_page_on_its_own_shows_the_cas_of_each_of_its_records(family):
    out = rendered(family, 0)
    for number in sorted({t.page for t in out.tables}):
        text = page_text(out.pages_pdf([number]))
        indices = [i for t in out.tables if t.page == number for i in t.records]
        printed = set(CAS.findall(text))
        wanted = {out.records[i].cas for i in indices} - {None}
        # Rows that are not records (QC runs, E results, NA cells) may print CAS numbers too.
        assert wanted <= printed, (family, number, wanted - printed)
        if not cas_column(out.reports[0].family):
            assert not printed and not wanted, (family, number)
