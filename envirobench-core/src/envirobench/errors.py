"""Errors a user can act on.

Every refusal the harness makes is an `EnviroBenchError`: it names where the problem is (file,
line, field) so nobody has to read a traceback. The CLI turns it into a click error (exit 1).
"""

from __future__ import annotations

from pathlib import Path


class EnviroBenchError(Exception):
    """A user-facing error: bad input, a refused operation, a technical failure of a run."""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        super().__init__(str(self))

    def where(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(self.file if self.line is None else f"{self.file}:{self.line}")
        if self.field:
            parts.append(self.field)
        return " ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class TechnicalFailure(EnviroBenchError):
    """The system under test did not produce a usable result. Never counted as a score."""
