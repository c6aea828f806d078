"""Tools as the API and the CLI take them: the tools object's rules, the limits, then the loaders.

Every reading of a tools object, by a route, a verb or a measurement, goes
through ``read_tools``: the rules of the tools object (which sources, which
payload shapes, how much) are checked before any loader runs, so a refusal costs
nothing and names the member at fault; then the tools are loaded, and the count
of what loaded is checked. ``load_tools`` and ``export_tools`` build on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from toolform.errors import BadRequest
from toolform.export import export
from toolform.ir import ToolSet
from toolform.limits import Limits
from toolform.loaders import LoadResult, load
from toolform.summary import Summary, summarize

#: Sources accepted over HTTP, in the order messages list them.
HTTP_SOURCES: tuple[str, ...] = ("auto", "openai", "anthropic", "mcp", "ir", "typescript", "flow")
#: Python is read by importing the module, which runs its code: the CLI and the SDK only.
LOCAL_SOURCES: tuple[str, ...] = (*HTTP_SOURCES, "python")
#: Shapes the tools can be written back to.
EXPORT_TARGETS: tuple[str, ...] = ("openai", "anthropic", "mcp", "ir")
#: Sources whose payload is source text rather than JSON (a Flow listing is JSON, as text or parsed).
TEXT_SOURCES: frozenset[str] = frozenset({"typescript", "python"})
#: Sources whose payload is JSON: given as a string, it is JSON text, and only an array or an object holds tools.
JSON_SOURCES: frozenset[str] = frozenset({"openai", "anthropic", "mcp", "ir", "flow"})

PYTHON_REFUSED = (
    "python tools are not accepted over HTTP, because loading them executes code; "
    "convert them with the CLI (toolform convert) or the SDK first"
)


def declared_tool_count(payload: object) -> int | None:
    """How many tools a JSON payload holds, read from its shape alone, or None when it does not say.

    A list of tools, ``{"tools": [...]}`` and a JSON-RPC response's
    ``{"result": {"tools": [...]}}`` say; the count lets the limit refuse before loading.
    """
    if isinstance(payload, list):
        return len(payload)
    if isinstance(payload, dict):
        tools = payload.get("tools")
        if isinstance(tools, list):
            return len(tools)
        result = payload.get("result")
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            return len(result["tools"])
    return None


def check_tools_input(source: str, payload: object, limits: Limits, over_http: bool = True) -> None:
    """The tools object's rules: a known source, a payload of a usable shape, within the limits."""
    known = HTTP_SOURCES if over_http else LOCAL_SOURCES
    if source not in known:
        if over_http and source == "python":
            raise BadRequest(PYTHON_REFUSED)
        raise BadRequest(f"unknown tools source '{source}'; use one of {', '.join(known)}")
    if payload is None:
        raise BadRequest("tools.payload is empty")
    if isinstance(payload, bool) or not isinstance(payload, (dict, list, str)):
        raise BadRequest("tools.payload must be a JSON object, a JSON array or a string")
    if isinstance(payload, str):
        limits.check_text("tools.payload", payload)
        # Text that cannot be a JSON array or object is not tools of a JSON shape at all: the
        # request is wrong (400), as the reference says. Text that starts like one and fails to
        # parse is tools that do not load (422, with the line), from the loader.
        if over_http and source in JSON_SOURCES and payload.lstrip()[:1] not in ("[", "{"):
            raise BadRequest(
                f"{_article(source)} {source} payload must be JSON, not text: send the tools as a JSON "
                "array or object, or as JSON text of one (starting with [ or {)"
            )
    elif source in TEXT_SOURCES:
        raise BadRequest(f"a {source} payload must be the source text as a string")
    count = declared_tool_count(payload)
    if count is not None:
        limits.check_tool_count(count)


def _article(source: str) -> str:
    # As the names are said: an MCP payload, an IR payload, a Flow payload.
    return "a" if source == "flow" else "an"


@dataclass(frozen=True)
class LoadedTools:
    """Tools read into the IR: the tool set, the shape read, and what was not read faithfully.

    Render and compare take ``toolset`` as it is; the summary is worked out on first use and kept, and
    the IR's dict form is written only by ``to_dict`` (the ``/tools/load`` body).
    """

    toolset: ToolSet
    kind: str
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, result: LoadResult) -> LoadedTools:
        """A reading's tools, as the reading left them."""
        return cls(toolset=result.toolset, kind=result.kind, warnings=list(result.warnings))

    @cached_property
    def summary(self) -> Summary:
        """The tool set's summary (``toolform.summary``), with the warnings of reading it."""
        return summarize(self.toolset, warnings=self.warnings)

    def to_dict(self) -> dict[str, object]:
        return {
            "tools": self.toolset.to_dicts(),
            "summary": self.summary.to_dict(),
            "kind": self.kind,
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class ExportedTools:
    """Tools written in another shape, and what was lost: in reading them, then in that shape."""

    to: str
    payload: object
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"to": self.to, "payload": self.payload, "warnings": list(self.warnings)}


#: How a reading loads a checked tools object: ``toolform.loaders.load``, or the server's recent tool sets.
Loader = Callable[[str, object], LoadResult]


def read_tools(
    source: str, payload: object, limits: Limits | None = None, over_http: bool = True, loader: Loader = load
) -> LoadResult:
    """Check the tools object against its rules, load it with ``loader``, check the count of what loaded.

    Raises BadRequest or PayloadTooLarge for a tools object the rules refuse, and
    LoaderError for tools that do not load.
    """
    limits = limits or Limits()
    check_tools_input(source, payload, limits, over_http)
    result = loader(source, payload)
    limits.check_tool_count(len(result.toolset))
    return result


def load_tools(
    source: str, payload: object, limits: Limits | None = None, over_http: bool = True
) -> LoadedTools:
    """Read tools from ``payload`` in the shape ``source`` names (``auto`` detects it), and summarise them.

    Raises as ``read_tools`` does.
    """
    return LoadedTools.of(read_tools(source, payload, limits, over_http))


def export_tools(
    source: str, payload: object, to: str, limits: Limits | None = None, over_http: bool = True
) -> ExportedTools:
    """Read tools as ``load_tools`` does and write them in the shape ``to`` names."""
    if to not in EXPORT_TARGETS:
        raise BadRequest(f"unknown export target '{to}'; use one of {', '.join(EXPORT_TARGETS)}")
    return export_read_tools(read_tools(source, payload, limits, over_http), to)


def export_read_tools(result: LoadResult, to: str) -> ExportedTools:
    """Tools already read, written in the shape ``to`` names."""
    if to not in EXPORT_TARGETS:
        raise BadRequest(f"unknown export target '{to}'; use one of {', '.join(EXPORT_TARGETS)}")
    exported = export(result.toolset, to)
    # What reading lost, then what the target could not carry: both are lost on the way.
    return ExportedTools(to=to, payload=exported.payload, warnings=[*result.warnings, *exported.warnings])
