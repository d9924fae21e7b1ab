"""What the specs of the three table-image types (table-separators, table-structure, table-cells)
share: their cases' category is the table family, with "-scanned" on a scanned copy."""


def by_family_and_copy(case_id, category, answer):
    """Groups by the table family and by the copy: "scanned" or "clean"."""
    family = (category or "-").removesuffix("-scanned")
    return [family, "scanned" if (category or "").endswith("-scanned") else "clean"]
