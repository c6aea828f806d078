"""Two-stage disclosure's first stage: the tool names (and descriptions), and the request, asking for one name.

The system message is the names-first format rendered with its default protocol
and the agent persona; the user message is the request and FIRST_STEP. Both are
the reference's, byte for byte. The second stage shows the chosen tool's full
definition in any format (``toolform.render``).
"""

from __future__ import annotations

from dataclasses import dataclass

from toolform.catalogue.toolsets import as_toolset
from toolform.evidence import Evidence, given_or_installed
from toolform.ir import ToolSet
from toolform.limits import check_rendered_chars
from toolform.registry import registry_of
from toolform.render.block import render_tools, tokens_estimate
from toolform.render.instructions import INSTRUCTIONS
from toolform.render.prompt import system_prompt

#: The selection list with each tool's description, and with names alone.
WITH_DESCRIPTIONS = "names_desc_then_schema"
NAMES_ONLY = "names_then_schema_v2"

FIRST_STEP = (
    "First step: reply with the exact name of the one tool you would use for this request, and nothing else. "
    "You will be shown that tool's full definition next."
)


@dataclass(frozen=True)
class TwoStagePrompt:
    """The first stage's messages, their size (characters / 4), and the selection format that drew them."""

    messages: list[dict[str, str]]
    tokens_estimate: int
    selection_format: str

    def to_dict(self) -> dict[str, object]:
        return {
            "messages": [dict(message) for message in self.messages],
            "tokens_estimate": self.tokens_estimate,
            "selection_format": self.selection_format,
        }


class TwoStage:
    """Names-first disclosure over one catalogue: the selection system prompt is rendered once.

    ``evidence`` (the registry the selection format's protocol comes from) None: the installed study's.
    """

    def __init__(self, tools: object, include_descriptions: bool = True, evidence: Evidence | None = None) -> None:
        self.toolset: ToolSet = as_toolset(tools)
        self.selection_format = WITH_DESCRIPTIONS if include_descriptions else NAMES_ONLY
        registry = registry_of(given_or_installed(evidence))
        protocol = str(registry.format(self.selection_format).entry["default_protocol"])
        block = render_tools(self.toolset.tools, self.selection_format)
        self.system = system_prompt(block, INSTRUCTIONS[protocol])

    def prompt(self, request: str) -> TwoStagePrompt:
        """The first stage for ``request``: the system message and the request with FIRST_STEP after it."""
        user = f"{request}\n\n{FIRST_STEP}"
        check_rendered_chars(len(self.system) + len(user))
        messages = [{"role": "system", "content": self.system}, {"role": "user", "content": user}]
        # The reference counts the two contents joined by a newline.
        return TwoStagePrompt(messages, tokens_estimate(f"{self.system}\n{user}"), self.selection_format)


def two_stage_prompt(
    tools: object, request: str, include_descriptions: bool = True, evidence: Evidence | None = None
) -> TwoStagePrompt:
    """The first-stage messages for ``request`` over ``tools`` (a ToolSet, a tools object, or IR).

    ``evidence`` None: the installed study's.
    """
    return TwoStage(tools, include_descriptions, evidence).prompt(request)
