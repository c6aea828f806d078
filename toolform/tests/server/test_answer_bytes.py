"""The parse and render answers are byte for byte those recorded in data/answer_bytes.json.

The work that makes these routes faster must not change a byte of what they
answer: answer_bytes.py says what is sent (the corpus, the long replies, seeded
generated tool sets and replies, render/compare of the benchmark's tools) and
how the answers are digested.
"""

from __future__ import annotations

import json

from support.answer_bytes import DIGESTS, digests


def test_answers_as_recorded() -> None:
    recorded = json.loads(DIGESTS.read_text())
    found = digests()
    assert {name: value for name, value in found.items() if recorded.get(name) != value} == {}
    assert set(found) == set(recorded)
