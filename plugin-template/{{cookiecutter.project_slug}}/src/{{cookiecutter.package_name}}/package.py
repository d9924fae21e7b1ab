"""This plugin's benchmark types: the one list of them.

Everything else about a type is found from this list by convention (see
`envirobench.authoring`), from the type's ID and the name of its module:

    well_ids.py                                   the type, and DATASETS: folder -> dataset ID
    benchmarks/<type ID>/datasets/<folder>/       each dataset of the type
    benchmarks/<type ID>/fixtures/<folder>/       correct.json and wrong.json for that dataset
    benchmarks/<type ID>/bench.json               the saved profile
    generate/well_ids.py                          generate(output_dir, dataset) and FIXTURES
    viewers/<viewer name>.js (and .css)           the report viewer of the type

The entry point in pyproject.toml names PACKAGE: EnviroBench registers the types, datasets and
viewers from it. The generator command (`python -m {{ cookiecutter.package_name }}.generate`) and the
tests read it too. Adding a type is: its module (with DATASETS), its generator, its data folder and
one entry in `types` below.
"""

from envirobench import BenchmarkPackage

from .well_ids import VIEWER_NAME, WellIds

# Private: core refuses to upload this plugin's datasets to a public store.
PACKAGE = BenchmarkPackage(
    __package__ or "{{ cookiecutter.package_name }}", types=(WellIds,), visibility="private", viewers=(VIEWER_NAME,)
)
