"""Which tool a written name means: the same letters and digits, whatever the case and separators."""

from __future__ import annotations

import re

from toolform.ir import ToolSet

_NOT_ALNUM = re.compile(r"[^0-9a-z]")


def name_key(name: str) -> str:
    """The comparison key: lower case, letters and digits only (``get-forecast()`` -> ``getforecast``)."""
    return _NOT_ALNUM.sub("", name.lower())


class NameResolver:
    """Resolves written names to the tool set's names; an exact name wins over a folded one."""

    def __init__(self, tools: ToolSet) -> None:
        self._exact = set(tools.names)
        self._folded: dict[str, str] = {}
        for name in tools.names:
            self._folded.setdefault(name_key(name), name)

    def resolve(self, written: str) -> str | None:
        """The tool's name, or None when no tool has that name."""
        if written in self._exact:
            return written
        key = name_key(written)
        return self._folded.get(key) if key else None

    def known(self, written: str) -> bool:
        return self.resolve(written) is not None
