"""`python -m envirobench.cli ...`, the same as the `envirobench` command."""

import sys

from .main import main

sys.exit(main())
