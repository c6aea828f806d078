"""Where the tests find the repository's files, whichever folder a test sits in."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
TOOLFORM = TESTS.parent
REPO = TOOLFORM.parent
#: Files the tests read: tool sets in each source shape, the guard's corpora, recorded answer digests.
DATA = TESTS / "data"
#: The Flow weather listing every binding's tests use.
WEATHER_LISTING = REPO / "tests" / "examples" / "weather.tools.json"
