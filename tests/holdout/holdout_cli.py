"""`envirobench ARGS...` in a process of its own with core's count-words test type registered (the
holdout's tests start `holdout serve` this way, to kill it).

Usage: python holdout_cli.py ARGS...
"""

import sys

from envirobench import plugins, using_registry
from envirobench.cli import main
from envirobench.testing import toy_plugin

if __name__ == "__main__":
    registry = plugins.build_registry(extra=[("toy", toy_plugin())])
    with using_registry(registry):
        main(args=sys.argv[1:], prog_name="envirobench")
