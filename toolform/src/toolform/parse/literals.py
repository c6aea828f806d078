"""Reading JSON-like values out of free text: balanced spans, then JSON, then its common slips."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Any

_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_CLOSERS = {"{": "}", "[": "]", "(": ")"}


#: Outside a string, the characters that change the reading; inside one, the escape and its closing quote.
_STRUCTURE = re.compile(r"""["'{}\[\]()]""")
_STRING_END = {'"': re.compile(r'[\\"]'), "'": re.compile(r"[\\']")}


class Brackets:
    """Where each bracket of one text closes, every answer kept, so that any number of questions cost one reading.

    Read from an opening bracket, the text is skipped level by level: a string is skipped to its
    closing quote, a nested bracket to where it closes, and the level ends at the first closing
    bracket (matched or not) or fails at the end of the text. Where a level ends depends only on
    where its reading resumed, not on which bracket opened it, so each resume position is read once:
    asked from every one of a million brackets, the whole text is still read a small constant number
    of times (``steps`` counts the searches, which tests bound).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        #: Resume position (outside a string) -> the first closing bracket of its level, or -1.
        self._level_end: dict[int, int] = {}
        #: (quote, resume position inside the string) -> the position just past its closing quote, or -1.
        self._string_end: dict[tuple[str, int], int] = {}
        #: Searches made so far: at most a small multiple of the text's length, whatever is asked.
        self.steps = 0
        #: (openers, start) -> where ``loaded_spans`` read bracket first from ``start`` found its spans, kept
        #: inside ``sharing_brackets``.
        self.spans: dict[tuple[str, int], list[tuple[int, int]]] = {}

    def end(self, start: int, limit: int | None = None) -> int:
        """The index just past the bracket that closes the one at ``start``, or -1; quotes are respected.

        With ``limit``, as in ``text[:limit]``: the bracket must close at or before it. (A reading
        that closes there never looked past it, and one that closes later, or never, would have
        run into the end of the shorter text.)
        """
        text = self.text
        found = self._level(start + 1)
        if found < 0 or text[found] != _CLOSERS[text[start]] or (limit is not None and found + 1 > limit):
            return -1
        return found + 1

    def _string(self, quote: str, resume: int) -> int:
        known = self._string_end
        stop = _STRING_END[quote].search
        text = self.text
        visited: list[int] = []
        i = resume
        while True:
            answer = known.get((quote, i))
            if answer is not None:
                break
            visited.append(i)
            self.steps += 1
            inside = stop(text, i)
            if inside is None:
                answer = -1
                break
            i = inside.start()
            if text[i] != "\\":
                answer = i + 1
                break
            i += 2
        for position in visited:
            known[(quote, position)] = answer
        return answer

    def _level(self, resume: int) -> int:
        # Iterative, with the open levels on a list: a reply may nest a million brackets.
        text = self.text
        known = self._level_end
        structure = _STRUCTURE.search
        #: Per open level, the resume positions read at that level (they all end where it ends).
        levels: list[list[int]] = [[resume]]
        #: Per nested level, the bracket its end must be to continue the level around it.
        expected: list[str] = []
        i = resume
        while True:
            answer = known.get(i)
            if answer is None:
                self.steps += 1
                found = structure(text, i)
                if found is None:
                    answer = -1
                else:
                    at = found.start()
                    ch = text[at]
                    if ch == '"' or ch == "'":
                        # An apostrophe inside a word (it's) opens no string.
                        if ch == "'" and text[at - 1 : at].isalnum() and text[at + 1 : at + 2].isalnum():
                            i = at + 1
                        else:
                            i = self._string(ch, at + 1)
                            if i < 0:
                                answer = -1
                        if answer is None:
                            levels[-1].append(i)
                            continue
                    elif ch in _CLOSERS:
                        expected.append(_CLOSERS[ch])
                        i = at + 1
                        levels.append([i])
                        continue
                    else:
                        answer = at
            # The level ends at ``answer``: every position read at it ends there; the level around it
            # continues past a matching bracket, and fails with any other end.
            while True:
                for position in levels.pop():
                    known[position] = answer
                if not levels:
                    return answer
                closer = expected.pop()
                if answer >= 0 and text[answer] == closer:
                    i = answer + 1
                    levels[-1].append(i)
                    break
                answer = -1


_shared: ContextVar[list[Brackets] | None] = ContextVar("toolform_shared_brackets", default=None)


@contextmanager
def sharing_brackets() -> Iterator[None]:
    """Inside the block, ``brackets_of`` gives every reader of one text the same ``Brackets``: the protocols'
    parsers that read one reply in turn read its brackets once between them. Outside it nothing is kept, so
    no reading outlives the parse that made it."""
    token = _shared.set([])
    try:
        yield
    finally:
        _shared.reset(token)


def brackets_of(text: str) -> Brackets:
    """The ``Brackets`` of ``text``: the one already read in this ``sharing_brackets`` block, else a new one."""
    shared = _shared.get()
    if shared is None:
        return Brackets(text)
    for known in shared:
        if known.text is text or (len(known.text) == len(text) and known.text == text):
            return known
    brackets = Brackets(text)
    shared.append(brackets)
    return brackets


def balanced_end(text: str, start: int) -> int:
    """The index just past the bracket that closes the one at ``start``, or -1; quotes are respected.

    One question; ask a ``Brackets`` of the text when asking about many of its brackets.
    """
    return Brackets(text).end(start)


_OPENERS: dict[str, re.Pattern[str]] = {}


def _opener(openers: str) -> re.Pattern[str]:
    """The pattern finding any of ``openers``, compiled once per set."""
    opener = _OPENERS.get(openers)
    if opener is None:
        opener = _OPENERS[openers] = re.compile("[" + re.escape(openers) + "]")
    return opener


def spans(text: str, openers: str = "{[") -> Iterator[tuple[int, int]]:
    """Every outermost balanced span opened by one of ``openers``, left to right."""
    opener = _opener(openers)
    brackets = brackets_of(text)
    i = 0
    while True:
        found = opener.search(text, i)
        if found is None:
            return
        i = found.start()
        end = brackets.end(i)
        if end > 0:
            yield i, end
            i = end
        else:
            i += 1


_PY_NAMES = {"true": "True", "false": "False", "null": "None"}
_BARE = re.compile(r"\b(true|false|null)\b")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def exact_json(text: str) -> Any:
    """JSON text read with every number exact: an integer as int, any other number as a Decimal of its digits."""
    return json.loads(text, parse_float=Decimal, parse_constant=_refuse_constant)


def load_jsonish(text: str) -> tuple[bool, Any]:
    """(True, value) when ``text`` is JSON, JSON with trailing commas, or a Python literal; else (False, None).

    Numbers keep their digits (Decimal), whichever reading succeeds.
    """
    try:
        return True, exact_json(text)
    except (ValueError, RecursionError):
        pass
    fixed = _TRAILING_COMMA.sub(r"\1", text)
    if fixed != text:
        try:
            return True, exact_json(fixed)
        except (ValueError, RecursionError):
            pass
    source = _BARE.sub(lambda m: _PY_NAMES[m.group(1)], fixed)
    try:
        tree = ast.parse(source.strip(), mode="eval")
        ast.literal_eval(tree)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None
    return True, python_value(tree.body, source.strip())


#: ``exact_json``'s reader, which also reads a value where it starts in a longer text.
_EXACT_DECODER = json.JSONDecoder(parse_float=Decimal, parse_constant=_refuse_constant)


def loaded_spans(text: str, openers: str = "{[") -> Iterator[tuple[int, int, bool, Any]]:
    """Each span of ``spans`` with what ``load_jsonish`` reads in it: ``(start, end, ok, value)``.

    A span that is JSON is read where it starts, in one pass: a JSON value opened by
    a bracket ends where its bracket closes (its strings are the double-quoted, escaped
    strings ``Brackets`` skips, and outside them it holds no quote or parenthesis),
    and it is what ``exact_json`` reads in the span. So a bracket that never closes
    opens no JSON value either, and is passed over without reading it as JSON: the
    decoder is only started at brackets that close, whose spans do not overlap.

    Most replies hold only JSON at their brackets, so the decoder is tried first, at
    each opener in turn, while it succeeds: a value it reads is the span the brackets
    would give, and the next opener is past it. At its first failure (which may have
    read far) the reading goes on bracket first, as above, from that opener on, so
    the text is still read a few times at most.
    """
    opener = _opener(openers)
    decode = _EXACT_DECODER.raw_decode
    i = 0
    while True:
        found = opener.search(text, i)
        if found is None:
            return
        i = found.start()
        try:
            value, decoded_end = decode(text, i)
        except (ValueError, RecursionError):
            yield from _bracketed_spans(text, openers, i)
            return
        yield i, decoded_end, True, value
        i = decoded_end


def _bracketed_spans(text: str, openers: str, i: int) -> Iterator[tuple[int, int, bool, Any]]:
    """``loaded_spans`` from position ``i`` on, each opener's bracket found closing before any decoding.

    Inside ``sharing_brackets``, where these spans start and end is found once per text, openers and
    start; each reading decodes its values anew (a caller may change what it is given).
    """
    brackets = brackets_of(text)
    key = (openers, i)
    known = brackets.spans.get(key)
    if known is not None:
        yield from _read_spans(text, known)
        return
    opener = _opener(openers)
    found_spans: list[tuple[int, int]] = []
    while True:
        found = opener.search(text, i)
        if found is None:
            break
        i = found.start()
        end = brackets.end(i)
        if end < 0:
            i += 1
            continue
        found_spans.append((i, end))
        span = _read_span(text, i, end)
        yield span
        i = span[1]
    if _shared.get() is not None:  # read to the end: the next reading of this text starts from the spans
        brackets.spans[key] = found_spans


def _read_spans(text: str, starts: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int, bool, Any]]:
    for i, end in starts:
        yield _read_span(text, i, end)


def _read_span(text: str, i: int, end: int) -> tuple[int, int, bool, Any]:
    """The span whose bracket opens at ``i`` and closes before ``end``: JSON read where it starts (and ends
    where its value ends), else what ``load_jsonish`` reads in it."""
    # Read in the span alone: a value read where its bracket opens ends where it closes, and the decoder's
    # error counts the lines of the text it was given up to where it failed, which in the whole text is every
    # line before the span (a reply of many spans that are not JSON was read quadratically).
    span = text[i:end]
    try:
        value, decoded = _EXACT_DECODER.raw_decode(span, 0)
    except (ValueError, RecursionError):
        ok, value = load_jsonish(span)
        return i, end, ok, value
    return i, i + decoded, True, value


class FirstSpans:
    """``next(loaded_spans(text[pos:], openers))`` for any number of positions ``pos`` of one text, read once.

    A suffix of the text reads its brackets as the text does (a reading only looks forward), so
    one ``Brackets`` serves every suffix, and the first bracket that closes at or after a position
    is found once for every position passed over on the way to it.
    """

    def __init__(self, text: str, openers: str = "{[") -> None:
        self.text = text
        self._opener = _opener(openers)
        self._brackets = brackets_of(text)
        #: Opener position -> the first opener at or after it whose bracket closes (-1: none).
        self._closing_from: dict[int, int] = {}
        self._read: dict[int, tuple[int, int, bool, Any]] = {}

    def first(self, pos: int) -> tuple[int, int, bool, Any] | None:
        """The first span of ``loaded_spans(text[pos:])``, in the text's positions, or None."""
        text = self.text
        passed: list[int] = []
        i = pos
        while True:
            found = self._opener.search(text, i)
            if found is None:
                start = -1
                break
            i = found.start()
            known = self._closing_from.get(i)
            if known is not None:
                start = known
                break
            passed.append(i)
            if self._brackets.end(i) >= 0:
                start = i
                break
            i += 1
        for position in passed:
            self._closing_from[position] = start
        if start < 0:
            return None
        read = self._read.get(start)
        if read is None:
            self._read[start] = read = _read_span(text, start, self._brackets.end(start))
        return read


def values_in(text: str, openers: str = "{[") -> Iterator[Any]:
    """Every JSON-like value found in the text, outermost first, left to right."""
    for _start, _end, ok, value in loaded_spans(text, openers):
        if ok:
            yield value


def python_value(node: ast.expr, source: str) -> Any:
    """A Python literal node's value; ``true``/``false``/``null`` and bare names are read as JSON's or text.

    A float keeps the digits written in ``source`` (a Decimal), not a binary float's.
    """
    if isinstance(node, ast.Name):
        lowered = node.id.lower()
        if lowered in ("true", "false"):
            return lowered == "true"
        if lowered in ("null", "none"):
            return None
        return node.id
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [python_value(item, source) for item in node.elts]
    if isinstance(node, ast.Dict):
        return {
            (python_value(k, source) if k is not None else ""): python_value(v, source)
            for k, v in zip(node.keys, node.values, strict=True)
        }
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = python_value(node.operand, source)
        if isinstance(inner, int | Decimal) and not isinstance(inner, bool):
            if isinstance(node.op, ast.UAdd):
                return inner
            # Decimal's minus makes -0.0 a plain zero; the sign is kept, as a float keeps it.
            return inner.copy_negate() if isinstance(inner, Decimal) and inner.is_zero() else -inner
    if isinstance(node, ast.Constant):
        if isinstance(node.value, float):
            written = ast.get_source_segment(source, node)
            try:
                return Decimal(written.replace("_", "")) if written else Decimal(repr(node.value))
            except ArithmeticError:
                return Decimal(repr(node.value))
        if isinstance(node.value, complex | bytes):
            return ast.get_source_segment(source, node) or repr(node.value)
        if isinstance(node.value, str) and _SURROGATE.search(node.value):
            return _joined_surrogates(node.value)
        return node.value
    return ast.unparse(node)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _joined_surrogates(text: str) -> str:
    """An escaped pair of surrogates (``"\\ud83d\\ude00"``) as the one character it writes, as JSON reads it
    (Python keeps the halves apart); a lone half stays."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
