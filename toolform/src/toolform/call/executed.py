"""One call the loop made (or refused to make), as recorded and as handed back to the model."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ExecutedCall:
    """A call's result: ``ok`` with ``result``, or not ok with ``error``.

    ``outcome`` is the Flow host's outcome (Ok, Failed, NotRun, Unknown,
    BadReply) for a Flow tool, empty for a Python one; ``identity`` is the
    Flow Tool's identity. ``validation`` is kept for a call the loop refused
    because it failed validation, so the model is told what was wrong.
    """

    name: str
    arguments: dict[str, Any]
    ok: bool
    result: Any = None
    error: Any = None
    outcome: str = ""
    identity: str = ""
    validation: dict[str, Any] | None = field(default=None)

    def to_dict(self) -> dict[str, Any]:
        """The step's record (the reference's members, then the Flow ones when there are any)."""
        record: dict[str, Any] = {"name": self.name, "arguments": copy.deepcopy(self.arguments), "ok": self.ok}
        if self.ok:
            record["result"] = copy.deepcopy(self.result)
        else:
            record["error"] = copy.deepcopy(self.error)
        if self.outcome:
            record["outcome"] = self.outcome
            record["identity"] = self.identity
        return record

    def handed_back(self) -> dict[str, Any]:
        """What the model is told of this call (one JSON line of the tool-result turn)."""
        told: dict[str, Any] = {"ok": self.ok}
        if self.outcome:
            told["outcome"] = self.outcome
        if self.ok:
            told["result"] = copy.deepcopy(self.result)
        else:
            told["error"] = copy.deepcopy(self.error)
        if self.validation is not None:
            told["tool"] = self.name
            told["validation"] = copy.deepcopy(self.validation)
        return told


def invalid_call(name: str, arguments: dict[str, Any], validation: dict[str, Any]) -> ExecutedCall:
    """A call that failed validation: never run, the validation handed back."""
    return ExecutedCall(name=name, arguments=arguments, ok=False, error="invalid call", validation=validation)
