"""The Site datasets ship once and are materialised on first use: the generators on a tiny
hand-made split, the shipped layout, the materialised datasets (valid, sharing one copy of each
record file), a tampered or missing file refused with its name, and a race of two first uses."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from site_kit import TYPES, TypesPlugin, use_fake_sites

from envirobench import BenchmarkPackage, EnviroBenchError, build_registry, load_dataset, read_json
from envirobench_site import shipping
from envirobench_site.generate.ship import ship
from envirobench_site.shipping import materialise

FOLDERS = ("synthetic-dev-v1", "synthetic-test-v1")


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """A package directory with the tiny sites shipped as the real one ships its records."""
    package = tmp_path_factory.mktemp("package")
    with pytest.MonkeyPatch.context() as mp:
        use_fake_sites(mp)
        # the dev and the public test folders (the many-sites split ships the same way)
        lines = [
            line
            for folder in FOLDERS
            for line in ship([t.ID for t in TYPES], folder, package_dir=package)
        ]
    assert len(lines) == 2 * (1 + len(TYPES))
    return package


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setenv("ENVIROBENCH_LOAD_PLUGINS", "")
    return build_registry(extra=[("site-types", TypesPlugin())])


def materialise_all(package: Path, cache: Path) -> dict[tuple[str, str], Path]:
    return {
        (cls.ID, folder): materialise(
            cls.ID,
            folder,
            package / "benchmarks" / cls.ID / "datasets" / folder,
            package / "records" / shipping.required_split(folder),
            package / "benchmarks" / cls.ID / "fixtures" / folder,
            cache,
        )
        for cls in TYPES
        for folder in FOLDERS
    }


def test_the_package_ships_each_record_once_and_small_files_per_type(shipped):
    records = sorted(
        str(p.relative_to(shipped)) for p in (shipped / "records").rglob("*") if p.is_file()
    )
    assert "records/dev/tiny-dev-1/volume-1.pdf" in records
    assert "records/test/standards-v1.json" in records and len(records) == 3 * 2 + 3 * 2 + 2
    for cls in TYPES:
        for folder in FOLDERS:
            shipped_dir = shipped / "benchmarks" / cls.ID / "datasets" / folder
            assert sorted(p.name for p in shipped_dir.iterdir()) == [
                "answers.jsonl",
                "cases.jsonl",
                "manifest.json",
            ]
            fixtures = shipped / "benchmarks" / cls.ID / "fixtures" / folder
            assert sorted(p.name for p in fixtures.iterdir()) == ["correct.json", "wrong.json"]


def test_materialised_datasets_are_valid_and_share_one_copy_of_each_record(
    shipped, tmp_path, registry
):
    made = materialise_all(shipped, tmp_path / "cache")
    inodes = set()
    for (type_id, folder), directory in made.items():
        dataset = load_dataset(directory, registry)  # every SHA-256 and schema verified
        assert dataset.manifest.benchmark == type_id
        split = shipping.required_split(folder)
        assert sorted(dataset.cases(registry.benchmark_type(type_id))) == sorted(
            {
                "dev": ["tiny-dev-1", "tiny-dev-2", "tiny-dev-3"],
                "test": ["tiny-test-1", "tiny-test-2", "tiny-test-3"],
            }[split]
        )
        volume = (
            directory
            / "assets"
            / ("tiny-dev-1" if split == "dev" else "tiny-test-1")
            / "volume-1.pdf"
        )
        inodes.add((split, volume.stat().st_ino))
        assert (directory.parent.parent / "fixtures" / folder / "correct.json").is_file()
    # Hard links: each record file is one inode, whatever the number of types using it.
    assert len(inodes) == 2
    # A second first use finds the published copy and changes nothing.
    assert materialise_all(shipped, tmp_path / "cache") == made


def test_fixtures_score_as_they_should(shipped, tmp_path, registry):
    for (type_id, _folder), directory in materialise_all(shipped, tmp_path / "cache").items():
        btype = registry.benchmark_type(type_id)
        dataset = load_dataset(directory, registry)
        cases, answers = dataset.cases(type(btype)), dataset.answers(type(btype))
        fixtures = directory.parent.parent / "fixtures" / directory.name
        from envirobench import structure

        for name, clean in (("correct.json", True), ("wrong.json", False)):
            predictions = read_json(fixtures / name)
            errors = [
                btype.score_case(cases[c], answers[c], structure(predictions[c], btype.Prediction))[
                    btype.PROFILES[0]
                ].errors
                for c in cases
            ]
            assert (
                all(not e for e in errors)
                if clean
                else sum(1 for e in errors if e)
                == len(cases) - (len(cases) - 3 if len(cases) > 3 else 0)
            ), (type_id, name)


def _copy_package(source: Path, target: Path) -> Path:
    import shutil

    shutil.copytree(source, target)
    return target


def test_a_tampered_record_is_refused_with_its_name_and_nothing_is_published(shipped, tmp_path):
    package = _copy_package(shipped, tmp_path / "package")
    volume = package / "records" / "test" / "tiny-test-2" / "volume-2.pdf"
    volume.write_bytes(volume.read_bytes() + b"\n% altered\n")
    cache = tmp_path / "cache"
    with pytest.raises(EnviroBenchError) as info:
        materialise_all(package, cache)
    assert "assets/tiny-test-2/volume-2.pdf" in str(info.value) and "SHA-256" in str(info.value)
    published = [p for p in cache.iterdir()]
    # The dev datasets came first and are published; no test dataset and no partial copy is.
    assert all(not p.name.startswith(".partial") for p in published)
    assert not list(cache.glob("*/*/datasets/synthetic-test-v1"))


def test_a_missing_record_or_manifest_is_refused_with_its_name(shipped, tmp_path):
    package = _copy_package(shipped, tmp_path / "package")
    (package / "records" / "dev" / "tiny-dev-2" / "volume-1.pdf").unlink()
    with pytest.raises(EnviroBenchError, match="assets/tiny-dev-2/volume-1.pdf .* missing"):
        materialise_all(package, tmp_path / "cache")
    (
        package / "benchmarks" / "site-timeline" / "datasets" / "synthetic-dev-v1" / "manifest.json"
    ).unlink()
    with pytest.raises(EnviroBenchError, match="manifest"):
        materialise(
            "site-timeline",
            "synthetic-dev-v1",
            package / "benchmarks" / "site-timeline" / "datasets" / "synthetic-dev-v1",
            package / "records" / "dev",
            package,
            tmp_path / "cache",
        )


def test_two_first_uses_at_once_publish_one_whole_copy(shipped, tmp_path, monkeypatch, registry):
    cache = tmp_path / "cache"
    barrier = threading.Barrier(2)
    publish = shipping._publish

    def publish_together(staging, published):
        barrier.wait(timeout=30)  # both copies are complete before either is renamed
        publish(staging, published)

    monkeypatch.setattr(shipping, "_publish", publish_together)
    found: list[Path] = []

    def first_use():
        found.append(
            materialise(
                "site-results",
                "synthetic-dev-v1",
                shipped / "benchmarks" / "site-results" / "datasets" / "synthetic-dev-v1",
                shipped / "records" / "dev",
                shipped / "benchmarks" / "site-results" / "fixtures" / "synthetic-dev-v1",
                cache,
            )
        )

    threads = [threading.Thread(target=first_use) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 2 and found[0] == found[1]
    assert [p.name for p in cache.iterdir() if p.name.startswith(".partial")] == []
    load_dataset(found[0], registry)


def test_the_cache_is_where_the_environment_says(monkeypatch, tmp_path):
    monkeypatch.setenv(shipping.ENV, str(tmp_path / "site-data"))
    assert shipping.cache_root() == tmp_path / "site-data"
    monkeypatch.delenv(shipping.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert shipping.cache_root() == tmp_path / "xdg" / "envirobench-site"
    assert os.fspath(shipping.cache_root())


def test_a_dataset_that_cannot_be_materialised_is_left_out_with_a_warning():
    from envirobench_site.generate import ship as every_type  # every type, registered or not yet
    from envirobench_site.package import PACKAGE as REGISTERED

    assert REGISTERED.materialise is shipping.materialised  # what core registers the datasets from

    def refuse(layout, folder):
        if folder == "synthetic-test-v1":
            raise EnviroBenchError("assets/st-275/volume-1.pdf of dataset X is missing")
        return Path("/nowhere") / layout.id / folder

    package = BenchmarkPackage("envirobench_site", types=every_type.PACKAGE.types, materialise=refuse)
    registered = []
    with pytest.warns(
        UserWarning, match=r"synthetic-test-v1 is not available: assets/st-275/volume-1.pdf"
    ):
        package.register_datasets(
            lambda dataset_id, directory, **kw: registered.append((dataset_id, kw["split"]))
        )
    # the dev datasets and the many-sites test split's (a test split of its own folder) remain
    assert registered and all(
        split == "dev" or dataset_id.endswith("-synthetic-test-sites20-v1")
        for dataset_id, split in registered
    )
    assert not [d for d, _ in registered if d.endswith("-synthetic-test-v1")]
