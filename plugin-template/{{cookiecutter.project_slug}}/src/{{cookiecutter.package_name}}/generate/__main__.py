"""`python -m {{ cookiecutter.package_name }}.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]`.

The command is core's `generator_command`, built from the plugin's list of types (package.py):
TYPE is a type ID ({{ cookiecutter.type_id }}), and each type's generator is
`generate/<type module>.py`. Without --output it regenerates the shipped dataset and its
fixtures in place (the new files are written beside them and swapped in, so an interrupted run
leaves the old dataset whole). Any other output directory must be absent or empty; --fixtures
also writes correct.json and wrong.json there.
"""

from envirobench import generator_command

from ..package import PACKAGE

main = generator_command(PACKAGE)

if __name__ == "__main__":
    main(prog_name="python -m {{ cookiecutter.package_name }}.generate")
