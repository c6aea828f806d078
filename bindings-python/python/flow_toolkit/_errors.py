"""Refusals. Each names where (a JSON path such as ``$.days[3].high_c``), which
rule (a stable code shared with the Rust core and the test vectors, such as
``type`` or ``missing-field``) and why."""


class FlowError(ValueError):
    """A value refused under the Flow encoding rules."""

    path: str
    """Where: a JSON path, ``$`` for the whole value."""
    rule: str
    """Which rule: a stable code such as ``type``, ``not-whole``, ``encode``."""
    reason: str
    """Why, in a sentence."""

    def __init__(self, path: str, rule: str, reason: str) -> None:
        super().__init__(f"{path}: {reason} [{rule}]")
        self.path = path
        self.rule = rule
        self.reason = reason


class DecodeError(FlowError):
    """JSON text that is not JSON under the rules, or does not decode at its type."""


class EncodeError(FlowError):
    """A Python value that is not of the type it is encoded at."""
