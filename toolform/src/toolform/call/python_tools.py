"""Python tools run in this process: the functions of the tools module the loop was given."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolform.call.executed import ExecutedCall


class PythonTools:
    """Calls a Python function by tool name with the call's arguments as keywords.

    A function that raises gives a not-ok result naming the exception, as the
    reference reports it; the loop goes on, and the model is told.
    """

    def __init__(self, functions: Mapping[str, Callable[..., Any]]) -> None:
        self.functions = dict(functions)

    def execute(self, name: str, arguments: dict[str, Any]) -> ExecutedCall:
        function = self.functions.get(name)
        if function is None:
            return ExecutedCall(name=name, arguments=arguments, ok=False, error=f"no Python function for tool '{name}'")
        try:
            result = function(**arguments)
        except Exception as error:  # the tool's own failure is a result for the model, not a loop error
            return ExecutedCall(name=name, arguments=arguments, ok=False, error=f"{type(error).__name__}: {error}")
        return ExecutedCall(name=name, arguments=arguments, ok=True, result=result)


def functions_of(module: object) -> dict[str, Callable[..., Any]]:
    """The public functions a module defines, by name (the ones the Python loader reads as tools)."""
    found: dict[str, Callable[..., Any]] = {}
    for name, value in vars(module).items():
        if name.startswith("_") or not callable(value) or isinstance(value, type):
            continue
        if getattr(value, "__module__", None) == getattr(module, "__name__", None):
            found[name] = value
    return found
