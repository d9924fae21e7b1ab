"""Trivial baselines shared by the two record types (document-extraction, table-records): what a
system scores that reads no value at all, and the table of the reference's recall per layout."""

from _spec_parts import always, by_category


def every_record_a_nondetect(case_input, answer):
    """The key's records (samples, analytes, CAS numbers, units and reporting limits copied), each
    read as a plain non-detect at its limit: the score of knowing which rows are records and
    guessing the commonest outcome, which on lab reports is "not detected"."""
    return {
        "records": [
            {
                "sample_id": r.sample_id,
                "analyte": r.analyte,
                "cas": r.cas,
                "result": None,
                "nondetect": True,
                "unit": r.unit,
                "qualifier": None,
                "reporting_limit": r.reporting_limit,
            }
            for r in answer.records
        ]
    }


def names_only(case_input, answer):
    """The key's samples and analytes with every value left out (no CAS, result, unit, qualifier or
    limit; a detect): what finding the right rows alone is worth in each profile."""
    return {
        "records": [
            {
                "sample_id": r.sample_id,
                "analyte": r.analyte,
                "cas": None,
                "result": None,
                "nondetect": False,
                "unit": "?",
                "qualifier": None,
                "reporting_limit": None,
            }
            for r in answer.records
        ]
    }


BASELINES = {
    # Empty output: recall 0 and an undefined precision, the floor of record F1.
    "no records (empty output)": always({"records": []}),
    "every record a non-detect at its limit (rows, units and limits from the key)": every_record_a_nondetect,
    "the right rows, no values (samples and analytes from the key)": names_only,
}
# Reference points, not shortcuts: they copy the key's rows (left out of the summary's best shortcut).
KEY_COPIES = (
    "every record a non-detect at its limit (rows, units and limits from the key)",
    "the right rows, no values (samples and analytes from the key)",
)
GROUP_METRIC = (
    "tp",
    ("tp", "fn"),
)  # records right / records in the key: the reference's recall per group
GROUP_TITLE = "Records right / records in the key (reference adapter), by layout (the case category)"
groups = by_category
