"""A canned OpenAI-compatible chat-completions endpoint on 127.0.0.1, for measurements in tests.

``GET /v1/models`` names one model; every POST to a path ending in
``/chat/completions`` gets the same reply after ``delay`` seconds, so that a
test can watch a measurement run, or cancel it while it runs. It counts the requests it answered.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class CannedChat:
    """The endpoint, serving on a thread until ``stop``; ``base_url`` is what `--endpoint` takes."""

    def __init__(self, reply: str, delay: float = 0.0, model: str = "canned-model") -> None:
        self.reply = reply
        self.model = model
        self.delay = delay
        self.answered = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the http.server name)
                if not self.path.endswith("/models"):
                    self.send_error(404)
                    return
                self._send({"object": "list", "data": [{"id": endpoint.model, "object": "model"}]})

            def _send(self, answer: object) -> None:
                body = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                length = int(self.headers.get("content-length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self.send_error(404)
                    return
                # Wait, but give up at once when the test stops the endpoint.
                endpoint._stopping.wait(endpoint.delay)
                self._send(
                    {
                        "id": "canned",
                        "object": "chat.completion",
                        "model": request.get("model", endpoint.model),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": endpoint.reply},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
                    }
                )
                with endpoint._lock:
                    endpoint.answered += 1

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the http.server name)
                pass

        return Handler

    def stop(self) -> None:
        self._stopping.set()
        self.server.shutdown()
        self.server.server_close()
