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
from typing import Any

import yaml  # type: ignore[import-untyped]

_ALWAYS_QUOTED_START = set("#,[]{}&*!|>'\"%@`")


def _resolves_to_another_type(text: str) -> bool:
    """Whether PyYAML would read ``text``, plain, as something other than a string (``0x1F``, ``1:20``)."""
    resolvers = yaml.SafeDumper.yaml_implicit_resolvers
    return any(regexp.match(text) for _, regexp in resolvers.get(text[:1], []) + resolvers.get(None, []))


def _needs_quotes(text: str) -> bool:
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
    text = str(value)
    if _CONTROL.search(text):
        return json.dumps(text, ensure_ascii=False)
    if _needs_quotes(text):
        inner = _folded(text, column + 1, indent, quoted=True) if fold else text.replace("'", "''")
        return "'" + inner + "'"
    return _folded(text, column, indent, quoted=False) if fold else text


def _lines(value: Any, indent: int) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            name = scalar(key)
            if isinstance(item, dict) and item:
                out.append(f"{pad}{name}:")
                out += _lines(item, indent + 2)
            elif isinstance(item, list) and item:
                out.append(f"{pad}{name}:")
                out += _lines(item, indent)
            else:
                head = f"{pad}{name}: "
                out.append(head + _empty_or_scalar(item, len(head), indent + 2))
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)) and item:
                nested = _lines(item, indent + 2)
                out.append(f"{pad}- {nested[0].lstrip()}")
                out += nested[1:]
            else:
                out.append(f"{pad}- " + _empty_or_scalar(item, indent + 2, indent + 2))
    else:
        out.append(pad + scalar(value))
    return out


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
    if isinstance(value, float):
        return "e" in repr(value) or value != value or value in (float("inf"), float("-inf"))
    if isinstance(value, str):
        return not value.isascii() and _UNUSUAL.search(value) is not None or _ASCII_UNUSUAL.search(value) is not None
    return False


#: Characters PyYAML escapes, breaks at or quotes in its own way: these documents go to it whole.
_UNUSUAL = re.compile(
    r"[\x7f-\xa0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff"
    r"\ud800-\uf8ff\ufff0-\uffff]"
)
_ASCII_UNUSUAL = re.compile(r"[\x00-\x1f]")


def _pyyaml(value: Any, flow_style: bool) -> str:
    # The study's YAML formats were written by PyYAML's safe dumper, keys in order, Unicode kept, 88 wide.
    width = 10**9 if flow_style else _WIDTH
    text: str = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=width, default_flow_style=flow_style)
    return text.rstrip("\n")


def dump(value: Any) -> str:
    """``value`` as block YAML, without a final newline."""
    if _exotic(value):
        return _pyyaml(value, flow_style=False)
    return "\n".join(_lines(value, 0))


def flow(value: Any) -> str:
    """``value`` in YAML's flow style on one line: ``{a: 1, b: [x, y]}``, as PyYAML writes it."""
    return _pyyaml(value, flow_style=True)

