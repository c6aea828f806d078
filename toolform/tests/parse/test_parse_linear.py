"""Parsing is linear in the reply: every quadratic path of the old readings is read once, with the same answers.

The work is counted, never timed (benches/toolform/hostile.py times it): ``Brackets``
counts its searches, which must stay within a small multiple of the text's length
whatever is asked of it, on runs of brackets, quotes and escapes up to the
1,000,000-character limit. Each one-pass reading that replaced a regular expression
is held to that expression's answers on seeded texts of the pieces that make it slow.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from toolform.parse.literals import Brackets, FirstSpans, load_jsonish, loaded_spans
from toolform.parse.protocols.documents import _name_line_start
from toolform.parse.protocols.xml_calls import _FUNCTION_OPENING, _PARAM_OPENING, _PARAMETER, _closed_findall, _tags
from toolform.parse.reasoning import remove_reasoning

LIMIT = 1_000_000

#: Runs that made the old reading quadratic, each repeated to the limit.
HOSTILE_RUNS = ["{", "[", "(", '"', "'", "\\", '{"', '["', '"\\"{', "{[(", "'{", "({[\"'", '"\\\\', "it's {"]


def _run(unit: str, size: int = LIMIT) -> str:
    return (unit * (size // len(unit) + 1))[:size]


#: The runs taken to the limit itself; the others to a tenth of it (the count is as linear there, and the
#: suite stays short).
AT_THE_LIMIT = ("{", '{"')


@pytest.mark.parametrize("unit", HOSTILE_RUNS)
def test_asking_every_bracket_reads_the_text_a_few_times_at_most(unit: str) -> None:
    text = "{" + _run(unit, (LIMIT if unit in AT_THE_LIMIT else LIMIT // 10) - 1)
    brackets = Brackets(text)
    asked = 0
    for start, ch in enumerate(text):
        if ch in "{[(":
            brackets.end(start)
            asked += 1
    assert asked > 0
    # Each search starts at a resume position of its own; a position is a resume position of at most
    # three readings (outside, in a double-quoted and in a single-quoted string).
    assert brackets.steps <= 3 * len(text) + 3, (unit, brackets.steps)


def _walked_spans(text: str, openers: str) -> Iterator[tuple[int, int, bool, object]]:
    """What ``loaded_spans`` gives, read by asking a fresh ``Brackets`` at each opener (the slow reading)."""
    i = 0
    while i < len(text):
        if text[i] in openers:
            end = Brackets(text).end(i)
            if end > 0:
                yield (i, end, *load_jsonish(text[i:end]))
                i = end
                continue
        i += 1


def _texts(seed: int, count: int, pieces: list[str], most: int = 10) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(pieces) for _ in range(rng.randint(0, most)))


def test_the_first_span_after_any_position_is_that_of_the_rest_of_the_text() -> None:
    pieces = ['{"a": 1}', "{", "}", "[", "]", '"', "\\", "x", "\n", "{'a': 2}", "it's", '{"b": [1, 2,]}']
    compared = 0
    for text in _texts(13, 3000, pieces):
        first_spans = FirstSpans(text, "{")
        for pos in range(len(text) + 1):
            expected = next(iter(loaded_spans(text[pos:], "{")), None)
            found = first_spans.first(pos)
            shifted = None if found is None else (found[0] - pos, found[1] - pos, found[2], found[3])
            assert repr(shifted) == repr(expected), (text, pos)
            compared += expected is not None
    assert compared > 5000


def test_loaded_spans_skip_unclosed_brackets_as_the_slow_reading_does() -> None:
    pieces = ['{"a": 1}', "{", "[", "]", "}", '"', "'", "\\", "x", '[1, {"b": null}]', "(", ")"]
    for text in _texts(17, 4000, pieces, 14):
        assert repr(list(loaded_spans(text))) == repr(list(_walked_spans(text, "{["))), text


def test_loaded_spans_read_decoder_first_as_the_slow_reading_does(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolform.parse.literals as literals

    # Mostly JSON at the brackets, so that the decoder-first reading runs long before its first failure.
    pieces = ['{"a": 1}', "[1, 2]", " ", "x", '{"b": "}]\\"{"}', "\n", '[{"c": [null, true]}]', "{", '"', "}", "(1)"]
    bracketed = literals._bracketed_spans
    handed_on: list[str] = []

    def counted(text: str, openers: str, i: int) -> Iterator[tuple[int, int, bool, object]]:
        handed_on.append(text)
        return bracketed(text, openers, i)

    monkeypatch.setattr(literals, "_bracketed_spans", counted)
    texts = list(_texts(41, 4000, pieces, 14))
    for text in texts:
        assert repr(list(loaded_spans(text))) == repr(list(_walked_spans(text, "{["))), text
    # Both readings ran, each on many texts.
    assert 500 < len(handed_on) < len(texts) - 500


def test_a_failed_decoding_turns_the_decoder_first_reading_off(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolform.parse.literals as literals

    reads: list[tuple[int, int]] = []
    decoder = literals._EXACT_DECODER

    class Counting:
        def raw_decode(self, text: str, start: int) -> tuple[object, int]:
            reads.append((len(text), start))
            return decoder.raw_decode(text, start)

    monkeypatch.setattr(literals, "_EXACT_DECODER", Counting())
    # Each of the openers would read the whole run of numbers before failing at the "x".
    text = "[" * 2000 + "1," * 2000 + "x" + ' {"a": 1}'
    assert [span[:3] for span in loaded_spans(text)] == [(len(text) - 8, len(text), True)]
    # The whole text once, from its start; then the one span that closes, read alone.
    assert reads == [(len(text), 0), (8, 0)]


@pytest.mark.parametrize("unit", ["[x]\n", "{a}\n", "[1,]x\n", "{'a': b}\n", "(x)[y]"])
def test_spans_that_are_not_json_are_decoded_alone(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolform.parse.literals as literals

    # A failed decoding counts the lines of the text it was given up to where it failed: given the whole text
    # at each span, a reply of many spans that are not JSON was read once per span.
    given: list[int] = []
    decoder = literals._EXACT_DECODER

    class Counting:
        def raw_decode(self, text: str, start: int) -> tuple[object, int]:
            given.append(len(text))
            return decoder.raw_decode(text, start)

    monkeypatch.setattr(literals, "_EXACT_DECODER", Counting())
    text = _run(unit, LIMIT // 40)  # each span costs a Python literal's reading: the count is as linear here
    assert len(list(loaded_spans(text))) > len(text) // 10
    first_spans = FirstSpans(text, "{[")
    for position in range(0, len(text), 7):
        first_spans.first(position)
    assert sum(given) <= 3 * len(text) + 3, (unit, sum(given))


def test_a_bracket_closing_within_a_limit_is_one_closing_in_the_shorter_text() -> None:
    pieces = ["{", "}", "(", ")", "[", "]", '"', "'", "\\", "a", "it's"]
    for text in _texts(19, 3000, pieces, 12):
        whole = Brackets(text)
        for limit in range(len(text) + 1):
            short = Brackets(text[:limit])
            for start in range(limit):
                if text[start] in "{[(":
                    assert whole.end(start, limit) == short.end(start), (text, start, limit)


_FUNCTION = re.compile(r"<function\s*=\s*([^>\s]+)\s*>(.*?)(?:</function>|\Z)", re.DOTALL)
_PARAM_TAG = re.compile(r"<parameter\s*=\s*([^>\s]+)\s*>(.*?)</parameter>", re.DOTALL)
_NAME_LINE = re.compile(r"^\s*name\s*:", re.MULTILINE)


def test_tags_read_in_one_pass_as_their_expressions_read_them() -> None:
    pieces = ["<function=", "<function = ", "a", ">", " ", "</function>", "\n", "<parameter=", "</parameter>",
              "x y", "=", "<", "<parameter name='a'>"]  # fmt: skip
    for text in _texts(23, 20000, pieces):
        assert _tags(text, _FUNCTION_OPENING, "</function>", to_end=True) == _FUNCTION.findall(text), text
        assert _tags(text, _PARAM_OPENING, "</parameter>", to_end=False) == _PARAM_TAG.findall(text), text
        assert _closed_findall(_PARAMETER, text, "</parameter>") == _PARAMETER.findall(text), text


def test_the_name_line_is_found_where_the_expression_finds_it() -> None:
    pieces = ["name", ":", " ", "\n", "\t", "x", "name :", "\r", "\u2028", "\x1c", "\x85", "\u3000"]
    for text in _texts(29, 20000, pieces):
        match = _NAME_LINE.search(text)
        assert _name_line_start(text) == (match.start() if match is not None else -1), repr(text)


_CLOSED = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


def test_reasoning_removed_as_before() -> None:
    pieces = ["<think>", "</think>", "<THINK>", "</Think>", "a", "\n", "<", ">"]
    for text in _texts(31, 20000, pieces):
        stripped = _CLOSED.sub("", text)
        if "</think>" in stripped.lower():
            stripped = re.sub(r"\A.*?</think>", "", stripped, flags=re.DOTALL | re.IGNORECASE)
        if "<think>" in stripped.lower():
            stripped = re.sub(r"<think>.*\Z", "", stripped, flags=re.DOTALL | re.IGNORECASE)
        assert remove_reasoning(text) == (stripped, stripped != text), text


#: Each expression that read a run of spaces again from each of its positions, beside its one-pass form.
_SPACE_RUNS = [
    (r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", "json_calls", "_TOOL_CALL", re.DOTALL | re.IGNORECASE,
     ["<tool_call>", "</tool_call>", " ", "\n", "x", "<TOOL_CALL>", "\t", "y z"], "findall"),
    (r"★\s*([^\s§#%¿≡¤★]+)\s*([§#%¿≡¤])(.*?)(?=\s*★|\s*$)", "line_calls", "_SYMBOLIC_ARG", re.DOTALL,
     ["★", "a", "§", "#", " ", "\n", "x y", "★b#", "\t"], "findall"),
    (r"<(?:tool|name|tool_name)>\s*(.*?)\s*</(?:tool|name|tool_name)>", "xml_calls", "_TOOL", re.DOTALL,
     ["<tool>", "</tool>", "<name>", "</name>", " ", "\n", "x", "<tool_name>", "</tool_name>"], "search"),
    (r"^\s*([A-Za-z_][\w.\-]*)\s*:\s*(.*?)\s*$", "line_calls", "_KV_LINE", 0,
     ["a", ":", " ", "\t", "x y", "b.c", "\u3000", "\x0b", "-", "é"], "search"),
    (r"\bUse\s+`?([A-Za-z_][\w.\-]*)`?(?:\s+with\s+(.*?))?\s*(?:\.\s*$|\.\s+|$)", "natural", "_FRAME",
     re.MULTILINE | re.DOTALL, ["Use ", "Use x", " with ", "a", " ", "\n", ".", ". ", "b = 1", ",", "`", "\t",
                                "\u3000", "x y"], "findall"),
]  # fmt: skip


@pytest.mark.parametrize(("pattern", "module", "name", "flags", "pieces", "how"), _SPACE_RUNS)
def test_runs_of_spaces_read_once_as_the_expression_read_them(
    pattern: str, module: str, name: str, flags: int, pieces: list[str], how: str
) -> None:
    import importlib

    old = re.compile(pattern, flags)
    new: re.Pattern[str] = getattr(importlib.import_module(f"toolform.parse.protocols.{module}"), name)
    for text in _texts(37, 20000, pieces):
        if how == "findall":
            assert new.findall(text) == old.findall(text), repr(text)
        else:
            a, b = old.search(text), new.search(text)
            assert (b and (b.span(), b.groups())) == (a and (a.span(), a.groups())), repr(text)


_ACTION = re.compile(r"^[^\S\n]*Action\s*:\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)


def test_react_actions_read_once_as_the_expression_read_them() -> None:
    from toolform.parse.protocols.json_calls import _actions

    pieces = ["Action:", "ACTION :", " ", "\n", "x", "y z", "\t", "\r", "\x0b", "\u2028", "\x1c", "\u3000",
              "Action Input:", "\n\n", "`", ":"]  # fmt: skip
    matched = 0
    for text in _texts(41, 30000, pieces, 12):
        expected = [(match.group(1), match.end()) for match in _ACTION.finditer(text)]
        assert list(_actions(text)) == expected, repr(text)
        matched += bool(expected)
    assert matched > 5000


_CALL_START = re.compile(r"(?<![\w.])([A-Za-z_][\w]*(?:[.\-][A-Za-z_]\w*)*)\(")


def test_call_names_read_once_as_the_expression_read_them() -> None:
    from toolform.parse.protocols.python_calls import _call_start

    pieces = ["a", "b1", "-", ".", "(", "1", "_", " ", "é", "f(", "x.y", "-(", ".(", "\n"]
    found = 0
    for text in _texts(53, 20000, pieces, 12):
        for position in range(len(text) + 1):
            match = _CALL_START.search(text, position)
            expected = None if match is None else (match.group(1), match.end())
            assert _call_start(text, position) == expected, (repr(text), position)
            found += match is not None
    assert found > 10000


#: The pair expression of a frame before its one-pass reading, and the form it had before that (the same
#: answers, a name tried from each letter of its run).
_PAIR_EXPRESSIONS = [
    re.compile(r"(?<![A-Za-z_])([A-Za-z_][\w.\-]*)\s*=\s*(\"[^\"]*\"|'[^']*'|(?:\s*+[^,\s])*?)\s*"
               r"(?=,\s*[A-Za-z_][\w.\-]*\s*=|$)", re.DOTALL),
    re.compile(r"([A-Za-z_][\w.\-]*)\s*=\s*(\"[^\"]*\"|'[^']*'|[^,]*?)\s*(?=,\s*[A-Za-z_][\w.\-]*\s*=|$)",
               re.DOTALL),
]  # fmt: skip


def test_frame_pairs_read_once_as_the_expression_read_them() -> None:
    from toolform.parse.protocols.natural import _pairs

    pieces = ["a", "=", " ", ",", "\n", '"', "'", "b", "x y", "1", "\t", ", c=", "\u2028", ".", "-", "é", "_",
              "b1", ":", "a=", "=\"x\"", "='y'", ", ", "\u3000", "\x1c", "\n\n"]  # fmt: skip
    paired = 0
    for text in _texts(59, 40000, pieces, 14):
        expected = _PAIR_EXPRESSIONS[0].findall(text)
        assert _pairs(text) == expected == _PAIR_EXPRESSIONS[1].findall(text), repr(text)
        paired += bool(expected)
    assert paired > 10000


class _Counted:
    """A pattern that adds up the characters each search passes over (to its match's end, or to the end of
    the text when there is none) and each anchored match reads (its length, one when it fails)."""

    def __init__(self, pattern: re.Pattern[str], read: list[int]) -> None:
        self.pattern, self.read = pattern, read

    def search(self, text: str, position: int = 0) -> re.Match[str] | None:
        found = self.pattern.search(text, position)
        self.read.append((found.end() if found is not None else len(text)) - position + 1)
        return found

    def match(self, text: str, position: int = 0) -> re.Match[str] | None:
        found = self.pattern.match(text, position)
        self.read.append((found.end() - position if found is not None else 0) + 1)
        return found


#: Runs that made the pair expression quadratic: names with no ``=``, ``=`` before a comma that starts no
#: pair, spaces after ``=``, quotes that close nowhere useful.
PAIR_RUNS = ["b1", "a=", "a= ", "b.", "a=,", "a='", 'a="x" ', "a = 1 ", "=", ", a", ", a=", "x y", "a=' ,"]


@pytest.mark.parametrize("unit", PAIR_RUNS)
def test_frame_pairs_read_each_character_a_few_times_at_most(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolform.parse.protocols.natural as natural

    read: list[int] = []
    for name in ("_HEAD", "_PAIR_COMMA", "_NOT_SPACE", "_VALUE_RUN"):
        monkeypatch.setattr(natural, name, _Counted(getattr(natural, name), read))
    monkeypatch.setattr(natural, "_STOPS", {k: _Counted(v, read) for k, v in natural._STOPS.items()})
    for text in (_run(unit, LIMIT // 10), _run(unit, LIMIT // 10) + ",", _run(unit, LIMIT // 10) + "\n,x"):
        read.clear()
        natural._pairs(text)
        assert 0 < sum(read) <= 6 * len(text) + 6, (unit, sum(read))


_OPENING_SPLITS = re.compile(r"```[ \t]*[\w+-]*[ \t]*\n?(.*?)```", re.DOTALL)


def test_fences_read_as_the_expression_with_every_split_of_the_opening_read_them() -> None:
    from toolform.parse.fences import fenced_bodies, unfence

    pieces = ["```", "`", " ", "\t", "\n", "py", "x y", "+", "-", "json\n", "``", "a`b", "\r"]
    fenced = 0
    for text in _texts(61, 20000, pieces, 12):
        expected = [match.group(1) for match in _OPENING_SPLITS.finditer(text)]
        assert fenced_bodies(text) == expected, repr(text)
        assert unfence(text) == _OPENING_SPLITS.sub(lambda match: match.group(1), text), repr(text)
        fenced += bool(expected)
    assert fenced > 1500


_ARGS = re.compile(r"<(args|arguments|parameters)>(.*?)</\1>", re.DOTALL)
_CHILD = re.compile(r"<([A-Za-z_][\w.\-]*)>(.*?)</\1>", re.DOTALL)


def test_argument_tags_read_as_their_expressions_read_them() -> None:
    from toolform.parse.protocols.xml_calls import _ARGS_OPENING, _CHILD_OPENING, _closed_tags

    pieces = ["<a>", "</a>", "<b.c>", "</b.c>", "<args>", "</args>", "<arguments>", "</arguments>", "x", " ", "<",
              ">", "</", "\n", "<parameters>", "</parameters>", "<a-1>", "</a-1>", "<é>", "</a >"]  # fmt: skip
    closed = 0
    for text in _texts(67, 20000, pieces, 12):
        expected = _CHILD.findall(text)
        assert _closed_tags(text, _CHILD_OPENING) == expected, repr(text)
        args = _ARGS.search(text)
        assert _closed_tags(text, _ARGS_OPENING, first_only=True) == ([args.group(1, 2)] if args else []), repr(text)
        closed += bool(expected) + bool(args)
    assert closed > 5000


@pytest.mark.parametrize("unit", ["<a>", "<args>", "<a><b>", "<a></b>", "<a-", "</a><a>"])
def test_argument_tags_search_a_few_times_per_character_at_most(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolform.parse.protocols.xml_calls as xml_calls

    read: list[int] = []
    text = _run(unit, LIMIT // 10)
    for opening in (_Counted(xml_calls._CHILD_OPENING, read), _Counted(xml_calls._ARGS_OPENING, read)):
        read.clear()
        xml_calls._closed_tags(text, opening)  # type: ignore[arg-type]
        assert 0 < sum(read) <= 3 * len(text) + 3, (unit, sum(read))


_SPLIT_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def test_numbers_accepted_as_the_expression_with_every_split_of_the_digits_accepted_them() -> None:
    from toolform.parse.text_values import _NUMBER

    pieces = ["1", "23", ".", "e", "E", "+", "-", "x", " ", "0", "٣", "e5", ".5"]
    accepted = 0
    for text in _texts(71, 30000, pieces, 8):
        expected = _SPLIT_NUMBER.fullmatch(text) is not None
        assert (_NUMBER.fullmatch(text) is not None) == expected, repr(text)
        accepted += expected
    assert accepted > 2000


#: The two expressions the intent protocol read a parameter's value with, before its one-pass reading.
_INTENT_VALUE = r"(\"[^\"]*\"|'[^']*'|[^,;)\n]*)"
_SAID = r"(.+?)(?=\s+and\s|,|\.\s|\.?\s*$)"


def _paired(text: str, name: str) -> str | None:
    pair = re.search(rf"(?<![\w.]){re.escape(name)}`?\s*[:=]\s*{_INTENT_VALUE}", text, re.IGNORECASE)
    return None if pair is None else pair.group(1)


def _said(text: str, name: str) -> str | None:
    escaped = re.escape(name)
    said = re.search(rf"\bwith\s+(?:the\s+)?{escaped}\s+{_SAID}|(?<![\w.]){escaped}\s+is\s+{_SAID}", text)
    return None if said is None else (said.group(1) or said.group(2))


#: Names as hostile as a tool set may give them: empty, all spaces, spaces at either end, "and", a comma, a
#: full stop, a word the expression itself reads.
_INTENT_NAMES = ["city", "", " ", "  ", " city", "city ", "a and b", "c,d", "e.f", "the", "is", "with", "\n", " x ",
                 "the city", "and", ". ", "`", "CITY", "ſ"]  # fmt: skip


#: Pieces of the replies the two readings are compared on, one set weighed towards each expression.
_SAID_PIECES = ["with ", " ", "\n", "the ", " is ", " and ", ",", ".", ". ", "x", "\t", "\u3000", " \n", "  ", "and\n",
                " and\t", "wither", "\u2028", "\x1c", "y z"]  # fmt: skip
_PAIR_PIECES = ["`", " ", "\n", ":", "=", " : ", "x", '"a', "'b'", ",", ";", ")", "\t", ".", "City", "\u3000", "_", "é"]


@pytest.mark.parametrize("pieces", [_SAID_PIECES, _PAIR_PIECES])
def test_intent_values_read_as_their_expressions_read_them(pieces: list[str]) -> None:
    from toolform.parse.protocols.natural import _IntentText

    rng = random.Random(73)
    said = paired = 0
    for _ in range(8000):
        name = rng.choice(_INTENT_NAMES)
        text = "".join(rng.choice([*pieces, name, name, name]) for _ in range(rng.randint(0, 16)))
        intent = _IntentText(text)
        expected_pair, expected_said = _paired(text, name), _said(text, name)
        assert intent.paired(name) == expected_pair, (repr(text), repr(name))
        assert intent.said(name) == expected_said, (repr(text), repr(name))
        paired += expected_pair is not None
        said += expected_said is not None
    assert (said if pieces is _SAID_PIECES else paired) > 400, (said, paired)


#: Runs that made the intent expressions quadratic: a value's run of spaces read again from each of its
#: positions, each "with NAME" reading its value to the end of a line with no stop, names that end in spaces.
INTENT_RUNS = [
    ("with city a", " ", "b\nx", "city"), ("", "with city x ", "\ny", "city"), ("city is a", " \t", "\nand", "city"),
    ("", "city is ", "", "city"), ("with", " ", "x", " "), ("", " ", "x", ""), ("", "city ", "", "city "),
    ("with the city", " ", "x\n", "city"), ("", "\n", "x", ""), ("", "with ", "", ""),
]  # fmt: skip


@pytest.mark.parametrize(("head", "unit", "tail", "name"), INTENT_RUNS)
def test_intent_values_look_each_position_up_a_few_times_at_most(
    head: str, unit: str, tail: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolform.parse.protocols import natural

    looked: list[int] = []
    for method in ("_space_end", "_stop", "_line_end"):
        original = getattr(natural._IntentText, method)

        def counted(self: object, position: int, original: object = original) -> int:
            looked.append(position)
            return original(self, position)  # type: ignore[operator,no-any-return]

        monkeypatch.setattr(natural._IntentText, method, counted)
    text = head + _run(unit, LIMIT // 10) + tail
    intent = natural._IntentText(text)
    intent.paired(name)
    intent.said(name)
    # Each lookup is a binary search over spans read once; a position is looked up a few times at most.
    assert 0 < len(looked) <= 6 * len(text) + 6, (unit, len(looked))
