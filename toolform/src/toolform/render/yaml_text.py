"""A small block-style YAML writer: keys in order, sequences at their key's indent.

Strings are written plain unless YAML would read them as something else, then
single-quoted (double-quoted when they hold a line break or a control character).
A document this writer does not imitate (control, format or separator
characters, floats in exponent form) and every flow-style document go to
PyYAML's safe dumper, which wrote the study's YAML.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import yaml  # type: ignore[import-untyped]

from toolform.numbers import float_repr, number_text

_ALWAYS_QUOTED_START = set("#,[]{}&*!|>'\"%@`")


#: Texts up to this long have their answers below kept (keys, type names and enum values recur through a
#: document and the formats of a compare), at most ``_KEPT_MOST`` of them per question.
_KEPT_LONGEST = 200
_KEPT_MOST = 8192


def _kept(answers: dict[str, bool], text: str, answer: bool) -> bool:
    if len(text) <= _KEPT_LONGEST:
        if len(answers) >= _KEPT_MOST:
            answers.clear()
        answers[text] = answer
    return answer


_RESOLVES: dict[str, bool] = {}


def _resolves_to_another_type(text: str) -> bool:
    """Whether PyYAML would read ``text``, plain, as something other than a string (``0x1F``, ``1:20``)."""
    known = _RESOLVES.get(text)
    if known is not None:
        return known
    resolvers = yaml.SafeDumper.yaml_implicit_resolvers
    found = any(regexp.match(text) for _, regexp in resolvers.get(text[:1], []) + resolvers.get(None, []))
    return _kept(_RESOLVES, text, found)


_QUOTED: dict[str, bool] = {}


def _needs_quotes(text: str) -> bool:
    known = _QUOTED.get(text)
    return known if known is not None else _kept(_QUOTED, text, _needs_quotes_now(text))


def _needs_quotes_now(text: str) -> bool:
    # PyYAML's own resolvers decide what reads as another type: "1e3" has no dot and stays a string.
    if text == "" or text != text.strip() or _resolves_to_another_type(text):
        return True
    if text[0] in _ALWAYS_QUOTED_START:
        return True
    if text[0] in "-?:" and (len(text) == 1 or text[1] == " "):
        return True
    return ": " in text or " #" in text or text.endswith(":")


_WIDTH = 88
_SPACES = re.compile(r"( +)")
#: A line break or another control character but the tab: the scalar goes in double quotes.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f]")


def _folded(text: str, column: int, indent: int, quoted: bool) -> str:
    """``text`` with each single space after column 88 turned into a line break and indent.

    A space that runs with others is kept, and a quoted scalar's first and last
    space are never broken, as PyYAML's writer does.
    """
    if column + len(text) + (text.count("'") if quoted else 0) <= _WIDTH:
        # No space can sit past column 88: nothing to fold (most scalars).
        return text.replace("'", "''") if quoted else text
    out: list[str] = []
    pieces = _SPACES.split(text)
    for position, piece in enumerate(pieces):
        first_or_last = position == 1 or position == len(pieces) - 2 and pieces[-1] == ""
        if piece == " " and column > _WIDTH and not (quoted and first_or_last):
            out.append("\n" + " " * indent)
            column = indent
            continue
        shown = piece.replace("'", "''") if quoted else piece
        out.append(shown)
        column += len(shown)
    return "".join(out)


def scalar(value: Any, column: int = 0, indent: int = 0, fold: bool = True) -> str:
    """One scalar as YAML writes it, starting at ``column``; a long one is folded at ``indent``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, Decimal):
        return number_text(value)
    text = str(value)
    if _CONTROL.search(text):
        return json.dumps(text, ensure_ascii=False)
    if _needs_quotes(text):
        inner = _folded(text, column + 1, indent, quoted=True) if fold else text.replace("'", "''")
        return "'" + inner + "'"
    return _folded(text, column, indent, quoted=False) if fold else text


def _lines(value: Any, indent: int) -> list[str]:
    # Raises _Unusual at the first key or scalar ``_exotic`` would find, so one walk both checks and writes.
    pad = " " * indent
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if _exotic_scalar(key) or not _simple_key(key):
                raise _Unusual
            name = scalar(key)
            if isinstance(item, dict) and item:
                out.append(f"{pad}{name}:")
                out += _lines(item, indent + 2)
            elif isinstance(item, list) and item:
                out.append(f"{pad}{name}:")
                out += _lines(item, indent)
            else:
                if _exotic_scalar(item):
                    raise _Unusual
                head = f"{pad}{name}: "
                out.append(head + _empty_or_scalar(item, len(head), indent + 2))
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)) and item:
                nested = _lines(item, indent + 2)
                out.append(f"{pad}- {nested[0].lstrip()}")
                out += nested[1:]
            else:
                if _exotic_scalar(item):
                    raise _Unusual
                out.append(f"{pad}- " + _empty_or_scalar(item, indent + 2, indent + 2))
    else:
        if _exotic_scalar(value):
            raise _Unusual
        out.append(pad + scalar(value))
    return out


def _simple_key(key: Any) -> bool:
    """Whether PyYAML writes ``key`` as ``key:``; an empty, long or multi-line one it writes as ``? key``."""
    return not isinstance(key, str) or (0 < len(key) < 128 and not _LINE_BREAK.search(key))


_LINE_BREAK = re.compile("[\n\r\x85\u2028\u2029]")


class _Unusual(Exception):
    """A document ``_lines`` leaves to PyYAML: it holds what ``_exotic`` finds."""


def _empty_or_scalar(value: Any, column: int, indent: int) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return scalar(value, column, indent)


def _exotic(value: Any) -> bool:
    """Whether ``value`` holds what this writer does not imitate: a float in exponent form or not finite, or a
    string with a control, format, separator or private character, a tab or a no-break space."""
    if isinstance(value, dict):
        return any(_exotic(k) or _exotic(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_exotic(v) for v in value)
    return _exotic_scalar(value)


def _exotic_scalar(value: Any) -> bool:
    """``_exotic`` of a value that is not a list or a dict."""
    if isinstance(value, str):
        return not value.isascii() and _UNUSUAL.search(value) is not None or _ASCII_UNUSUAL.search(value) is not None
    if isinstance(value, float):
        return "e" in repr(value) or value != value or value in (float("inf"), float("-inf"))
    if isinstance(value, Decimal):
        # An exponent, inf or nan in the number's text.
        text = number_text(value)
        return "e" in text or "n" in text
    return False


#: Characters PyYAML escapes, breaks at or quotes in its own way: these documents go to it whole.
_UNUSUAL = re.compile(
    r"[\x7f-\xa0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff"
    r"\ud800-\uf8ff\ufff0-\uffff]"
)
_ASCII_UNUSUAL = re.compile(r"[\x00-\x1f]")


class _SafeDumper(yaml.SafeDumper):  # type: ignore[misc]
    """PyYAML's safe dumper, which also writes the IR's Decimals: as the floats the reference reads them as."""

    def ignore_aliases(self, data: Any) -> bool:
        # A value met twice is written twice, never anchored: the documents are the reference's, built from
        # JSON it read, which shares no object (the IR may share a default or a schema between places).
        return True


def _represent_decimal(dumper: yaml.SafeDumper, value: Decimal) -> Any:
    if value.is_finite() and value.as_tuple().exponent == 0:
        return dumper.represent_int(int(value))
    # SafeRepresenter.represent_float's text, from the number's repr.
    text = float_repr(value)
    if text == "nan":
        shown = ".nan"
    elif text in ("inf", "-inf"):
        shown = text.replace("inf", ".inf")
    else:
        shown = text.lower()
        if "." not in shown and "e" in shown:
            shown = shown.replace("e", ".0e", 1)
    return dumper.represent_scalar("tag:yaml.org,2002:float", shown)


_SafeDumper.add_representer(Decimal, _represent_decimal)


def _pyyaml(value: Any, flow_style: bool) -> str:
    # The study's YAML formats were written by PyYAML's safe dumper, keys in order, Unicode kept, 88 wide.
    width = 10**9 if flow_style else _WIDTH
    text: str = yaml.dump(
        value, Dumper=_SafeDumper, sort_keys=False, allow_unicode=True, width=width, default_flow_style=flow_style
    )
    return text.rstrip("\n")


def dump(value: Any) -> str:
    """``value`` as block YAML, without a final newline."""
    try:
        return "\n".join(_lines(value, 0))
    except _Unusual:
        return _pyyaml(value, flow_style=False)


def flow(value: Any) -> str:
    """``value`` in YAML's flow style on one line: ``{a: 1, b: [x, y]}``, as PyYAML writes it."""
    written = _flow_written(value)
    return written if written is not None else _pyyaml(value, flow_style=True)


class _NotPlainFlow(Exception):
    """A value ``_flow_written`` leaves to PyYAML."""


#: Outside printable ASCII, the characters PyYAML writes as they are: anything else (a control, a line or
#: paragraph separator, a byte order mark, a surrogate or a private character) goes to PyYAML's own writer.
_FLOW_UNSAFE = re.compile(r"[^\x20-\x7e\xa1-\u2027\u202a-\ud7ff\uf900-\ufefe\uff00-\ufffd\U00010000-\U000effff]")
_ASCII_UNSAFE = re.compile(r"[^\x20-\x7e]")
#: After its first character, what keeps a scalar from being plain in a flow collection.
_FLOW_INDICATOR = re.compile(r"[,?\[\]{}:]| #")
_FLOW_FIRST = frozenset("#,[]{}&*!|>'\"%@`?: ")


def _flow_scalar(text: str) -> str:
    """A string as PyYAML writes it in a flow collection, 10**9 wide: plain when it may be, else single-quoted."""
    if _ASCII_UNSAFE.search(text) if text.isascii() else _FLOW_UNSAFE.search(text):
        raise _NotPlainFlow
    plain = (
        text != ""
        and text[0] not in _FLOW_FIRST
        and text[-1] != " "
        and not (text[0] == "-" and (len(text) == 1 or text[1] == " "))
        and not text.startswith(("---", "..."))
        and _FLOW_INDICATOR.search(text, 1) is None
        and not _resolves_to_another_type(text)
    )
    return text if plain else "'" + text.replace("'", "''") + "'"


def _flow_written(value: Any) -> str | None:
    """``_pyyaml(value, flow_style=True)``, character for character, for plain data; None for anything else.

    PyYAML's emitter walks every node through a dozen Python calls; the study's
    yaml_flow format writes whole schemas this way, the slowest format of a
    compare by far. Here plain data (dicts and lists each held once, string keys
    of fewer than 100 characters, strings of printable characters, ints, finite
    floats without an exponent, booleans, None) is joined directly, as PyYAML
    lays it out on one line: the same plain or single-quoted scalars. Anything
    else (a shared container, which PyYAML writes as an anchor, a long or empty
    key, which it writes as a complex key, a scalar alone) is PyYAML's to write,
    with its errors.
    """
    held: set[int] = set()

    def write(item: Any) -> str:
        kind = type(item)
        if kind is str:
            return _flow_scalar(item)
        if kind is dict:
            if id(item) in held:
                raise _NotPlainFlow
            held.add(id(item))
            members = []
            for key, member in item.items():
                if type(key) is not str or not key or len(key) >= 100:
                    raise _NotPlainFlow
                members.append(_flow_scalar(key) + ": " + write(member))
            return "{" + ", ".join(members) + "}"
        if kind is list:
            if id(item) in held:
                raise _NotPlainFlow
            held.add(id(item))
            return "[" + ", ".join(write(member) for member in item) + "]"
        if item is None:
            return "null"
        if kind is bool:
            return "true" if item else "false"
        if kind is int:
            return int.__repr__(item)
        if kind is float or kind is Decimal:
            shown = float.__repr__(item) if kind is float else number_text(item)
            if "e" in shown or "n" in shown:  # an exponent, inf or nan: PyYAML writes its own forms
                raise _NotPlainFlow
            return shown
        raise _NotPlainFlow

    if type(value) is not list and type(value) is not dict:
        return None  # a scalar alone is a document of its own, which PyYAML may end with "..."
    try:
        return write(value)
    except (_NotPlainFlow, RecursionError, ValueError):
        return None

