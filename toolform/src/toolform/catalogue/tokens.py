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


# Every byte but ASCII letters and digits becomes a space: on the UTF-8 of lowercased text, splitting
# then gives exactly the runs ``[a-z0-9]+`` would find (a non-ASCII character's bytes are all >= 0x80),
# several times faster than the regular expression.
_NOT_WORD = bytes(b if chr(b).isascii() and chr(b).isalnum() and not chr(b).isupper() else 0x20 for b in range(256))


def words(text: str, split_identifiers: bool = False) -> list[str]:
    """The words of ``text`` in order, lowercase, repeats kept (a repeated query word counts twice)."""
    if split_identifiers:
        text = _IDENTIFIER_EDGE.sub(" ", text)
    return _WORD.findall(text.lower())


def word_bytes(text: str, split_identifiers: bool = False) -> list[bytes]:
    """``words`` as ASCII bytes, the index's own keys: the same words, found faster."""
    if split_identifiers:
        text = _IDENTIFIER_EDGE.sub(" ", text)
    return text.lower().encode("utf-8", "surrogatepass").translate(_NOT_WORD).split()
