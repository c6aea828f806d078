"""The call loop: a model endpoint asked to call tools, its replies parsed, the calls run, the results handed back.

>>> endpoint = OpenAIChat(EndpointConfig(model="Qwen/Qwen3-8B", base_url="http://127.0.0.1:8000/v1", thinking=False))
>>> result = run_call(toolset, "Forecast for Denver", endpoint, format_id="xml_schema")   # a dry run
>>> result.stopped, result.steps[0].parsed["calls"]

With ``executor=PythonTools(...)`` or ``executor=FlowTools(listing, manifest_dir)``
each accepted call is run and its outcome handed back until the model answers
without a call or ``max_steps`` replies were read; ``result.to_dict()`` is
the whole loop as data.
"""

from toolform.call.cost import Prices, prices
from toolform.call.endpoint import (
    ANTHROPIC_BASE_URL,
    OPENAI_BASE_URL,
    AnthropicChat,
    ChatEndpoint,
    ChatReply,
    EndpointConfig,
    EndpointFailure,
    OpenAIChat,
)
from toolform.call.executed import ExecutedCall
from toolform.call.executor import Executor, ExecutorError
from toolform.call.flow_tools import FlowHostError, FlowTools, find_flow_host
from toolform.call.loop import TOOL_RESULT_HEADER, first_prompt_tokens, run_call, tool_result_turn
from toolform.call.python_tools import PythonTools, functions_of
from toolform.call.replies import Parsed, ReplyParser, flow_parser, sdk_parser
from toolform.call.result import CallResult, CallStep, Stopped
from toolform.call.thinking import model_family, thinking_setting

__all__ = [
    "ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
    "TOOL_RESULT_HEADER",
    "AnthropicChat",
    "CallResult",
    "CallStep",
    "ChatEndpoint",
    "ChatReply",
    "EndpointConfig",
    "EndpointFailure",
    "ExecutedCall",
    "Executor",
    "ExecutorError",
    "FlowHostError",
    "FlowTools",
    "OpenAIChat",
    "Parsed",
    "Prices",
    "PythonTools",
    "ReplyParser",
    "Stopped",
    "find_flow_host",
    "first_prompt_tokens",
    "functions_of",
    "model_family",
    "prices",
    "run_call",
    "flow_parser",
    "sdk_parser",
    "thinking_setting",
    "tool_result_turn",
]
