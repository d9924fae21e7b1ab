"""Report families of Extract v2: six laboratory-report families with their conventions and traps.

A family is how one kind of laboratory prints a report: a skeleton (how results are laid out on
the pages, see `skeletons.py`), its vocabulary (column titles, labels and analyte names drawn from
`envirobench_synth.vocabulary` by split) and its conventions (non-detect notation, date format,
decimal comma, scientific notation, where quality control is printed, headers and footers). Dev
families and test families are disjoint: a test split shows skeleton variants, conventions and
words its dev split never shows.

`sample_family_report(rng, family)` draws a `FamilyReport`: samples as the laboratory lists them
("blocks": field samples, field QC, re-analyses and laboratory QC runs), method sections, and
every printed cell with its truth. Rendering (`skeletons.render_family_report`) lays the cells
out; the ground truth is the truth of every cell printed, in print order.

Truth rules (the record format of EnviroBench's Extract types, `envirobench_extract.records`,
extended for the traps of real reports; the v1 rules of `model.py` hold where these say nothing):

- Only results of the client's samples are records. Field QC samples ARE client samples: blind
  field duplicates (DUP-1, FD-01), trip blanks, equipment and rinsate blanks are records.
  Laboratory QC is NOT: surrogate %REC rows under a sample, matrix spikes and their duplicates
  (IDs such as "MW-01 MS", "MW-01 MSD"), laboratory duplicates ("MW-01 DUP"), laboratory control
  samples (LCS, LCSD) and method blanks, wherever they are printed (inline or on QC pages).
- `sample_id` is the field sample ID as printed with the results, without a laboratory
  re-analysis suffix: a result printed under "MW-03 DL" or "MW-03RE" is a result of MW-03. Where
  the sample summary or narrative spells an ID otherwise (MW-3 vs MW-03), the results pages'
  spelling is the truth. Dates and depths inside an ID are part of it.
- Reportable result of a re-analysis: for an analyte over the calibration range at dilution 1
  (printed with an E flag) the reportable result is the diluted run's (DL, flagged D); the E
  result is not a record. Every other analyte of a DL run is not a record (its undiluted result
  is the reportable one). When the narrative says a re-analysis (RE) is reported, the RE run's
  results are the records and the original run of that method for that sample is not.
- E flags: a detection above the calibration range at dilution 1 is always flagged E (and has
  its diluted re-analysis in the report).
- `reporting_limit` is the value printed in the reporting-limit column (RL, PQL, LOQ, ...) of
  the result's row, even when a non-detect is printed at the method detection limit
  (`0.20 U` or `<0.20` with MDL 0.20 and RL 1.0: reporting_limit 1.0). Where no reporting-limit
  column is printed, it is the number of a non-detect cell (`<0,50`, `0.50 U`) and null for a
  detection.
- `cas` is the CAS Registry Number printed on the result's own row, and null where that row
  prints none: the `--` of a percent solids or moisture row, and every result of the long-table
  skeleton (`dev-long-table`, `test-method-sections`), whose tables (one long table, or one per
  method) have no CAS column. The sample-pages skeleton prints a CAS column in every sample
  table, the sample-columns skeleton one on every analyte row beside the samples' results (and
  again in each table of a method split over several). A CAS number printed anywhere else (on
  another page, in another table, in a sample summary or the narrative) does not count unless it
  is printed beside that result; `cas_column(family)` says which families print it.
- Numbers are read as printed: decimal commas (`1,25` is 1.25), scientific notation
  (`1.2E+03` is 1200), thousands separators removed.
- `qualifier` is every flag printed with the result, separators removed (`J,B` and `J B` are
  "JB"; validator flags `UJ`, `J+`, `J-`, `JN` stay as printed). A result flagged `R`
  (rejected) is not a record.
- Superseded data is not a record: the original pages appended behind a revised report, and a
  result the narrative declares invalid. The revised value printed in the report is the record.
- Cells that are not results (`NA`, `--`, `NR`, `not analyzed`) are not records; screening-level
  columns and exceedance shading are not part of any record.
- Fractions: an analyte in a dissolved, TCLP or SPLP section is named with the fraction in
  parentheses after the name printed: "Lead (dissolved)", "Lead (TCLP)", "Lead (SPLP)" (total
  metals keep the printed name). TCLP/SPLP leachate results are in the leachate unit printed
  (mg/L) although the sample is a soil.
- Percent solids and percent moisture rows are records (analyte as printed, unit "%", CAS null).
  Soil results are on the basis the report states (dry weight); the unit is as printed.
- A PDF holding several reports stapled together: the records of every report in it.

The package in parts: `family` (the families), `printed` (a printed report's records), `cells`,
`planting` (the traps) and `sampling` (`sample_family_report`).
"""

from ...vocabulary import LABEL_ROLES
from .cells import (
    SECTION_TITLES,
    SURROGATES,
    _analyte_name,
    _conventions,
    _field_cell,
    _nondetect_cell,
    _record,
    cas_column,
)
from .family import FAMILIES, FAMILY_BY_NAME, Family, families_of
from .planting import ResultGrid, _plant_lab_qc
from .printed import (
    LAB_QC,
    Block,
    Cell,
    Conventions,
    FamilyReport,
    ReportFacts,
    Section,
    read_number,
)
from .sampling import sample_family_report

__all__ = [
    "Block",
    "Cell",
    "Conventions",
    "FAMILIES",
    "FAMILY_BY_NAME",
    "Family",
    "FamilyReport",
    "LABEL_ROLES",
    "LAB_QC",
    "ReportFacts",
    "ResultGrid",
    "SECTION_TITLES",
    "SURROGATES",
    "Section",
    "_analyte_name",
    "_conventions",
    "_field_cell",
    "_nondetect_cell",
    "_plant_lab_qc",
    "_record",
    "cas_column",
    "families_of",
    "read_number",
    "sample_family_report",
]
