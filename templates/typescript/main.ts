{{ header }}
//
// The {{ project }} Tool process: serves src/implementation.ts on stdin and
// stdout (`node dist/main.js` after `tsc`), or with `--mcp` serves it to MCP
// clients. From here on stdout belongs to the protocol; console.log goes to
// stderr.

import { serve } from "@flow/toolkit"
import * as implementation from "./implementation.js"
import type { Implementation } from "./interface.js"
import { metadata } from "./metadata.js"

// A Tool function missing from implementation.ts, or one of the wrong type,
// is a compile error here.
const tools: Implementation = implementation

await serve(metadata, [
{%- for function in functions %}
  tools.{{ function }},
{%- endfor %}
])
