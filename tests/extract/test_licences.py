"""The public Extract datasets state their licence (CC BY 4.0) in their manifests, where it is part
of each dataset's identity."""

from __future__ import annotations

from envirobench import read_manifest
from envirobench_extract.package import PACKAGE


def test_every_public_dataset_is_cc_by_4_0():
    for layout in PACKAGE.layouts.values():
        for folder in layout.datasets:
            manifest = read_manifest(layout.dataset_dir(folder))
            assert manifest.license == "CC-BY-4.0" and manifest.visibility == "public", layout.dataset_dir(folder)
