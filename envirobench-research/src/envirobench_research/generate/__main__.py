"""`python -m envirobench_research.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]`.

The command is core's `generator_command`, built from the package's one list of types.
"""

from envirobench import generator_command

from ..package import PACKAGE

main = generator_command(PACKAGE)

if __name__ == "__main__":
    main(prog_name="python -m envirobench_research.generate")
