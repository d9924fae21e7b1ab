"""`python -m envirobench_extract.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]`.

The command is core's `generator_command`, built from the package's one list of types: TYPE is a
type ID. Without --output it regenerates the shipped dataset in place, and its fixtures; any
other output directory must be absent or empty.
"""

from envirobench import generator_command

from ..package import PACKAGE

main = generator_command(PACKAGE)

if __name__ == "__main__":
    main(prog_name="python -m envirobench_extract.generate")
