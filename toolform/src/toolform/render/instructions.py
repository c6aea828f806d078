"""Each protocol's answer instructions: the text that ends the system prompt and tells the
model the reply syntax. They do not depend on the tools (as the reference answers them).
"""

from __future__ import annotations

INSTRUCTIONS: dict[str, str] = {
    "python_call": (
        "Answer with a single Python-style call and nothing else:\n"
        'tool_name(arg="value", count=3)\n'
        "For several calls, put them on separate lines."
    ),
    "python_list_call": (
        'Answer with a bracketed list of calls and nothing else:\n[tool_one(arg="value"), tool_two(count=3)]'
    ),
    "bfcl_python_list": (
        "You should only return the function calls in your response.\n"
        "\n"
        "If you decide to invoke any of the function(s), you MUST put it in the format "
        "of [func_name1(params_name1=params_value1, params_name2=params_value2...), "
        "func_name2(params)]\n"
        "You SHOULD NOT include any other text in the response."
    ),
    "cli_call": ("Answer with a single command line and nothing else:\ntool_name --arg value --other-arg 3"),
    "sql_call": ("Answer with a single SQL statement and nothing else:\nSELECT tool_name(arg => 'value', count => 3);"),
    "graphql_call": (
        'Answer with a GraphQL mutation and nothing else:\nmutation { toolName(arg: "value", count: 3) { result } }'
    ),
    "url_call": ("Answer with a single HTTP request line and nothing else:\nPOST /tool-name?arg=value&count=3"),
    "sexpr_call": ('Answer with a single s-expression and nothing else:\n(tool_name :arg "value" :count 3)'),
    "json_object": (
        "Respond with a single JSON object and nothing else:\n"
        '{"name": "<tool name>", "arguments": {"<arg>": <value>}}\n'
        "If more than one call is needed, respond with a JSON array of such objects."
    ),
    "json_array": (
        "Respond with a JSON array of calls and nothing else:\n"
        '[{"name": "<tool name>", "arguments": {"<arg>": <value>}}]\n'
        "Use an empty array [] if no tool should be called."
    ),
    "jsonl_call": (
        "Respond with one JSON object per line, nothing else:\n"
        '{"name": "<tool name>", "arguments": {...}}\n'
        "One line per call. Output no lines if no tool should be called."
    ),
    "code_block_json": (
        "Respond with a single fenced code block containing the call:\n"
        "```json\n"
        '{"name": "<tool name>", "arguments": {...}}\n'
        "```"
    ),
    "native": "",
    "nl_intent": (
        "Answer in plain English. Name the tool you would use and give a value for each "
        "piece of information it needs, written as `name: value`. Do not write JSON or "
        "code. If no tool fits, say so in one sentence."
    ),
    "nl_intent_structured": (
        "Answer with exactly one sentence in this frame and nothing else:\n"
        "Use <tool name> with <arg> = <value>, <arg> = <value>.\n"
        "If no tool fits, answer exactly: No tool is needed."
    ),
    "key_value_call": (
        "Answer with a key-value block and nothing else:\nTOOL: <tool name>\n<arg>: <value>\n<arg>: <value>"
    ),
    "yaml_call": ("Answer with YAML and nothing else:\nname: <tool name>\narguments:\n  <arg>: <value>"),
    "toml_call": (
        "Answer with TOML and nothing else. Repeat the block for each call:\n"
        "[[call]]\n"
        'name = "<tool name>"\n'
        "\n"
        "[call.arguments]\n"
        "<arg> = <value>"
    ),
    "pipe_call": ("Answer on one line and nothing else:\ntool_name|arg=value|arg=value\nUse one line per call."),
    "csv_call": (
        "Answer with one comma-separated line and nothing else:\n"
        "tool_name,value_for_first_argument,value_for_second_argument\n"
        "Give the values in the order the arguments are listed. Write an empty field for "
        "an optional argument you are skipping."
    ),
    "table_call": (
        "Answer with a markdown table and nothing else:\n"
        "| tool | argument | value |\n"
        "|---|---|---|\n"
        "| tool_name | arg | value |"
    ),
    "symbolic_call": (
        "Answer on one line and nothing else:\n"
        "tool_name ★arg§text_value ★count#7\n"
        "Put ★ before each argument name, then the type symbol (§ text, # whole number, "
        "% number, ¿ true/false, ≡ list, ¤ object) and then the value."
    ),
    "slot_fill_call": (
        "Copy the template for the tool you chose and replace every <...> placeholder "
        "with a real value. Delete any line for an optional argument you are not using. "
        "Output only the completed JSON."
    ),
    "two_step_call": (
        "Answer in exactly two lines and nothing else:\n"
        "line 1: the tool name only\n"
        "line 2: the arguments as a JSON object"
    ),
    "tool_call_tags": (
        "For each call, return a JSON object inside <tool_call> tags:\n"
        "<tool_call>\n"
        '{"name": "<tool name>", "arguments": {...}}\n'
        "</tool_call>\n"
        "Emit one <tool_call> block per call."
    ),
    "function_tags": (
        "For each call, write <function=TOOL_NAME> followed by one "
        "<parameter=NAME>VALUE</parameter> per argument, then </function>."
    ),
    "xml_call": (
        "Answer with XML in exactly this shape:\n"
        "<function_calls>\n"
        '  <invoke name="<tool name>">\n'
        '    <parameter name="<arg>">value</parameter>\n'
        "  </invoke>\n"
        "</function_calls>"
    ),
    "xml_generic_call": (
        "Answer with XML:\n"
        "<call>\n"
        "  <tool>tool_name</tool>\n"
        "  <args>\n"
        "    <arg_name>value</arg_name>\n"
        "  </args>\n"
        "</call>"
    ),
    "python_tag": ('Answer with a call after the python tag, like:\n<|python_tag|>tool_name(arg="value", count=3)'),
    "react": (
        "Answer in this format:\n"
        "Thought: <one sentence of reasoning>\n"
        "Action: <tool name>\n"
        "Action Input: <arguments as JSON>"
    ),
    "bracket_call": ('Write the call inline in square brackets, like:\n[tool_name(arg="value", count=3)]'),
}
