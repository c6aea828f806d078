"""The model endpoint the call loop talks to: OpenAI chat completions or the Anthropic Messages API.

Both take the same conversation (a system prompt, then user and assistant
turns) and give one reply's text and token usage. Requests go out over the
standard library's HTTP client, one at a time: the loop waits for each reply
before the next step, so nothing is gained by an async client here.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Protocol

#: Where each API lives when no base URL is given.
OPENAI_BASE_URL = "https://api.openai.com/v1"
ANTHROPIC_BASE_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
ANTHROPIC_KEY_ENV = "ANTHROPIC_API_KEY"
#: Seconds a request may take before the loop stops with an error.
REQUEST_TIMEOUT_S = 300.0


class EndpointFailure(Exception):
    """The endpoint could not be reached, refused the request, or answered something that is not a reply."""


@dataclass(frozen=True)
class ChatReply:
    """One reply: its text and the usage the endpoint reported (zero where it reported none)."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    latency_s: float


class ChatEndpoint(Protocol):
    """What the loop needs of an endpoint: one reply to a conversation."""

    def reply(self, system: str, messages: list[dict[str, str]]) -> ChatReply: ...


@dataclass(frozen=True)
class EndpointConfig:
    """The request's fixed parts: model, token limit, key, and the chat template's thinking switch (None: not sent)."""

    model: str
    base_url: str
    api_key: str | None = None
    max_tokens: int = 1024
    thinking: bool | None = None
    timeout_s: float = REQUEST_TIMEOUT_S


def _post(url: str, headers: dict[str, str], body: dict[str, Any], timeout_s: float) -> tuple[dict[str, Any], float]:
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(
        url, data=data, method="POST", headers={"Content-Type": "application/json", **headers}
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            raw = response.read()
    except urllib.error.HTTPError as error:
        raise EndpointFailure(f"the endpoint refused the request (HTTP {error.code})") from None
    except (urllib.error.URLError, OSError) as error:
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        raise EndpointFailure(f"cannot reach {url}: {reason}") from None
    latency = time.perf_counter() - started
    try:
        answer = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise EndpointFailure(f"the endpoint's answer is not JSON ({url})") from None
    if not isinstance(answer, dict):
        raise EndpointFailure(f"the endpoint's answer is not a JSON object ({url})")
    return answer, latency


def _count(usage: object, *keys: str) -> int:
    """A usage count at ``keys`` (nested), zero when absent; a count is a non-negative integer or nothing."""
    value: object = usage
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


class OpenAIChat:
    """An OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, llama.cpp's server, ...)."""

    def __init__(self, config: EndpointConfig) -> None:
        self.config = config
        self.url = config.base_url.rstrip("/") + "/chat/completions"

    def reply(self, system: str, messages: list[dict[str, str]]) -> ChatReply:
        config = self.config
        body: dict[str, Any] = {
            "model": config.model,
            "messages": [{"role": "system", "content": system}, *messages],
            "max_tokens": config.max_tokens,
            "temperature": 0.0,
        }
        if config.thinking is not None:
            body["chat_template_kwargs"] = {"enable_thinking": config.thinking}
        headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        answer, latency = _post(self.url, headers, body, config.timeout_s)
        choices = answer.get("choices")
        first = choices[0] if isinstance(choices, list) and choices else None
        message = first.get("message") if isinstance(first, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if content is not None and not isinstance(content, str):
            raise EndpointFailure("the endpoint's reply has no text content (choices[0].message.content)")
        if message is None:
            raise EndpointFailure("the endpoint's answer has no reply (choices[0].message)")
        usage = answer.get("usage")
        return ChatReply(
            text=content or "",
            prompt_tokens=_count(usage, "prompt_tokens"),
            completion_tokens=_count(usage, "completion_tokens"),
            cached_tokens=_count(usage, "prompt_tokens_details", "cached_tokens"),
            latency_s=latency,
        )


class AnthropicChat:
    """The Anthropic Messages API: the system prompt beside the messages, the key in ``x-api-key``."""

    def __init__(self, config: EndpointConfig) -> None:
        if not config.api_key:
            raise EndpointFailure(f"no Anthropic API key: pass api_key or set {ANTHROPIC_KEY_ENV}")
        self.config = config
        self.url = config.base_url.rstrip("/") + "/v1/messages"

    def reply(self, system: str, messages: list[dict[str, str]]) -> ChatReply:
        config = self.config
        body: dict[str, Any] = {
            "model": config.model,
            "system": system,
            "messages": messages,
            "max_tokens": config.max_tokens,
            "temperature": 0.0,
        }
        headers = {"x-api-key": config.api_key or "", "anthropic-version": ANTHROPIC_VERSION}
        answer, latency = _post(self.url, headers, body, config.timeout_s)
        blocks = answer.get("content")
        if not isinstance(blocks, list):
            raise EndpointFailure("the endpoint's answer has no content blocks (content)")
        # Text blocks make the reply; thinking and other blocks are not part of the answer.
        text = "".join(
            b["text"]
            for b in blocks
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        )
        usage = answer.get("usage")
        return ChatReply(
            text=text,
            prompt_tokens=_count(usage, "input_tokens") + _count(usage, "cache_read_input_tokens"),
            completion_tokens=_count(usage, "output_tokens"),
            cached_tokens=_count(usage, "cache_read_input_tokens"),
            latency_s=latency,
        )
