"""A call to a Flow tool validated by Flow's own typed decoding, through flow-toolkit.

Each argument is decoded at its parameter's Flow type (exact digits: the
value's JSON text is what flow-toolkit reads), and a refusal is reported with
its path and rule code, as flow-core words it. The arguments are read as
Flow's MCP adapter reads them: an ``Option`` parameter may be left out and its
value is the payload's, and a generic parameter takes any JSON value.
"""

from __future__ import annotations

import json
from typing import Any

from toolform.jsontext import write
from toolform.parse.result import Validation


class FlowChecker:
    """Validates calls against one ``flow tools`` listing; tools are found by their identity."""

    def __init__(self, listing: str) -> None:
        import flow_toolkit

        self._codec = flow_toolkit.codec_for(listing)
        self._decode_error = flow_toolkit.DecodeError
        self._params: dict[str, list[tuple[str, Any]]] = {}
        for tool in json.loads(listing).get("tools", []):
            if isinstance(tool, dict) and isinstance(tool.get("tool"), str):
                params = tool.get("params", [])
                self._params[tool["tool"]] = [(p["name"], p["type"]) for p in params if isinstance(p, dict)]
        self._types: dict[str, Any] = {}

    def knows(self, identity: str) -> bool:
        return identity in self._params

    def validate(self, identity: str, arguments: dict[str, Any]) -> Validation:
        """Every refusal of ``arguments`` for the tool ``identity``, by parameter and path."""
        found = Validation()
        declared = dict(self._params[identity])
        for name, term in self._params[identity]:
            if name not in arguments and not _is_option(term):
                found.missing_required.append(name)
        for name, value in arguments.items():
            term = declared.get(name)
            if term is None:
                found.unknown_args.append(name)
                continue
            if _is_generic(term):
                continue
            if _is_option(term):
                if value is None:
                    continue
                term = term["Option"]
            self._check(name, term, value, found)
        return found

    def _check(self, name: str, term: Any, value: Any, found: Validation) -> None:
        key = json.dumps(term, sort_keys=True)
        codec = self._types.get(key)
        if codec is None:
            codec = self._types[key] = self._codec.type_of(json.dumps(term))
        try:
            # ASCII escapes, so a lone surrogate in a reply is text flow-core reads and refuses by its rule.
            codec.decode(write(value, item_separator=",", key_separator=":"))
        except self._decode_error as refusal:
            where = name + refusal.path[1:]
            message = f"{where}: {refusal.reason} [{refusal.rule}]"
            if refusal.rule == "constructor":
                found.enum_errors.append(message)
            elif refusal.rule in ("type", "syntax"):
                found.type_errors.append(message)
            else:
                found.constraint_errors.append(message)


def _is_option(term: Any) -> bool:
    return isinstance(term, dict) and list(term) == ["Option"]


def _is_generic(term: Any) -> bool:
    return isinstance(term, dict) and list(term) == ["Param"]
