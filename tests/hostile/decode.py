"""Decodes one hostile text (written by ``flow-hostile text CASE FILE``) through
``flow_toolkit``'s decoders, and prints as one JSON line what each refused it
with and this process's memory: ``rss`` just before the file was read, and
with each answer the ``peak`` (VmHWM) so far. Run in a process of its own, so
that the peak is this text's. Usage: ``decode.py FILE TYPE_TERM``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from flow_toolkit import FlowError, canonical, codec_for

EMPTY = '{"data":"0.1","declarations":{},"tools":[]}'


def status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) * 1024
    raise LookupError(field)


def main() -> None:
    path, term = sys.argv[1], sys.argv[2]
    codec = codec_for(EMPTY).type_of(term)
    rss = status("VmRSS:")
    data = Path(path).read_bytes()
    refusals: list[dict[str, object]] = []
    # The typed decoder first: where only it refuses (base64), the peak
    # after it is the refusal's, before the JSON-level ones accept the text.
    for decode in (codec.decode, canonical):
        try:
            decode(data)
            refusals.append({"accepted": True, "peak": status("VmHWM:")})
        except FlowError as e:
            refusals.append({"rule": e.rule, "path": e.path, "peak": status("VmHWM:")})
    print(json.dumps({"size": len(data), "rss": rss, "refusals": refusals}))


if __name__ == "__main__":
    main()
