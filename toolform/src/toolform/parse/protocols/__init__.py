"""Each protocol's strict parser, and the order in which the lenient fallback tries other syntaxes."""

from __future__ import annotations

from toolform.parse.protocols.base import Context, Found, Parser
from toolform.parse.protocols.documents import parse_toml, parse_yaml
from toolform.parse.protocols.json_calls import (
    parse_first_json,
    parse_json_object,
    parse_jsonl,
    parse_react,
    parse_tool_call_tags,
    parse_two_step,
)
from toolform.parse.protocols.line_calls import (
    parse_cli,
    parse_csv,
    parse_key_value,
    parse_pipe,
    parse_symbolic,
    parse_table,
    parse_url,
)
from toolform.parse.protocols.natural import parse_nl_intent, parse_nl_structured
from toolform.parse.protocols.python_calls import parse_python, parse_python_tag
from toolform.parse.protocols.query_calls import parse_graphql, parse_sexpr, parse_sql
from toolform.parse.protocols.xml_calls import parse_function_tags, parse_xml_call, parse_xml_generic

#: The strict parser of each of the 31 registered protocols.
PARSERS: dict[str, Parser] = {
    "python_call": parse_python,
    "python_list_call": parse_python,
    "bfcl_python_list": parse_python,
    "cli_call": parse_cli,
    "sql_call": parse_sql,
    "graphql_call": parse_graphql,
    "url_call": parse_url,
    "sexpr_call": parse_sexpr,
    "json_object": parse_json_object,
    "json_array": parse_first_json,
    "jsonl_call": parse_jsonl,
    "code_block_json": parse_json_object,
    "native": parse_first_json,
    "nl_intent": parse_nl_intent,
    "nl_intent_structured": parse_nl_structured,
    "key_value_call": parse_key_value,
    "yaml_call": parse_yaml,
    "toml_call": parse_toml,
    "pipe_call": parse_pipe,
    "csv_call": parse_csv,
    "table_call": parse_table,
    "symbolic_call": parse_symbolic,
    "slot_fill_call": parse_json_object,
    "two_step_call": parse_two_step,
    "tool_call_tags": parse_tool_call_tags,
    "function_tags": parse_function_tags,
    "xml_call": parse_xml_call,
    "xml_generic_call": parse_xml_generic,
    "python_tag": parse_python_tag,
    "react": parse_react,
    "bracket_call": parse_python,
}

#: The syntaxes the lenient fallback tries, most specific first; the first that finds a call wins.
#: JSON comes first and is named ``native`` (the provider's own call shape).
LENIENT_ORDER: tuple[str, ...] = (
    "native",
    "xml_call",
    "function_tags",
    "xml_generic_call",
    "python_tag",
    "sql_call",
    "graphql_call",
    "url_call",
    "react",
    "key_value_call",
    "toml_call",
    "yaml_call",
    "cli_call",
    "symbolic_call",
    "table_call",
    "pipe_call",
    "csv_call",
    "sexpr_call",
    "nl_intent_structured",
)

#: Protocols whose calls are written with the tool's own name once it is resolved (their syntax has no
#: quoting to keep a name as written: a command, a key, a cell, a URL path, a GraphQL field).
NAMES_RESOLVED = frozenset(
    {
        "cli_call",
        "csv_call",
        "key_value_call",
        "nl_intent",
        "nl_intent_structured",
        "pipe_call",
        "symbolic_call",
        "table_call",
        "toml_call",
        "two_step_call",
        "url_call",
        "graphql_call",
    }
)

#: Protocols answered in words, whose no-call sentence is their own syntax.
NATURAL = frozenset({"nl_intent", "nl_intent_structured"})

__all__ = ["LENIENT_ORDER", "NAMES_RESOLVED", "NATURAL", "PARSERS", "Context", "Found", "Parser"]
