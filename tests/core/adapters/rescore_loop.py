"""Rescore one run over and over, switching its baseline on and off, until killed (core's
crash-safety test kills this process at random moments).

Usage: python rescore_loop.py DATASET RUN_DIR BASELINE_DIR
"""

import sys
from pathlib import Path

from envirobench import plugins
from envirobench.runs import rescore_run
from envirobench.testing import toy_plugin

if __name__ == "__main__":
    dataset, run_dir, baseline = (Path(a) for a in sys.argv[1:4])
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", dataset)))])
    print("ready", flush=True)
    while True:
        rescore_run(run_dir, registry, baseline=None)
        rescore_run(run_dir, registry, baseline=baseline)
