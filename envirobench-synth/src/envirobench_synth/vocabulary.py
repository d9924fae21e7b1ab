"""The synonym catalogue: what laboratories call the same thing, split between dev and test.

Real laboratory reports title the same column a dozen ways (Result, Conc., Amount Found; RL, RDL,
MRL, PQL, LOQ, SQL; Units, UOM; Q, Qual, Flag, Lab Qualifiers) and name the same compound several
ways (Tetrachloroethene, Tetrachloroethylene, Perchloroethylene, PCE). Every generator of a
report or table draws its words from here, never from a string of its own, so that a reader
fitted to one generator's words is caught out by the next one.

Each term belongs to one split. Documents of a dev-split dataset use only `dev` terms; documents
of a test split use `test` terms (and may use `dev` ones as well: real reports share the common
words), so a test split always shows vocabulary the dev split never does. The reference adapter
is developed on dev and must never contain a test-only term (a test checks its source).

Grow a list by appending: samplers pick by position, so inserting in the middle would change
every dataset generated from it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")


@dataclass(frozen=True)
class Term:
    text: str
    split: Split


def _terms(dev: Sequence[str], test: Sequence[str]) -> tuple[Term, ...]:
    return tuple(Term(t, "dev") for t in dev) + tuple(Term(t, "test") for t in test)


# Column titles of a results table, by the role the column plays.
COLUMN_TERMS: dict[str, tuple[Term, ...]] = {
    "sample_id": _terms(
        ("Client Sample ID", "Sample ID", "Field ID"),
        ("Client ID", "Sample Name", "Location ID", "Field Sample No."),
    ),
    "lab_id": _terms(
        ("Lab Sample ID", "Lab ID"), ("Laboratory No.", "Lab Sample No.", "Lab Number")
    ),
    "analyte": _terms(
        ("Analyte", "Parameter", "Compound"),
        ("Constituent", "Target Compound", "Determinand", "Parameter Name"),
    ),
    "cas": _terms(
        ("CAS No.", "CAS Number", "CASRN"), ("CAS #", "CAS Reg. No.", "Chemical Abstract No.")
    ),
    "result": _terms(
        ("Result", "Concentration", "Conc."),
        ("Amount Found", "Measured Value", "Reported Value", "Amt."),
    ),
    "reporting_limit": _terms(
        ("RL", "Reporting Limit", "PQL"),
        ("RDL", "MRL", "LOQ", "SQL", "Quantitation Limit", "Report Limit"),
    ),
    "mdl": _terms(("MDL", "Method Detection Limit"), ("DL", "LOD", "Detection Limit", "SDL")),
    "unit": _terms(("Units", "Unit"), ("UOM", "Reporting Units", "Result Units")),
    "qualifier": _terms(
        ("Qual", "Q", "Qualifier"), ("Flag", "Lab Qualifiers", "Data Flag", "Lab Flag")
    ),
    "dilution": _terms(("DF", "Dilution"), ("Dil. Factor", "Dilution Factor", "DIL")),
    "method": _terms(
        ("Method", "Analytical Method"), ("Test Method", "Prep/Analysis", "Procedure")
    ),
    "analysed": _terms(
        ("Date Analyzed", "Analyzed"), ("Analysis Date", "Anal. Date", "Date/Time Analyzed")
    ),
    "prepared": _terms(("Date Prepared", "Prepared"), ("Prep Date", "Extraction Date")),
    "batch": _terms(("Batch", "QC Batch"), ("Prep Batch", "Analytical Batch", "Run ID")),
    "screening": _terms(
        ("Screening Level", "Action Level"), ("Cleanup Level", "MCL", "Regulatory Limit")
    ),
    "recovery": _terms(("%REC", "% Recovery"), ("Rec. (%)", "Percent Recovery")),
    "limits": _terms(
        ("Limits", "Control Limits"), ("Acceptance Limits", "QC Limits", "%REC Limits")
    ),
}

# Labels of the report-level facts (report-metadata), on covers, headers and footers.
LABEL_TERMS: dict[str, tuple[Term, ...]] = {
    "work_order": _terms(
        ("Work Order", "Lab Project No."), ("Job Number", "SDG", "Login No.", "Lab Report No.")
    ),
    "report_date": _terms(
        ("Report Date", "Date Reported"),
        ("Date Issued", "Issue Date", "Report Issued", "Date Released"),
    ),
    "received_date": _terms(("Date Received", "Received"), ("Receipt Date", "Arrival Date")),
    "client": _terms(("Client", "Prepared For"), ("Submitted By", "Customer", "Report To")),
    "project": _terms(
        ("Project", "Project Name"), ("Site Name", "Project Description", "Project Location")
    ),
    "project_number": _terms(
        ("Project No.", "Client Project ID"), ("Project #", "PO Number", "Client Job No.")
    ),
    "collected": _terms(
        ("Date Collected", "Collected"), ("Sampled", "Collection Date", "Date Sampled")
    ),
    "matrix": _terms(("Matrix",), ("Sample Type", "Media")),
    "approver": _terms(
        ("Approved By", "Reviewed By"), ("Authorized By", "Released By", "Certified By")
    ),
    "status": _terms(
        ("Report Status", "Status"), ("Report Type", "Issue Status", "Document Status")
    ),
    "printed": _terms(("Printed", "Print Date"), ("Date Printed", "Run Date", "Printed On")),
    "supersedes": _terms(("Supersedes", "Replaces"), ("Supersedes Report", "Replaces Report No.")),
    "po_number": _terms(("PO No.", "Purchase Order"), ("P.O. #", "Client PO", "Customer PO")),
    "laboratory": _terms(("Laboratory", "Lab"), ("Testing Laboratory", "Performing Lab")),
    "analysed": _terms(("Date Analyzed", "Analyzed"), ("Analysis Date", "Date of Analysis")),
    "sampler": _terms(("Collected By", "Field Sampler"), ("Sampler Name", "Field Staff")),
}

# The report-level facts every laboratory report labels on its cover and headers, in the order
# their terms are drawn (a fixed list: roles appended to LABEL_TERMS later must not shift these
# draws). The lab-report families label these; report-metadata's front matter labels these and
# its own further facts (frontmatter.facts.ROLES).
LABEL_ROLES: tuple[str, ...] = (
    "work_order",
    "report_date",
    "received_date",
    "client",
    "project",
    "project_number",
    "collected",
    "matrix",
    "approver",
)

# How a report states its status (report-metadata's `status`), by status.
STATUS_TERMS: dict[str, tuple[Term, ...]] = {
    "draft": _terms(
        ("DRAFT", "Draft", "Preliminary"), ("Provisional", "Interim Report", "Not Final")
    ),
    "final": _terms(("Final", "FINAL"), ("Final Issue", "Certified Final", "Issued Final")),
    "revised": _terms(("Revised", "Revision"), ("Amended", "Reissued", "Corrected Report")),
}

# Names of one compound, by CAS Registry Number (the catalogue's `Analyte.name` is always `dev`).
ANALYTE_SYNONYMS: dict[str, tuple[Term, ...]] = {
    "127-18-4": _terms(("Tetrachloroethene", "PCE"), ("Tetrachloroethylene", "Perchloroethylene")),
    "79-01-6": _terms(("Trichloroethene", "TCE"), ("Trichloroethylene",)),
    "156-59-2": _terms(
        ("cis-1,2-Dichloroethene", "cis-1,2-DCE"), ("cis-1,2-Dichloroethylene", "c-1,2-DCE")
    ),
    "156-60-5": _terms(
        ("trans-1,2-Dichloroethene", "trans-1,2-DCE"), ("trans-1,2-Dichloroethylene", "t-1,2-DCE")
    ),
    "75-35-4": _terms(
        ("1,1-Dichloroethene", "1,1-DCE"), ("1,1-Dichloroethylene", "Vinylidene chloride")
    ),
    "75-01-4": _terms(("Vinyl chloride", "VC"), ("Chloroethene", "Chloroethylene")),
    "75-09-2": _terms(("Methylene chloride",), ("Dichloromethane",)),
    "67-66-3": _terms(("Chloroform",), ("Trichloromethane",)),
    "107-06-2": _terms(("1,2-Dichloroethane", "1,2-DCA"), ("Ethylene dichloride",)),
    "1634-04-4": _terms(
        ("Methyl tert-butyl ether", "MTBE"), ("tert-Butyl methyl ether", "Methyl t-butyl ether")
    ),
    "1330-20-7": _terms(("Xylenes, Total",), ("Total Xylenes", "Xylenes (total)")),
    "95-63-6": _terms(("1,2,4-Trimethylbenzene",), ("1,2,4-TMB",)),
    "50-32-8": _terms(("Benzo(a)pyrene", "BaP"), ("Benzo[a]pyrene", "B(a)P")),
    "56-55-3": _terms(("Benzo(a)anthracene",), ("Benz[a]anthracene", "Benzo[a]anthracene")),
    "205-99-2": _terms(("Benzo(b)fluoranthene",), ("Benzo[b]fluoranthene",)),
    "193-39-5": _terms(("Indeno(1,2,3-cd)pyrene",), ("Indeno[1,2,3-cd]pyrene",)),
    "53-70-3": _terms(("Dibenz(a,h)anthracene",), ("Dibenzo[a,h]anthracene",)),
    "123-91-1": _terms(("1,4-Dioxane",), ("p-Dioxane",)),
    "11097-69-1": _terms(("Aroclor 1254", "PCB-1254"), ("Aroclor-1254",)),
    "11096-82-5": _terms(("Aroclor 1260", "PCB-1260"), ("Aroclor-1260",)),
    "7439-97-6": _terms(("Mercury",), ("Mercury (Hg)", "Mercury, Total")),
    "7439-92-1": _terms(("Lead",), ("Lead (Pb)", "Lead, Total")),
    "7440-38-2": _terms(("Arsenic",), ("Arsenic (As)", "Arsenic, Total")),
}

# Cells a results table holds that are not results.
NOT_RESULT_TERMS: tuple[Term, ...] = _terms(("NA", "--"), ("NR", "N/A", "not analyzed", "---"))


def terms_of(terms: Sequence[Term], split: Split, *, shared: bool = True) -> tuple[str, ...]:
    """The texts a document of `split` may use: a dev document only dev terms; a test document its
    test terms and, with `shared`, the dev ones as well."""
    if split == "dev":
        return tuple(t.text for t in terms if t.split == "dev")
    return tuple(t.text for t in terms if t.split == "test" or (shared and t.split == "dev"))


def choose(rng: random.Random, terms: Sequence[Term], split: Split, *, shared: bool = True) -> str:
    return rng.choice(terms_of(terms, split, shared=shared))


def test_only_terms() -> frozenset[str]:
    """Every term of the catalogue a dev document never shows (the reference adapter may not
    contain one)."""
    groups = [
        *COLUMN_TERMS.values(),
        *LABEL_TERMS.values(),
        *STATUS_TERMS.values(),
        *ANALYTE_SYNONYMS.values(),
        NOT_RESULT_TERMS,
    ]
    return frozenset(t.text for group in groups for t in group if t.split == "test")
