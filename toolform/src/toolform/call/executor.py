"""What runs a call the model made: Python functions, or Flow Tools through the host client."""

from __future__ import annotations

from typing import Any, Protocol

from toolform.call.executed import ExecutedCall


class ExecutorError(Exception):
    """The executor cannot run calls at all (not installed, misconfigured): the loop stops, naming the reason."""


class Executor(Protocol):
    """Runs one accepted, valid call by tool name; a tool's own failure is a result, never an exception.

    Raises ExecutorError only when no call can be made at all.
    """

    def execute(self, name: str, arguments: dict[str, Any]) -> ExecutedCall: ...
