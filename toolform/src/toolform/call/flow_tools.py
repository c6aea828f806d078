"""Flow Tools called through the host client: ``flow-host call``, which binds each Tool through flow.toml.

Each call starts the Tool process flow.toml binds (a Tool in any language, or
an MCP server through the adapter), makes one call and hands back its
outcome: Ok, Failed, NotRun, Unknown or BadReply. Numbers cross exactly: the
arguments are written with every digit they have (a Decimal never becomes a
float), and the outcome is read with ``parse_float=Decimal``.

The model sends a Flow tool's arguments as Flow's MCP adapter reads them: an
``Option`` parameter may be left out (None), and a value given is its
payload (Some). ``flow-host call`` takes the protocol's args, so those
parameters are rewritten to ``"None"`` and ``{"Some": value}``; nothing else
is changed, and a value that does not decode comes back NotRun with its path
and rule.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from toolform import jsontext
from toolform.call.executed import ExecutedCall
from toolform.call.executor import ExecutorError
from toolform.errors import BadRequest

#: The host's outcomes, by ``flow-host call``'s exit status.
OUTCOMES = {0: "Ok", 1: "Failed", 2: "NotRun", 3: "Unknown", 4: "BadReply"}
#: ``flow-host call``'s exit status for a usage or configuration error (nothing was called).
CONFIGURATION_ERROR = 64
#: Seconds one call may take, Tool process start included.
CALL_TIMEOUT_S = 120.0
FLOW_HOST_ENV = "TOOLFORM_FLOW_HOST"


class FlowHostError(ExecutorError):
    """flow-host could not make the call at all: not installed, or flow.toml or the listing is unusable."""


def find_flow_host() -> str:
    """The flow-host binary: ``TOOLFORM_FLOW_HOST``, the one flow-toolkit's wheel ships, the ``flow-host``
    script beside this interpreter (a checkout's build, for an editable install), or ``flow-host`` on PATH."""
    chosen = os.environ.get(FLOW_HOST_ENV)
    if chosen:
        return chosen
    try:
        import flow_toolkit

        shipped = Path(flow_toolkit.__file__).parent / "_bin" / "flow-host"
        if os.access(shipped, os.X_OK):
            return str(shipped)
    except ImportError:
        pass
    beside = Path(sys.executable).parent / "flow-host"
    if os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("flow-host")
    if found is None:
        raise FlowHostError(
            "flow-host is not installed: it ships in the flow-toolkit wheel (flow_toolkit/_bin/flow-host); "
            f"or set {FLOW_HOST_ENV} to its path"
        )
    return found


def _exact(value: Any) -> Any:
    """``value`` with any float replaced by the Decimal of its shortest text (what the reply said, read back)."""
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return value


def _is_option(type_term: object) -> bool:
    return isinstance(type_term, dict) and list(type_term) == ["Option"]


class FlowTools:
    """The Tools of one Flow listing, bound through the flow.toml in ``manifest_dir``."""

    def __init__(
        self,
        listing_path: Path,
        manifest_dir: Path,
        *,
        flow_host: str | None = None,
        env: Mapping[str, str] | None = None,
        timeout_s: float = CALL_TIMEOUT_S,
    ) -> None:
        if not (manifest_dir / "flow.toml").is_file():
            raise BadRequest(
                f"no flow.toml in {manifest_dir}; pass --manifest DIR, the directory whose flow.toml binds the Tools"
            )
        self.listing_path = listing_path.resolve()
        self.manifest_dir = manifest_dir.resolve()
        self.flow_host = flow_host
        self.env = dict(env) if env is not None else None
        self.timeout_s = timeout_s
        self.run_id = f"toolform-{uuid.uuid4().hex[:12]}"
        self.calls_made = 0
        listing = json.loads(self.listing_path.read_text(encoding="utf-8"))
        # NAME -> (identity, Option parameter names); the loader gave each tool its identity's NAME.
        self.tools: dict[str, tuple[str, frozenset[str]]] = {}
        self.generic: set[str] = set()
        for tool in listing.get("tools", []):
            identity = str(tool["tool"])
            name = identity.rsplit(".", 1)[-1]
            options = frozenset(str(p["name"]) for p in tool.get("params", []) if _is_option(p.get("type")))
            self.tools[name] = (identity, options)
            if tool.get("generic"):
                self.generic.add(name)

    def protocol_args(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The model's arguments as the protocol's args: each Option parameter as None or Some."""
        _, options = self.tools[name]
        args = {key: ({"Some": _exact(value)} if key in options else _exact(value)) for key, value in arguments.items()}
        for option in sorted(options - set(arguments)):
            args[option] = "None"
        return args

    def execute(self, name: str, arguments: dict[str, Any]) -> ExecutedCall:
        if name not in self.tools:
            return ExecutedCall(
                name=name,
                arguments=arguments,
                ok=False,
                error=f"no Flow Tool named '{name}' in the listing",
                outcome="NotRun",
            )
        identity, _ = self.tools[name]
        if name in self.generic:
            # A generic Tool is called at chosen types (flow-host's --type-arg); a model's call names none.
            return ExecutedCall(
                name=name,
                arguments=arguments,
                ok=False,
                error=f"{identity} is generic: a call needs its type arguments, which a model's call does not give",
                outcome="NotRun",
                identity=identity,
            )
        self.calls_made += 1
        command = [
            self.flow_host or find_flow_host(),
            "call",
            str(self.listing_path),
            identity,
            "--args",
            jsontext.dumps(self.protocol_args(name, arguments)),
            "--manifest",
            str(self.manifest_dir),
            "--run",
            self.run_id,
            "--call",
            str(self.calls_made),
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=self.timeout_s, env=self.env, check=False
            )
        except subprocess.TimeoutExpired:
            # The Tool may have acted: whether it did is not known.
            return ExecutedCall(
                name=name,
                arguments=arguments,
                ok=False,
                outcome="Unknown",
                identity=identity,
                error=f"no outcome within {self.timeout_s:g} s; the call may have run",
            )
        except OSError as error:
            raise FlowHostError(f"cannot start flow-host ({command[0]}): {error}") from None
        if done.returncode not in OUTCOMES:
            reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit status {done.returncode}"
            raise FlowHostError(f"flow-host could not call {identity}: {reason}")
        outcome = OUTCOMES[done.returncode]
        try:
            answer = json.loads(done.stdout, parse_float=Decimal)
        except json.JSONDecodeError:
            raise FlowHostError(f"flow-host printed no outcome for {identity} (exit {done.returncode})") from None
        if not (isinstance(answer, dict) and list(answer) == [outcome]):
            raise FlowHostError(f"flow-host's outcome for {identity} is not {outcome}: {done.stdout.strip()[:200]}")
        value = answer[outcome]
        if outcome == "Ok":
            return ExecutedCall(
                name=name, arguments=arguments, ok=True, result=value, outcome=outcome, identity=identity
            )
        return ExecutedCall(name=name, arguments=arguments, ok=False, error=value, outcome=outcome, identity=identity)
