"""`python -m envirobench_reference_adapter run --request FILE --output DIR`."""

from .cli import main

main()
