"""Flow listings (``flow tools``) as tools: not read yet."""

from __future__ import annotations

from toolform.errors import LoaderError
from toolform.ir import ToolSet
from toolform.loaders.notes import Notes


def load(payload: object, notes: Notes) -> ToolSet:
    raise LoaderError("the flow source is not readable yet")
