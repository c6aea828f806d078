"""Values and names as the formats print them: Python literals, JSON, cases.

Numbers are the IR's: ints, and Decimals holding every digit read. Each is
written as the reference's Python writes the number it reads (an int, or the
double nearest a Decimal: ``toolform.numbers``), never through a float.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from toolform import jsontext
from toolform.numbers import number_text

#: A number's text in JSON where Python's repr has another word (``json.dumps`` of a float).
_JSON_WORDS = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}


def json_number(value: Decimal) -> str:
    """A Decimal as ``json.dumps`` writes the number the reference reads for it."""
    text = number_text(value)
    return _JSON_WORDS.get(text, text)


def py_repr(value: Any) -> str:
    """``repr(value)`` of a JSON value, each number in it written as the reference writes it."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, Decimal):
        return number_text(value)
    if isinstance(value, list):
        return "[" + ", ".join(py_repr(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_repr(key)}: {py_repr(item)}" for key, item in value.items()) + "}"
    return repr(value)


def py_literal(value: Any) -> str:
    """A default as Python writes it (``False``, ``'a'`` inside lists, ``None``)."""
    return py_repr(value)


def plain(value: Any) -> str:
    """A default as prose shows it: strings bare, everything else as Python writes it."""
    return value if isinstance(value, str) else py_repr(value)


def json_dumps(value: Any, *, ensure_ascii: bool = True, separators: tuple[str, str] | None = None) -> str:
    """``json.dumps(value, ensure_ascii=..., separators=...)`` with the IR's Decimals written as numbers."""
    try:
        return json.dumps(value, ensure_ascii=ensure_ascii, separators=separators)
    except TypeError:
        # A Decimal (json.dumps knows none): the same text, each number written exactly.
        items, keys = separators or (", ", ": ")
        try:
            return _one_line(value, items, keys, ensure_ascii)
        except _NotPlain:
            return jsontext.write(
                value, item_separator=items, key_separator=keys, ensure_ascii=ensure_ascii, decimal_text=json_number
            )


def _one_line(value: Any, items: str, keys: str, ensure_ascii: bool) -> str:
    """``json.dumps`` with these separators for plain JSON holding Decimals, strings through the C encoder.

    Raises _NotPlain for anything else (a key that is not a string, a value of another type).
    """
    encode = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring

    def write(item: Any) -> str:
        kind = type(item)
        if kind is str:
            return encode(item)
        if kind is dict:
            members = []
            for key, member in item.items():
                if type(key) is not str:
                    raise _NotPlain
                members.append(encode(key) + keys + (encode(member) if type(member) is str else write(member)))
            return "{" + items.join(members) + "}"
        if kind is list:
            return "[" + items.join([encode(m) if type(m) is str else write(m) for m in item]) + "]"
        return _plain_scalar(item, encode)

    return write(value)


def json_text(value: Any, indent: int | None = None, minify: bool = False) -> str:
    """JSON with non-ASCII kept; ``minify`` drops every optional space."""
    if minify or indent is None:
        separators = (",", ":") if minify else (", ", ": ")
        return json_dumps(value, ensure_ascii=False, separators=separators)
    return indented_json(value, indent, ensure_ascii=False)


class _NotPlain(Exception):
    """A value ``indented_json`` leaves to ``json.dumps``."""


def indented_json(value: Any, indent: int, ensure_ascii: bool = True) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)``, character for character, faster.

    With an indent, ``json.dumps`` runs its pure-Python encoder, a generator per
    container; the renderers write thousands of such documents per compare.
    Here strings go through the C string encoder and containers are joined
    directly, each level's line breaks and indents made once. Anything but plain
    JSON (a key that is not a string, a value that is not a str, int, float,
    bool, None, list, tuple or dict, or a Decimal, written as ``json_number``
    writes it) goes to ``json.dumps`` as it is, so its answer and its errors
    stay the module's.
    """
    encode = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    unit = " " * indent
    #: Per level of a container: what opens its first item, what goes between items, what closes it.
    opens: list[str] = []
    betweens: list[str] = []
    closes: list[str] = []

    def breaks(level: int) -> None:
        while len(opens) <= level:
            depth = len(opens)
            opens.append("\n" + unit * (depth + 1))
            betweens.append(",\n" + unit * (depth + 1))
            closes.append("\n" + unit * depth)

    def write(value: Any, level: int) -> str:
        kind = type(value)
        if kind is str:
            return encode(value)
        if kind is dict or (kind is not list and isinstance(value, dict)):
            if not value:
                return "{}"
            breaks(level)
            inner = level + 1
            members = []
            for key, item in value.items():
                if type(key) is not str and not isinstance(key, str):
                    raise _NotPlain
                members.append(encode(key) + ": " + (encode(item) if type(item) is str else write(item, inner)))
            return "{" + opens[level] + betweens[level].join(members) + closes[level] + "}"
        if kind is list or isinstance(value, (list, tuple)):
            if not value:
                return "[]"
            breaks(level)
            inner = level + 1
            items = [encode(item) if type(item) is str else write(item, inner) for item in value]
            return "[" + opens[level] + betweens[level].join(items) + closes[level] + "]"
        return _plain_scalar(value, encode)

    try:
        return write(value, 0)
    except _NotPlain:
        return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent)


_INFINITY = float("inf")


def _plain_scalar(value: Any, encode: Callable[[str], str]) -> str:
    """A JSON scalar as ``json.dumps`` writes it (its subclasses of str, int and float too)."""
    if isinstance(value, str):
        return encode(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, Decimal):
        return json_number(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value == _INFINITY or value == -_INFINITY:
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    raise _NotPlain


def compact_json(value: Any) -> str:
    """JSON with no optional space at all."""
    return json_dumps(value, ensure_ascii=False, separators=(",", ":"))


def pascal(name: str) -> str:
    """``legal_draft_v3`` (or ``legal-draft-v3``) as ``LegalDraftV3``."""
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_") if part)


def pascal_underscores(name: str) -> str:
    """``legal_draft_v3`` as ``LegalDraftV3``; only underscores split words (``a-b`` is ``A-b``)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def capitalized(name: str) -> str:
    """``legal_draft_v3`` as ``LegalDraftV3``, each word's other letters lowered (``aB`` is ``Ab``)."""
    return "".join(part.capitalize() for part in name.split("_") if part)


def wit_name(name: str) -> str:
    """``Legal_Draft`` as ``legal-draft``: WIT's lower kebab case."""
    return name.replace("_", "-").lower()


def camel(name: str) -> str:
    """``legal_draft_v3`` as ``legalDraftV3``."""
    joined = pascal(name)
    return joined[:1].lower() + joined[1:]


def kebab(name: str) -> str:
    """``term_months`` as ``term-months``."""
    return name.replace("_", "-")


def sentence(text: str) -> str:
    """A description without its final full stop, for use inside a sentence."""
    return text[:-1] if text.endswith(".") else text


def summary_sentence(text: str) -> str:
    """The text without space at either end, up to its first full stop that ends a sentence (one followed by a
    space), without space at either end, then without the full stops it ends in (``x . `` keeps ``x ``): how the
    reference cuts a tool's summary in an index (a two-stage catalogue's first stage). Empty when nothing is
    left (`` . ``)."""
    return text.strip().split(". ", 1)[0].strip().rstrip(".")


def first_sentence(text: str) -> str:
    """The text up to its first full stop, without it: a full stop inside a token (``v1.2``, ``e.g.``) ends it
    too, as the reference cuts it (the study measured that text)."""
    return text.split(".", 1)[0]


def lower_first(text: str) -> str:
    """``Draft a contract`` as ``draft a contract``, for use after words of our own."""
    return text[:1].lower() + text[1:]
