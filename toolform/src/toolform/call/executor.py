"""What runs a call the model made: Python functions, or Flow Tools through the host client."""

from __future__ import annotations

from typing import Any, Protocol

from toolform.call.executed import ExecutedCall


class Executor(Protocol):
    """Runs one accepted, valid call by tool name; a tool's own failure is a result, never an exception."""

    def execute(self, name: str, arguments: dict[str, Any]) -> ExecutedCall: ...
