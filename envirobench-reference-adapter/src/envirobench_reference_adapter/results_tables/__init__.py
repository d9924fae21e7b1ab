"""Measurement records out of the words of laboratory results pages: the core of `table-records`
and `document-extraction`.

`TableReader` reads pages (or table crops) one after another, as lists of `Word`s, and keeps
what a table carries over a page break. It reads what reports print by general means, with no
list of one laboratory's titles:

1. Lines (`layout.group_lines`) are read top to bottom and classified:
   - a *label* line holds `Label: value` pairs (or a label and its value with a gutter between).
     A label that names a sample (its words say sample, field, client, location, station, well
     ... and not the laboratory's own ID, a date or a count) sets the current sample; a label of
     units (`Units: mg/kg`) sets the unit for tables that print none;
   - a *title* (a short line, no values, not a header) heads a quality-control section when it
     names laboratory QC (method or laboratory blank, control sample, matrix spike, duplicate,
     surrogate, recovery, calibration, QC/LCS/MS/MSD/MB abbreviations ...) before it names a
     method, a technique or a group of analytes (`vocabulary.is_qc_heading`): "Method Blank",
     "LCS/LCSD", "Quality Control Summary" do; "EPA 8260D - Volatile Organic Compounds by
     GC/MS" (the MS of a technique is no matrix spike) and "Volatiles: Method Blank, LCS and
     Surrogate Recovery" do not. A QC heading ends the sample a label named (its tables give
     records only for the samples they name themselves, each judged by its row), and that is
     all it does: a heading never switches reading off, so no heading loses the tables after
     it (issue 32, "a reader that degrades, never drops"). A sample label naming lab QC
     (`MW-01 MS`) stops records until the next label or results title.
2. A header is a block of up to three lines without values (a title may wrap over lines, and a
   one-line title sits between the lines of its neighbours) whose cells score as column roles
   (`headers.title_scores`): at least two different roles, or the analyte's and sample IDs.
3. Body rows are the lines that follow while each holds a number, a non-detect or a CAS number
   and sits within ROW_GAP_EMS ems of the line above. A line of one phrase between rows is a
   section row (a method group, "Surrogates", a unit for the rows below); a QC section row (a QC
   heading, as in step 1) stops records until the next section. Columns are the x-ranges the words of the rows cover, split
   at blanks wider than COLUMN_GAP_EMS ems, plus header cells over blank columns; a header cell
   spanning several columns is a group title of each (a unit or "Sample ID" over sample columns).
4. Roles come from `headers.assign_roles`: the title's words and the cells' content together.
   Numeric columns without a title role are sample columns (samples as columns, their titles
   the sample IDs) when there is no result column. A sample column (samples as rows, one long
   table) gives each row its sample; otherwise rows belong to the current sample label. A table
   with a recovery or control-limit column reports QC and gives no records.
5. Rows that are QC give no records: a sample ID naming lab QC (a blank, control sample, spike,
   duplicate of another sample: `MW-01 MS`, `LCS-2401`, `MB 12/1`; not field QC such as `DUP-1`
   or `TB-01`, which are samples), an analyte that is a surrogate (`(S)`, `Surr`, deuterated
   `-d8`) or a row whose unit is a percent with a control range beside it.
6. Values are read with `quantities` (`<0.50`, `< 0.50`, `<RL`, `ND`, `0.50 U`, `1.2E-03`,
   `0,52`: a report that prints one unambiguous decimal comma is read as writing them all); a
   qualifier comes from its column, from the result cell (`0.52 J`), or from a footnote marker
   (`0.052ᵃ`) resolved by a footnote line (`a   J – Estimated value`) below the table; the
   reporting limit from its column (or the `<0.50` limit when there is none); the unit from its
   column, the result's or the sample column's title, a section row or a units label.
7. Rows at the top of a page before any header, that fill the columns of the table the previous
   page ended with, continue that table (a table broken across pages without a repeated header).

Weaknesses: a header none of whose titles scores (an unfamiliar word for every column) is not
found; a table with a blank column whose gutter is narrower than COLUMN_GAP_EMS merges two
columns; OCR errors in a word (a misread digit, a CAS number broken by a space) pass through
into the record; a footnote whose definition is on another page than the marker is left
unresolved unless the table continues there; a continued table is recognised only if its rows
keep the previous page's column positions (true for the same page size); QC is recognised only
by the general words and abbreviations above.

The package's modules, each using only those before it: `vocabulary`, `lines`, `columns`,
`reportable`, then `reader` (`TableReader`, which this face names).
"""

from __future__ import annotations

from .reader import TableReader
from .vocabulary import DATE_LIKE

__all__ = ["DATE_LIKE", "TableReader"]
