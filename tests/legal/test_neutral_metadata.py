"""No Legal PDF names its instrument's kind in its metadata or its file name.

Data before issue 33's leak fix put the instrument's title in each PDF's Title metadata ("Quit
Claim Deed", "Release Of Environmental Lien", "Environmental Indemnification Agreement"), read
without opening a page, even on scans. The single-instrument datasets now carry the same neutral
Title (envirobench_synth.legal.NEUTRAL_TITLE); chain-of-title's packets carry none. These checks
read every shipped PDF of the category (pypdf).
"""

from __future__ import annotations

import re

import pypdf
import pytest

from envirobench_legal.package import PACKAGE
from envirobench_synth.legal import NEUTRAL_TITLE

FOLDERS = ("synthetic-dev-v1", "synthetic-test-v1")
METADATA = ("/Title", "/Subject", "/Keywords", "/Author")
KIND_WORDS = re.compile(
    r"deed|covenant|easement|lien|release|termination|amendment|restriction|indemn|agreement|contract|"
    r"purchase|sale|lease|mortgage|notice|affidavit|certificate",
    re.I,
)


@pytest.mark.parametrize("type_id", sorted(t.ID for t in PACKAGE.types))
@pytest.mark.parametrize("folder", FOLDERS)
def test_no_pdf_names_its_kind_in_its_metadata_or_file_name(type_id, folder):
    paths = sorted((PACKAGE.layout(type_id).dataset_dir(folder) / "assets").glob("*.pdf"))
    assert paths
    titles = set()
    for path in paths:
        assert not KIND_WORDS.search(path.name), path.name
        metadata = pypdf.PdfReader(path).metadata or {}
        for field in METADATA:
            value = str(metadata.get(field) or "")
            assert not KIND_WORDS.search(value), f"{path.name}: {field} = {value!r}"
        titles.add(str(metadata.get("/Title") or ""))
    # One Title for the whole dataset (or none): it says nothing of any one case.
    assert titles <= {NEUTRAL_TITLE, ""}, titles
