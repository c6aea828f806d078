"""The XML protocols: xml_call (``<invoke name>``/``<parameter name>``), xml_generic_call
(``<call><tool>``/``<args>`` children) and function_tags (``<function=NAME>``). Parameter values
are text, converted by the tool's schema."""

from __future__ import annotations

import html
import re

from toolform.parse.literals import loaded_spans
from toolform.parse.protocols.base import Context, Found, as_arguments, found
from toolform.parse.result import RawCall

_INVOKE = re.compile(r"<invoke\s+name\s*=\s*[\"']([^\"']*)[\"']\s*>(.*?)(?:</invoke>|\Z)", re.DOTALL)
_PARAMETER = re.compile(r"<parameter\s+name\s*=\s*[\"']([^\"']*)[\"']\s*>(.*?)</parameter>", re.DOTALL)


def _text(value: str) -> str:
    return html.unescape(value.strip())


def parse_xml_call(text: str, context: Context) -> Found | None:
    calls = []
    for name, body in _INVOKE.findall(text):
        texts = {key: _text(value) for key, value in _PARAMETER.findall(body)}
        calls.append(context.text_call(name.strip(), texts))
    return found(calls)


_CALL = re.compile(r"<call>(.*?)(?:</call>|\Z)", re.DOTALL)
_TOOL = re.compile(r"<(?:tool|name|tool_name)>\s*(.*?)\s*</(?:tool|name|tool_name)>", re.DOTALL)
_ARGS = re.compile(r"<(args|arguments|parameters)>(.*?)</\1>", re.DOTALL)
_CHILD = re.compile(r"<([A-Za-z_][\w.\-]*)>(.*?)</\1>", re.DOTALL)


def parse_xml_generic(text: str, context: Context) -> Found | None:
    calls = []
    for body in _CALL.findall(text):
        tool = _TOOL.search(body)
        if tool is None:
            continue
        args = _ARGS.search(body)
        texts = {key: _text(value) for key, value in _CHILD.findall(args.group(2))} if args else {}
        calls.append(context.text_call(_text(tool.group(1)), texts))
    return found(calls)


_FUNCTION = re.compile(r"<function\s*=\s*([^>\s]+)\s*>(.*?)(?:</function>|\Z)", re.DOTALL)
_PARAM_TAG = re.compile(r"<parameter\s*=\s*([^>\s]+)\s*>(.*?)</parameter>", re.DOTALL)


def parse_function_tags(text: str, context: Context) -> Found | None:
    calls: list[RawCall] = []
    for name, body in _FUNCTION.findall(text):
        name = name.strip("\"'")
        params = _PARAM_TAG.findall(body)
        if params:
            calls.append(context.text_call(name, {k.strip("\"'"): _text(v) for k, v in params}))
            continue
        arguments: dict[str, object] = {}
        for _start, _end, ok, value in loaded_spans(body, "{"):
            parsed = as_arguments(value) if ok else None
            if parsed is not None:
                arguments = dict(parsed)
            break
        calls.append(RawCall(name, arguments))
    return found(calls)
