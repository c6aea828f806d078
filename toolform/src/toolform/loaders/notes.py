"""Warnings about what a loader or an export could not carry faithfully.

One warning per tool and problem, naming every place it occurs, so that a tool
with forty strict-mode objects says ``additionalProperties`` once, with its
forty paths, rather than forty times. Paths are written over the arguments the
model sends: ``$.order.items[*].sku``; ``$`` alone is the tool itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: How many paths a warning names before it counts the rest.
PATHS_SHOWN = 6


@dataclass
class Notes:
    """Warnings collected in the order they were first met."""

    _paths: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def add(self, tool: str, path: str, message: str) -> None:
        """Note that at ``path`` of ``tool``, ``message`` (a sentence saying what was lost and why)."""
        paths = self._paths.setdefault((tool, message), [])
        if path not in paths:
            paths.append(path)

    def extend(self, other: Notes) -> None:
        for (tool, message), paths in other._paths.items():
            for path in paths:
                self.add(tool, path, message)

    def messages(self) -> list[str]:
        """Each warning as a sentence: ``tool 'f' at $.a, $.b: message``."""
        out = []
        for (tool, message), paths in self._paths.items():
            shown = ", ".join(paths[:PATHS_SHOWN])
            if len(paths) > PATHS_SHOWN:
                shown += f" and {len(paths) - PATHS_SHOWN} more"
            out.append(f"tool '{tool}' at {shown}: {message}")
        return out

    def __len__(self) -> int:
        return len(self._paths)


def child(path: str, name: str) -> str:
    """The path of member ``name`` under ``path``; names that are not identifiers are quoted."""
    if name.isidentifier():
        return f"{path}.{name}"
    escaped = name.replace("\\", "\\\\").replace("'", "\\'")
    return f"{path}['{escaped}']"
