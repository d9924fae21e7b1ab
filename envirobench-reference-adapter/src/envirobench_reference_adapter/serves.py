"""What a solver serves: `SERVES = Serves("table-records", variants=("baseline", "v1"))`, and
what its `solve(case_input, sources, variant, jitter=None) -> Prediction` is given and returns.

A solver module declares its benchmark type and its variants here, once; the adapter's
protocol layer (`protocol.py`) reads the declaration, refuses an unknown variant before any case
runs and resolves an alias to its variant, so a solver's `solve` is given a name of `variants`
and never checks or resolves one itself. The prediction format is the installed type's (the
adapter kit checks the request's format against it), so a solver does not repeat it.

The types of `solve`'s arguments are named here once, for every solver's signature (the
`solvers` package says what each holds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

# Each file the case reads (input-directory-relative, as the type's `source_files` names it) ->
# its checked path.
Sources = Mapping[str, Path]
# The `jitter=SEED` option's generator for this case, which perturbs the pixels a solver reads;
# None: the pixels as they are.
Jitter = np.random.Generator | None
# JSON-ready data; the adapter kit checks it against the type's Prediction before writing it.
Prediction = dict[str, Any]

# Every solver's default variant is also called "default": the adapter's option `variant`
# defaults to it, whatever the solver's default is named.
DEFAULT_ALIAS = "default"


@dataclass(frozen=True)
class Serves:
    benchmark: str  # the benchmark type's ID (`table-records`), served by one solver only
    variants: tuple[str, ...] = ("v1",)
    default: str = "v1"
    more_aliases: Mapping[str, str] = field(default_factory=dict)  # alias -> variant, beside "default"

    def __post_init__(self) -> None:
        if not self.benchmark or not self.variants or not all(isinstance(v, str) and v for v in self.variants):
            raise ValueError(f"Serves({self.benchmark!r}): a benchmark ID and at least one variant are needed")
        if self.default not in self.variants:
            raise ValueError(f"Serves({self.benchmark!r}): the default {self.default!r} is not one of {', '.join(self.variants)}")
        for alias, variant in self.aliases.items():
            if alias in self.variants or variant not in self.variants:
                raise ValueError(f"Serves({self.benchmark!r}): the alias {alias!r} -> {variant!r} must name a variant and not be one")

    @property
    def aliases(self) -> Mapping[str, str]:
        return MappingProxyType({DEFAULT_ALIAS: self.default, **self.more_aliases})

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the `variant` option may give: the variants, then their aliases."""
        return (*self.variants, *self.aliases)

    def resolve(self, name: str) -> str:
        """The variant a name stands for; ValueError naming the option for an unknown one."""
        if name not in self.names:
            raise ValueError(f"$.options.variant: unknown variant {name!r}; known variants: {', '.join(self.names)}")
        return self.aliases.get(name, name)
