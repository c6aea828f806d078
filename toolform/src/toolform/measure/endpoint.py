"""The model endpoint a measurement calls: OpenAI-compatible chat-completions over an async HTTP client.

Transport failures (a refused or dropped connection, a timeout, a 5xx or 429
answer, a body that is not a chat completion) are retried after 1, 2 and 4
seconds; each retry is counted, and a request that fails four times is an
error of its format, never a wrong answer.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any

import httpx2

from toolform.errors import EndpointError

#: Seconds before each retry of a failed request (so four attempts in all).
RETRY_DELAYS: tuple[float, ...] = (1.0, 2.0, 4.0)
#: Seconds one attempt may take, connection to last byte.
REQUEST_TIMEOUT_S = 120.0
#: Models whose chat template has a thinking switch the study turned off (Qwen 3 and Qwen 3.5).
_THINKING_OFF = re.compile(r"qwen[-_ ]?3(\.5)?(\b|[-_/])", re.IGNORECASE)


def default_thinking(model: str) -> bool | None:
    """The thinking switch when the job leaves it unset: off for Qwen 3 and 3.5, as in the study; else not sent."""
    return False if _THINKING_OFF.search(model.rsplit("/", 1)[-1]) else None


class TransportFailure(Exception):
    """One request failed after its retries; ``retries`` says how many were made."""

    def __init__(self, message: str, retries: int) -> None:
        super().__init__(message)
        self.retries = retries


@dataclass(frozen=True)
class Completion:
    """One answer: the text, the endpoint's token usage (None when it reported none), cut off, retries used."""

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    truncated: bool
    retries: int


class ChatEndpoint:
    """An OpenAI-compatible endpoint at ``base_url`` (``.../v1``) serving ``model``; use it as an async context."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        max_tokens: int = 512,
        thinking: bool | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        concurrency: int = 4,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.max_tokens = max_tokens
        self.thinking = thinking
        self.retry_delays = retry_delays
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        limits = httpx2.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        self._client = httpx2.AsyncClient(headers=headers, timeout=REQUEST_TIMEOUT_S, limits=limits)

    async def __aenter__(self) -> ChatEndpoint:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self._client.aclose()

    async def check(self) -> None:
        """Raise EndpointError unless the endpoint answers ``GET /models``: a wrong URL fails once, not per request."""
        try:
            answer = await self._client.get(f"{self.base_url}/models", timeout=30.0)
        except httpx2.HTTPError as error:
            raise EndpointError(
                f"{self.base_url} did not answer GET /models ({type(error).__name__}); check the base URL and that "
                "the server is up"
            ) from None
        if answer.status_code >= 400:
            raise EndpointError(
                f"{self.base_url} answered GET /models with {answer.status_code}; check the base URL and the key"
            )

    def body(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        """The chat-completions request body for ``messages``: greedy, bounded, the thinking switch if set."""
        body: dict[str, Any] = {
            "model": self.model, "messages": messages, "max_tokens": self.max_tokens, "temperature": 0.0
        }
        if self.thinking is not None:
            body["chat_template_kwargs"] = {"enable_thinking": self.thinking}
        return body

    async def complete(self, messages: list[dict[str, str]]) -> Completion:
        """One chat completion, retried on transport failures; raises TransportFailure when every attempt failed."""
        body = self.body(messages)
        retries = 0
        while True:
            try:
                return self._completion(await self._client.post(f"{self.base_url}/chat/completions", json=body),
                                        retries)
            except _Retryable as failure:
                problem = str(failure)
            except httpx2.HTTPError as error:
                problem = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            if retries >= len(self.retry_delays):
                raise TransportFailure(f"{problem} (after {retries} retries)", retries)
            await asyncio.sleep(self.retry_delays[retries])
            retries += 1

    @staticmethod
    def _completion(answer: httpx2.Response, retries: int) -> Completion:
        if answer.status_code >= 500 or answer.status_code == 429:
            raise _Retryable(f"the endpoint answered {answer.status_code}")
        if answer.status_code >= 400:
            raise TransportFailure(f"the endpoint refused the request with {answer.status_code}: "
                                   f"{answer.text[:200]}", retries)
        try:
            document = json.loads(answer.content)
            choice = document["choices"][0]
            text = choice["message"].get("content") or ""
            usage = document.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise _Retryable("the endpoint's answer is not a chat completion") from None
        if not isinstance(text, str):
            raise _Retryable("the endpoint's answer has no text content")
        return Completion(
            text=text,
            prompt_tokens=_count(usage.get("prompt_tokens")),
            completion_tokens=_count(usage.get("completion_tokens")),
            truncated=choice.get("finish_reason") == "length",
            retries=retries,
        )


class _Retryable(Exception):
    """A failure worth another attempt."""


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
