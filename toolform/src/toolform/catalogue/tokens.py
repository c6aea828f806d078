"""Words for BM25: the reference's tokenizer, and ours that also splits identifiers.

The reference lowercases the text and keeps runs of ASCII letters and digits, so
``get_weather`` is two words and ``getWeather`` one. ``split_identifiers`` also
breaks camelCase and letter-digit boundaries (``getHTTPServer2`` is get, http,
server, 2), which helps with catalogues named in camelCase; it changes scores,
so it is off by default for parity with the reference.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+")
# A lowercase letter or digit before an uppercase one (getWeather), an uppercase
# run before a capitalised word (HTTPServer), and letter/digit edges (v2, 2day).
_IDENTIFIER_EDGE = re.compile(
    r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])"
)


def words(text: str, split_identifiers: bool = False) -> list[str]:
    """The words of ``text`` in order, lowercase, repeats kept (a repeated query word counts twice)."""
    if split_identifiers:
        text = _IDENTIFIER_EDGE.sub(" ", text)
    return _WORD.findall(text.lower())
