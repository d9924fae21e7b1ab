"""`envirobench ARGS...` in a process of its own, with the count-words test dataset at DATASET
registered as test/count-words-v1 (core's tests send this process signals, or kill it).

Usage: python toy_cli.py DATASET ARGS...
"""

import sys
from pathlib import Path

from envirobench import plugins, using_registry
from envirobench.cli import main
from envirobench.testing import toy_plugin

if __name__ == "__main__":
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", Path(sys.argv[1]))))])
    with using_registry(registry):
        main(args=sys.argv[2:], prog_name="envirobench")
