{{ header }}
"""Serves the Tools of {{ project }} on stdin and stdout: ``{{ command }}``, or
with ``--mcp`` to MCP clients."""

from __future__ import annotations

import flow_toolkit

from . import metadata
from .implementation import {{ implementation }}


def main() -> None:
    """Serves until stdin ends and every running call has replied."""
    tools = {{ implementation }}()
    flow_toolkit.serve(
        metadata.CODEC,
        metadata.TOOLS,
        [
{%- for method in methods %}
            tools.{{ method }},
{%- endfor %}
        ],
    )


if __name__ == "__main__":
    main()
