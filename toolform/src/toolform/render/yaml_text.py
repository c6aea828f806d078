"""A small block-style YAML writer: keys in order, sequences at their key's indent.

Strings are written plain unless YAML would read them as something else, then
single-quoted (double-quoted when they hold a line break or a control character).
"""

from __future__ import annotations

import json
import re
from typing import Any

_RESERVED = re.compile(
    r"^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N)$"
)
_NUMBER = re.compile(r"^[-+]?(?:\.?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.(?:inf|Inf|INF|nan|NaN|NAN))$")
_ALWAYS_QUOTED_START = set("#,[]{}&*!|>'\"%@`")


def _needs_quotes(text: str) -> bool:
    if text == "" or text != text.strip() or _RESERVED.match(text) or _NUMBER.match(text):
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


def dump(value: Any) -> str:
    """``value`` as block YAML, without a final newline."""
    return "\n".join(_lines(value, 0))


_FLOW_INDICATORS = re.compile(r"[,?\[\]{}]")


def flow_scalar(value: Any) -> str:
    """A scalar inside flow collections, where ``,[]{}`` force quotes too."""
    if isinstance(value, str) and _FLOW_INDICATORS.search(value) and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    return scalar(value, fold=False)


def flow(value: Any) -> str:
    """``value`` in YAML's flow style on one line: ``{a: 1, b: [x, y]}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{flow_scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return flow_scalar(value)
