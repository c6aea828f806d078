{{ header }}
//
// What the Tool process answers `describe` with, embedded at generation time:
// the tools listing, and each Tool's identity, fingerprint and signature.

import type { ServedMetadata } from "@flow/toolkit"

export const metadata: ServedMetadata = {
  listing: [
{%- for line in listing %}
    {{ line }},
{%- endfor %}
  ].join("\n"),
  tools: [
{%- for line in tools %}
    {{ line }},
{%- endfor %}
  ].join("\n"),
}
