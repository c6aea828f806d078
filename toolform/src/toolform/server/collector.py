"""The cyclic garbage collector, set for a server that reads large request bodies.

Reading a tool set allocates hundreds of thousands of small objects (dicts,
lists, the IR), nearly none in cycles. At Python's default thresholds (a
collection every 700 net allocations, a full one every 100 of those) the
collector runs many times per request and, in its full collections,
walks every object the process holds: the recent catalogues and tool sets too,
so a request grew slower as the caches filled. Collecting less often changes
no answer (reference counting still frees everything not in a cycle at once),
and what the process held at startup is frozen out of the collector's walks.
"""

from __future__ import annotations

import gc

#: Allocations between young collections, and the ratios to the older generations.
YOUNG_THRESHOLD = 50_000
MIDDLE_RATIO = 20
OLD_RATIO = 100


def tune_for_serving() -> None:
    """Freeze what the process holds now (the app, the evidence) and collect less often from here on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_RATIO, OLD_RATIO)
