"""The line protocols, whose values are text converted by the tool's schema: cli_call
(``name --arg value``), pipe_call (``name|arg=value``), key_value_call (``TOOL: name`` then
``arg: value`` lines), csv_call (values by position), table_call (markdown rows), symbolic_call
(``name ★arg§value``) and url_call (``POST /name?arg=value``)."""

from __future__ import annotations

import csv
import re
from urllib.parse import parse_qsl, unquote

from toolform.parse.protocols.base import Context, Found, found
from toolform.parse.result import RawCall
from toolform.parse.text_values import convert_text, param_type

_IDENT = re.compile(r"[A-Za-z_][\w.\-]*")


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


#: A shell word: bare text, backslash escapes and quoted parts, as many as stand together (shlex's POSIX mode:
#: a backslash outside quotes takes the next character as it is; inside double quotes it escapes only ``"`` and
#: ``\``; inside single quotes nothing).
_SHELL_WORD = re.compile(r"""[ \t\r\n]*((?:[^ \t\r\n"'\\]+|\\.|"(?:[^"\\]|\\.)*"|'[^']*')+)""", re.DOTALL)
_SHELL_PART = re.compile(r"""\\(.)|"((?:[^"\\]|\\.)*)"|'([^']*)'""", re.DOTALL)
_QUOTED_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_ENDS_ESCAPING = re.compile(r"""\\|"(?:[^"\\]|\\.)*\\""", re.DOTALL)


def _shell_words(line: str) -> list[str]:
    """``shlex.split(line)``, read in one pass; ValueError where shlex raises one.

    shlex builds each word a character at a time, copying the word so far for each one: a
    long word of escapes took time in the square of its length.
    """
    words: list[str] = []
    position = 0
    while True:
        word = _SHELL_WORD.match(line, position)
        if word is None:
            break
        written = word.group(1)
        words.append(_SHELL_PART.sub(_unquoted, written) if any(c in written for c in "\"'\\") else written)
        position = word.end()
    left = line[position:].lstrip(" \t\r\n")
    if left:
        # What no word reads is an unclosed quote, or a backslash that ends the line (inside a double quote too).
        raise ValueError("No escaped character" if _ENDS_ESCAPING.fullmatch(left) else "No closing quotation")
    return words


def _unquoted(part: re.Match[str]) -> str:
    escaped, double, single = part.groups()
    if escaped is not None:
        return escaped
    if double is not None:
        return _QUOTED_ESCAPE.sub(_in_double_quotes, double)
    return single


def _in_double_quotes(escape: re.Match[str]) -> str:
    return escape.group(1) if escape.group(1) in "\"\\" else escape.group(0)


def parse_cli(text: str, context: Context) -> Found | None:
    calls = []
    for line in _lines(text):
        line = line.lstrip("$ ").strip("`")
        try:
            tokens = _shell_words(line)
        except ValueError:
            continue
        if not tokens or not _IDENT.fullmatch(tokens[0]):
            continue
        texts: dict[str, str] = {}
        flags: list[str] = []
        rest = tokens[1:]
        if not rest and not context.resolver.known(tokens[0]):
            continue
        i, shaped = 0, True
        while i < len(rest):
            token = rest[i]
            if not token.startswith("--") or len(token) == 2:
                shaped = False
                break
            key, eq, value = token[2:].partition("=")
            if eq:
                texts[key] = value
                i += 1
            elif i + 1 < len(rest) and not rest[i + 1].startswith("--"):
                texts[key] = rest[i + 1]
                i += 2
            else:
                flags.append(key)
                i += 1
        if not shaped:
            continue
        tool = context.tool(tokens[0])
        names = {p.name.replace("_", "-"): p.name for p in tool.params} if tool is not None else {}
        call = context.text_call(tokens[0], {names.get(k, k): v for k, v in texts.items()})
        for flag in flags:
            call.arguments[names.get(flag, flag)] = True
        calls.append(call)
    return found(calls)


def parse_pipe(text: str, context: Context) -> Found | None:
    calls = []
    for line in _lines(text):
        if line.startswith("|") or "|" not in line and not context.resolver.known(line):
            continue
        head, *parts = [part.strip() for part in line.strip("`").split("|")]
        if not _IDENT.fullmatch(head):
            continue
        texts: dict[str, str] = {}
        for part in parts:
            key, eq, value = part.partition("=")
            if not eq:
                break
            texts[key.strip()] = value.strip()
        else:
            calls.append(context.text_call(head, texts))
    return found(calls)


_TOOL_LINE = re.compile(r"^\s*(?:TOOL|tool|Tool)\s*:\s*(\S+)\s*$")
#: ``^\s*(name)\s*:\s*(.*?)\s*$`` on one line (no line break in it), its value taken a run of spaces and a
#: character at a time, so that a long run of spaces is read once.
_KV_LINE = re.compile(r"^\s*([A-Za-z_][\w.\-]*)\s*:\s*((?:\s*+\S)*?)\s*+\Z")


def parse_key_value(text: str, context: Context) -> Found | None:
    calls: list[RawCall] = []
    name: str | None = None
    texts: dict[str, str] = {}
    for line in text.splitlines():
        tool = _TOOL_LINE.match(line)
        if tool is not None:
            if name is not None:
                calls.append(context.text_call(name, texts))
            name, texts = tool.group(1).strip("`*"), {}
            continue
        pair = _KV_LINE.match(line)
        if name is not None and pair is not None:
            texts[pair.group(1)] = pair.group(2)
    if name is not None:
        calls.append(context.text_call(name, texts))
    return found(calls)


def parse_csv(text: str, context: Context) -> Found | None:
    calls = []
    for line in _lines(text):
        if "," not in line and not context.resolver.known(line):
            continue
        try:
            row = next(csv.reader([line.strip("`")], skipinitialspace=True))
        except (csv.Error, StopIteration):
            continue
        if not row or not _IDENT.fullmatch(row[0].strip()):
            continue
        tool = context.tool(row[0].strip())
        if tool is None:
            # A sentence with a comma is not a call: an unknown tool's values hold no spaces.
            if len(row) > 1 and not any(" " in cell.strip() for cell in row):
                calls.append(RawCall(row[0].strip(), {f"arg{i}": v for i, v in enumerate(row[1:])}))
            continue
        texts = {}
        for param, value in zip(tool.params, row[1:], strict=False):
            if value.strip():
                texts[param.name] = value
        call = context.text_call(row[0].strip(), texts)
        for extra, value in enumerate(row[1 + len(tool.params) :]):
            call.arguments[f"arg{len(tool.params) + extra}"] = value
        calls.append(call)
    return found(calls)


_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}")


def parse_table(text: str, context: Context) -> Found | None:
    order: list[str] = []
    texts: dict[str, dict[str, str]] = {}
    for line in _lines(text):
        if not line.startswith("|") or _SEPARATOR.match(line):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) < 2 or [c.lower() for c in cells[:3]] == ["tool", "argument", "value"]:
            continue
        tool, argument = cells[0].strip("`"), cells[1].strip("`")
        value = cells[2] if len(cells) > 2 else ""
        if tool not in texts:
            order.append(tool)
            texts[tool] = {}
        if argument and argument not in ("-", "—"):
            texts[tool][argument] = value
    return found([context.text_call(name, texts[name]) for name in order])


#: A value runs to the next ★ or the end, spaces around it left out; taken a run of spaces and a character at a
#: time (as ``(.*?)(?=\s*★|\s*$)`` reads it) so that a run of spaces is read once.
_SYMBOLIC_ARG = re.compile(r"★\s*([^\s§#%¿≡¤★]+)\s*([§#%¿≡¤])((?:\s*+\S)*?)(?=\s*+★|\s*+\Z)", re.DOTALL)
_SYMBOLIC_HEAD = re.compile(r"^\s*([A-Za-z_][\w.\-]*)\s*(?=★|$)")


def parse_symbolic(text: str, context: Context) -> Found | None:
    calls = []
    for line in _lines(text):
        head = _SYMBOLIC_HEAD.match(line)
        if head is None or ("★" not in line and not context.resolver.known(head.group(1))):
            continue
        tool = context.tool(head.group(1))
        arguments: dict[str, object] = {}
        for name, symbol, value in _SYMBOLIC_ARG.findall(line[head.end() :]):
            declared = param_type(tool, name)
            arguments[name] = convert_text(value, declared) if declared is not None else _symbol_value(symbol, value)
        calls.append(RawCall(head.group(1), arguments))
    return found(calls)


def _symbol_value(symbol: str, value: str) -> object:
    from toolform.ir import Kind, TypeIR

    kinds = {
        "§": Kind.STRING,
        "#": Kind.INTEGER,
        "%": Kind.NUMBER,
        "¿": Kind.BOOLEAN,
        "≡": Kind.ARRAY,
        "¤": Kind.OBJECT,
    }
    return convert_text(value, TypeIR(kinds[symbol]))


_REQUEST_LINE = re.compile(r"\b(?:GET|POST|PUT|PATCH|DELETE)\s+/([^\s?#]+)(?:\?(\S*))?")


def parse_url(text: str, context: Context) -> Found | None:
    calls = []
    for match in _REQUEST_LINE.finditer(text):
        written = unquote(match.group(1)).strip("/").split("/")[-1]
        name = context.resolver.resolve(written) or written
        pairs = parse_qsl(match.group(2) or "", keep_blank_values=True)
        calls.append(context.text_call(name, dict(pairs)))
    return found(calls)
