"""The model-free reference system under test for EnviroBench's public benchmark types.

It speaks the adapter protocol (`envirobench.adapter.v1`): `envirobench-reference-adapter run
--request FILE --output DIR`. Every answer comes from classical analysis of the case's own
input; it calls no model, costs nothing and never reads a dataset's answers.
"""

from importlib import metadata

NAME = "envirobench-reference-adapter"

try:
    __version__ = metadata.version(NAME)
except metadata.PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"
