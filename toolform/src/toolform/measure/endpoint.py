"""The model endpoint a measurement calls: OpenAI-compatible chat-completions over an async HTTP client.

Transport failures (a refused or dropped connection, a timeout, a 5xx or 429
answer, a body that is not a chat completion) are retried after 1, 2 and 4
seconds; each retry is counted, and a request that fails four times is an
error of its format, never a wrong answer.

Every attempt has a deadline from connection to last byte (not per read: an
endpoint trickling a byte a second is cut off as surely as a silent one), every
request one across all its attempts, and a completion is read as it streams in
and refused past a size. What the endpoint answers and every address are shown
through a ``Redactor``: the key, a URL's user name, password and query values
never reach a job's error, a log line or a stored file.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx2

from toolform.errors import EndpointError

#: Seconds before each retry of a failed request (so four attempts in all).
RETRY_DELAYS: tuple[float, ...] = (1.0, 2.0, 4.0)
#: Seconds one attempt may take, connection to last byte.
REQUEST_TIMEOUT_S = 120.0
#: Seconds one request may take over all its attempts and the waits between them.
REQUEST_DEADLINE_S = 300.0
#: The most bytes one completion may hold; a larger answer fails the request (it is not retried).
MAX_COMPLETION_BYTES = 4_000_000
#: Characters of an endpoint's refusal quoted in the error (after redaction).
QUOTED_CHARS = 200
#: Models whose chat template has a thinking switch the study turned off (Qwen 3 and Qwen 3.5).
_THINKING_OFF = re.compile(r"qwen[-_ ]?3(\.5)?(\b|[-_/])", re.IGNORECASE)


def default_thinking(model: str) -> bool | None:
    """The thinking switch when the job leaves it unset: off for Qwen 3 and 3.5, as in the study; else not sent."""
    return False if _THINKING_OFF.search(model.rsplit("/", 1)[-1]) else None


REDACTED = "[redacted]"
#: A credential as a header or a query parameter writes it, whatever the endpoint echoes.
_CREDENTIAL = re.compile(
    r"(?i)(bearer\s+|basic\s+|(?:api[_-]?key|key|token|access[_-]?token|secret|password|authorization)"
    r"[\"']?\s*[:=]\s*[\"']?)([^\s\"'&,;}]+)"
)


class Redactor:
    """Removes the secrets of one endpoint from any text shown about it.

    The secrets are the key sent, and the user name, password and query values of
    the base URL; besides them, anything written as a credential (``Bearer ...``,
    ``api_key=...``) is removed, since an endpoint may echo a header it was sent.
    """

    def __init__(self, base_url: str, secrets: Iterable[str | None] = ()) -> None:
        parts = urlsplit(base_url)
        found = [secret for secret in secrets if secret]
        found += [part for part in (parts.username, parts.password) if part]
        found += [value for _name, value in parse_qsl(parts.query, keep_blank_values=False) if value]
        # The longest first, so that a secret holding another is removed whole.
        self._secrets = sorted({s for s in found if len(s) >= 3}, key=len, reverse=True)
        self.url = shown_url(base_url)
        with _seen_lock:
            _SECRETS_SEEN.update(self._secrets)

    def __call__(self, text: str) -> str:
        return _CREDENTIAL.sub(lambda m: m.group(1) + REDACTED, self.secrets(text))

    def secrets(self, text: str) -> str:
        """``text`` with the known secrets removed, and nothing else changed (for a completion, which is graded:
        an argument named ``token`` is not a credential)."""
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text


#: Every secret a Redactor of this process was given: a log line, a bug's traceback included, is redacted of
#: them all, whichever endpoint it is about.
_SECRETS_SEEN: set[str] = set()
_seen_lock = threading.Lock()


def redact_log_text(text: str) -> str:
    """``text`` without any secret a Redactor of this process knows, nor anything written as a credential."""
    with _seen_lock:
        secrets = sorted(_SECRETS_SEEN, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return _CREDENTIAL.sub(lambda m: m.group(1) + REDACTED, text)


class RedactingLogFilter(logging.Filter):
    """Redacts a log record's message, its arguments and its traceback (``redact_log_text``) before any handler
    writes it. The arguments stay arguments (a formatter may read them, as uvicorn's access log does); one that
    is neither a string nor a number is replaced by its redacted text."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            if record.exc_info and not record.exc_text:
                record.exc_text = logging.Formatter().formatException(record.exc_info)
            if isinstance(record.msg, str):
                record.msg = redact_log_text(record.msg)
            if isinstance(record.args, tuple):
                record.args = tuple(_redacted_argument(a) for a in record.args)
            elif isinstance(record.args, dict):
                record.args = {k: _redacted_argument(v) for k, v in record.args.items()}
            if record.exc_text:
                record.exc_text = redact_log_text(record.exc_text)
            if record.stack_info:
                record.stack_info = redact_log_text(record.stack_info)
        except Exception:  # a record that cannot be written is the logging module's to report
            return True
        return True


def _redacted_argument(value: object) -> object:
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    return redact_log_text(value if isinstance(value, str) else str(value))


#: The loggers a served process writes: ToolForm's own and uvicorn's (an exception escaping the application).
REDACTED_LOGGERS = ("toolform", "toolform.server", "toolform.measure", "uvicorn", "uvicorn.error", "uvicorn.access")


def redact_logs() -> None:
    """Every record of REDACTED_LOGGERS passes through a RedactingLogFilter (once, however often called)."""
    for name in REDACTED_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactingLogFilter) for f in logger.filters):
            logger.addFilter(RedactingLogFilter())


def shown_url(base_url: str) -> str:
    """``base_url`` as it may be shown: no user name or password, every query value redacted."""
    try:
        parts = urlsplit(base_url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return REDACTED
    netloc = (f"[{host}]" if ":" in host else host) + (f":{port}" if port is not None else "")
    query = "&".join(f"{name}={REDACTED}" for name, _value in parse_qsl(parts.query, keep_blank_values=True))
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def same_origin(first: str, second: str) -> bool:
    """Whether two URLs name the same scheme, host and port (a key for one may go to the other)."""
    try:
        a, b = urlsplit(first), urlsplit(second)
        ports = (a.port or _DEFAULT_PORTS.get(a.scheme), b.port or _DEFAULT_PORTS.get(b.scheme))
    except ValueError:
        return False
    return (a.scheme.lower(), (a.hostname or "").lower(), ports[0]) == (
        b.scheme.lower(), (b.hostname or "").lower(), ports[1]
    )


_DEFAULT_PORTS = {"http": 80, "https": 443}


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
        attempt_timeout_s: float = REQUEST_TIMEOUT_S,
        request_deadline_s: float = REQUEST_DEADLINE_S,
        max_completion_bytes: int = MAX_COMPLETION_BYTES,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.max_tokens = max_tokens
        self.thinking = thinking
        self.retry_delays = retry_delays
        self.attempt_timeout_s = attempt_timeout_s
        self.request_deadline_s = request_deadline_s
        self.max_completion_bytes = max_completion_bytes
        self.redact = Redactor(self.base_url, [api_key])
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        limits = httpx2.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        self._client = httpx2.AsyncClient(
            headers=headers, timeout=attempt_timeout_s, limits=limits, follow_redirects=False, trust_env=False
        )

    async def __aenter__(self) -> ChatEndpoint:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self._client.aclose()

    async def check(self) -> None:
        """Raise EndpointError unless the endpoint answers ``GET /models``: a wrong URL fails once, not per request."""
        shown = self.redact.url
        timeout = min(30.0, self.attempt_timeout_s)
        try:
            async with asyncio.timeout(timeout), self._client.stream("GET", f"{self.base_url}/models") as answer:
                status = answer.status_code
        except (httpx2.HTTPError, TimeoutError) as error:
            raise EndpointError(
                f"{shown} did not answer GET /models ({type(error).__name__}); check the base URL and that "
                "the server is up"
            ) from None
        if status >= 400:
            raise EndpointError(f"{shown} answered GET /models with {status}; check the base URL and the key")

    def body(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        """The chat-completions request body for ``messages``: greedy, bounded, the thinking switch if set."""
        body: dict[str, Any] = {
            "model": self.model, "messages": messages, "max_tokens": self.max_tokens, "temperature": 0.0
        }
        if self.thinking is not None:
            body["chat_template_kwargs"] = {"enable_thinking": self.thinking}
        return body

    async def complete(self, messages: list[dict[str, str]]) -> Completion:
        """One chat completion, retried on transport failures; raises TransportFailure when every attempt failed
        or the request's deadline passed."""
        body = self.body(messages)
        retries = 0
        try:
            async with asyncio.timeout(self.request_deadline_s):
                while True:
                    try:
                        async with asyncio.timeout(self.attempt_timeout_s):
                            status, content = await self._attempt(body)
                        return self._completion(status, content, retries)
                    except _TooLarge as failure:
                        raise TransportFailure(str(failure), retries) from None
                    except _Retryable as failure:
                        problem = str(failure)
                    except TimeoutError:
                        problem = f"no whole answer within {self.attempt_timeout_s:g} s"
                    except httpx2.HTTPError as error:
                        shown = self.redact(str(error))
                        problem = f"{type(error).__name__}: {shown}" if shown else type(error).__name__
                    if retries >= len(self.retry_delays):
                        raise TransportFailure(f"{problem} (after {retries} retries)", retries)
                    await asyncio.sleep(self.retry_delays[retries])
                    retries += 1
        except TimeoutError:
            raise TransportFailure(
                f"the request took longer than its deadline of {self.request_deadline_s:g} s "
                f"(after {retries} retries)", retries
            ) from None

    async def _attempt(self, body: dict[str, Any]) -> tuple[int, bytes]:
        """One POST, its answer read as it streams in and refused past ``max_completion_bytes``."""
        async with self._client.stream("POST", f"{self.base_url}/chat/completions", json=body) as answer:
            status = answer.status_code
            # A refusal is read only as far as it is quoted.
            limit = self.max_completion_bytes if status < 400 else QUOTED_CHARS * 4
            chunks: list[bytes] = []
            size = 0
            async for chunk in answer.aiter_bytes():
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    if status >= 400:
                        break
                    raise _TooLarge(
                        f"the endpoint's answer is over {self.max_completion_bytes:,} bytes, the most a completion "
                        "may hold; lower max_tokens or raise --endpoint-max-reply-bytes"
                    )
            return status, b"".join(chunks)

    def _completion(self, status: int, content: bytes, retries: int) -> Completion:
        if status >= 500 or status == 429:
            raise _Retryable(f"the endpoint answered {status}")
        if status >= 400:
            quoted = self.redact(content.decode("utf-8", "replace")[:QUOTED_CHARS])
            raise TransportFailure(f"the endpoint refused the request with {status}: {quoted}", retries)
        try:
            document = json.loads(content)
            choice = document["choices"][0]
            text = choice["message"].get("content") or ""
            usage = document.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
            raise _Retryable("the endpoint's answer is not a chat completion") from None
        if not isinstance(text, str):
            raise _Retryable("the endpoint's answer has no text content")
        return Completion(
            # A model that repeats the key it was sent (or the endpoint's password) does not get it stored.
            text=self.redact.secrets(text),
            prompt_tokens=_count(usage.get("prompt_tokens")),
            completion_tokens=_count(usage.get("completion_tokens")),
            truncated=choice.get("finish_reason") == "length",
            retries=retries,
        )


class _Retryable(Exception):
    """A failure worth another attempt."""


class _TooLarge(Exception):
    """An answer past the size a completion may have: asking again would read as much again."""


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
