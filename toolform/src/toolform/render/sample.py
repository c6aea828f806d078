"""A format's rendered sample, as /formats/{format_id} shows it: the study's sample tool in that format."""

from __future__ import annotations

from toolform.errors import EvidenceUnavailable
from toolform.evidence import Evidence, given_or_installed
from toolform.ir import ToolIR
from toolform.registry import registry_of
from toolform.render.block import render_tools, tokens_estimate
from toolform.render.instructions import INSTRUCTIONS
from toolform.render.toolsets import tools_of

TWO_STAGE_NOTE = "a two-stage selection list; use the catalogue routes to run it"


def sample_tool(evidence: Evidence) -> ToolIR:
    """The paper's sample tool (legal_draft_v3), as sample_renders.json gives its IR."""
    data = evidence.data("sample_renders")
    if not isinstance(data, dict) or not isinstance(data.get("tool"), dict):
        raise EvidenceUnavailable("evidence file 'sample_renders' has no sample tool under data.tool")
    return tools_of([data["tool"]])[0]


def format_sample(format_id: str, evidence: Evidence | None = None) -> dict[str, object]:
    """``{"text", "instructions", "tokens_estimate"}`` for ``format_id`` (and ``note`` for a two-stage one).

    Rendered by our renderer, not read from the fixture: the fixture is what the tests hold it to.
    ``evidence`` None: the installed study's.
    """
    evidence = given_or_installed(evidence)
    entry = registry_of(evidence).format(format_id).entry
    text = render_tools([sample_tool(evidence)], format_id)
    sample: dict[str, object] = {
        "text": text,
        "instructions": INSTRUCTIONS[str(entry["default_protocol"])],
        "tokens_estimate": tokens_estimate(text),
    }
    if entry.get("two_stage") is True:
        sample["note"] = TWO_STAGE_NOTE
    return sample
