"""A scripted model endpoint for the tests: OpenAI chat-completions and Anthropic Messages on loopback.

>>> def script(prompt: Prompt) -> Answer:
...     return Answer('{"name": "get_forecast", "arguments": {}}')
>>> with ScriptedEndpoint(script, models=("Qwen/Qwen3-8B",)) as endpoint:
...     endpoint.base_url            # http://127.0.0.1:PORT/v1, for an OpenAI client
...     endpoint.requests            # every request received, in arrival order

The reply to each request is chosen by ``script``, a function of the prompt (so
tests stay deterministic under concurrency). An ``Answer`` may carry a ``Fault``:
a 5xx status, a delay, a dropped connection or a malformed body. ``fail_next``
queues faults for the next requests whatever the script says.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Api = Literal["openai", "anthropic"]
FaultKind = Literal["status", "drop", "malformed", "trickle", "huge", "echo_headers"]


@dataclass(frozen=True)
class Fault:
    """How an answer goes wrong: ``status`` (an HTTP error), ``drop`` (close without answering), ``malformed``,
    ``trickle`` (a 200 whose body comes a byte every ``interval_s``), ``huge`` (a 200 of ``size`` bytes),
    ``echo_headers`` (``status`` with the request's headers as the body, as some servers echo them)."""

    kind: FaultKind
    status: int = 500
    body: str = '{"error": {"message": "scripted failure"}}'
    size: int = 100_000_000
    interval_s: float = 1.0


@dataclass(frozen=True)
class Answer:
    """What the endpoint answers: the assistant's text, its usage, and optionally a delay or a fault."""

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str = "stop"
    delay_s: float = 0.0
    fault: Fault | None = None


@dataclass(frozen=True)
class Prompt:
    """One request as the script sees it."""

    api: Api
    path: str
    model: str
    system: str
    user: str
    messages: list[dict[str, Any]]
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass(frozen=True)
class Recorded:
    """One request received, with the answer it got (``prompt`` is ``None`` for a GET or an unreadable body)."""

    method: str
    path: str
    prompt: Prompt | None
    raw: bytes
    answer: Answer | None
    received_at: float = field(default_factory=time.monotonic)
    #: The request's headers, lowercase names (a GET's too).
    headers: dict[str, str] = field(default_factory=dict)


Script = Callable[[Prompt], "Answer | str"]


def _text_of(content: object) -> str:
    """A message's text, whether a string or a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _prompt_of(api: Api, path: str, body: dict[str, Any], headers: dict[str, str]) -> Prompt:
    messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
    system = _text_of(body.get("system", "")) if api == "anthropic" else ""
    system += "".join(_text_of(m.get("content")) for m in messages if m.get("role") == "system")
    users = [_text_of(m.get("content")) for m in messages if m.get("role") == "user"]
    return Prompt(api, path, str(body.get("model", "")), system, users[-1] if users else "", messages, body, headers)


def _words(text: str) -> int:
    """A stand-in token count when the script gives none: whitespace-separated words."""
    return len(text.split())


class ScriptedEndpoint:
    """An HTTP server on 127.0.0.1 (a free port) answering as ``script`` says; stop it with ``stop``."""

    def __init__(self, script: Script, models: tuple[str, ...] = ("scripted",)):
        self._script = script
        self.models = models
        self._lock = threading.Lock()
        self._queued_faults: list[Answer] = []
        self.requests: list[Recorded] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-endpoint", daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        port: int = self._server.server_address[1]
        return port

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (``/v1``); the Anthropic API is served under it as ``/v1/messages``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def fail_next(self, fault: Fault, count: int = 1, delay_s: float = 0.0) -> None:
        """The next ``count`` requests get ``fault`` instead of the script's answer."""
        with self._lock:
            self._queued_faults.extend([Answer("", fault=fault, delay_s=delay_s)] * count)

    def prompts(self) -> list[Prompt]:
        """The prompts of every readable request received so far."""
        with self._lock:
            return [r.prompt for r in self.requests if r.prompt is not None]

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedEndpoint:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def _choose(self, prompt: Prompt) -> Answer:
        with self._lock:
            if self._queued_faults:
                return self._queued_faults.pop(0)
        chosen = self._script(prompt)
        return Answer(chosen) if isinstance(chosen, str) else chosen

    def _record(self, entry: Recorded) -> None:
        with self._lock:
            self.requests.append(entry)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                pass  # the tests read ``requests``, not a log

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                headers = {k.lower(): v for k, v in self.headers.items()}
                endpoint._record(Recorded("GET", self.path, None, b"", None, headers=headers))
                if self.path.rstrip("/").endswith("/models"):
                    listing = {"object": "list", "data": [{"id": m, "object": "model"} for m in endpoint.models]}
                    self._send(200, json.dumps(listing).encode())
                else:
                    self._send(404, b'{"error": {"message": "no such route"}}')

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                api: Api | None = (
                    "openai" if self.path.endswith("/chat/completions")
                    else "anthropic" if self.path.endswith("/messages") else None
                )
                try:
                    body = json.loads(raw)
                    if api is None or not isinstance(body, dict):
                        raise ValueError(self.path)
                except ValueError:
                    endpoint._record(Recorded("POST", self.path, None, raw, None))
                    self._send(404 if api is None else 400, b'{"error": {"message": "not a chat request"}}')
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                prompt = _prompt_of(api, self.path, body, headers)
                answer = endpoint._choose(prompt)
                endpoint._record(Recorded("POST", self.path, prompt, raw, answer, headers=headers))
                if answer.delay_s:
                    time.sleep(answer.delay_s)
                if answer.fault is not None:
                    self._fail(answer.fault)
                    return
                self._send(200, json.dumps(_reply_body(api, prompt, answer)).encode())

            def _fail(self, fault: Fault) -> None:
                if fault.kind == "drop":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                elif fault.kind == "malformed":
                    self._send(200, b'{"choices": [{"message": ')
                elif fault.kind == "echo_headers":
                    self._send(fault.status, json.dumps(dict(self.headers.items())).encode())
                elif fault.kind in ("trickle", "huge"):
                    self._stream(fault)
                else:
                    self._send(fault.status, fault.body.encode())

            def _stream(self, fault: Fault) -> None:
                # A byte at a time, or a megabyte at a time, until the reader goes away.
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(fault.size))
                self.end_headers()
                chunk = b" " if fault.kind == "trickle" else b" " * 1_000_000
                sent = 0
                try:
                    while sent < fault.size:
                        self.wfile.write(chunk)
                        self.wfile.flush()
                        sent += len(chunk)
                        if fault.kind == "trickle":
                            time.sleep(fault.interval_s)
                except OSError:
                    pass
                self.close_connection = True

            def _send(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def _reply_body(api: Api, prompt: Prompt, answer: Answer) -> dict[str, Any]:
    prompt_tokens = answer.prompt_tokens
    if prompt_tokens is None:
        prompt_tokens = _words(prompt.system + " " + prompt.user)
    completion_tokens = answer.completion_tokens if answer.completion_tokens is not None else _words(answer.text)
    if api == "anthropic":
        stop = {"stop": "end_turn", "length": "max_tokens"}.get(answer.finish_reason, answer.finish_reason)
        return {
            "id": "msg_scripted", "type": "message", "role": "assistant", "model": prompt.model,
            "content": [{"type": "text", "text": answer.text}], "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": prompt_tokens, "output_tokens": completion_tokens},
        }
    return {
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time()), "model": prompt.model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": answer.text},
                     "finish_reason": answer.finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }
