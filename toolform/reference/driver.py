"""Runs inside the reference's venv: JSON requests in on stdin, one per line, answers out on stdout.

The reference is driven through its public SDK (load_tools, render,
compare_formats, parse_reply, scan_toolset, clean_toolset) as a black box, so
the adversarial harness can ask it hundreds of thousands of questions without
an HTTP request each. Each answer is the object's to_dict(), or an error with
its class name and message. This file imports only the reference's package and
the standard library; it is not imported by the tests.
"""

import json
import sys

from toolform.formats import RenderOptions

import toolform


def _toolset(request):
    return toolform.load_tools(request["tools"], kind=request.get("source", "auto"))


def _answer(request):
    op = request["op"]
    if op == "load":
        return toolform.sdk.to_ir(_toolset(request))
    if op == "render":
        rendered = toolform.render(
            _toolset(request),
            request["format"],
            request.get("protocol"),
            options=RenderOptions(**request.get("options", {})),
            request=request.get("request"),
            persona=request.get("persona", "agent"),
            null_clause=request.get("null_clause", True),
            trust_line=request.get("trust_line", False),
        )
        return rendered.to_dict()
    if op == "parse":
        parsed = toolform.parse_reply(
            request["text"],
            _toolset(request),
            request["protocol"],
            rule=request.get("rule", "main"),
            validate=request.get("validate", True),
            lenient_fallback=request.get("lenient_fallback", False),
        )
        return parsed.to_dict()
    if op == "guard":
        toolset = _toolset(request)
        report = toolform.scan_toolset(toolset, strictness=request.get("strictness", "standard"))
        if request.get("action", "report") != "report":
            report = toolform.clean_toolset(
                report, toolset, action=request["action"], scope=request.get("scope", "flagged"),
                strip_at=request.get("strip_at", "high"),
            )
        return report.to_dict()
    raise ValueError(f"unknown op {op!r}")


def main():
    for line in sys.stdin:
        try:
            answer = {"ok": _answer(json.loads(line))}
        except Exception as error:  # every refusal is an answer to compare, not a crash
            answer = {"error": type(error).__name__, "detail": str(error)}
        # ASCII escapes, so that a lone surrogate (a reply cut inside an escaped emoji) crosses the pipe too.
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
