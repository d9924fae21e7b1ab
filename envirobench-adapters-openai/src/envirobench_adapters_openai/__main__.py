"""`python -m envirobench_adapters_openai run --request FILE --output DIR` (how core starts it)."""

from envirobench_adapters_openai.adapter import main

if __name__ == "__main__":
    main()
