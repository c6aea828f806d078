"""A response's head leaves with its body in one write, and nothing is lost, reordered or held back."""

from __future__ import annotations

import asyncio
import json
import socket

from toolform.server.http_protocol import HeadWithBody

from support.serving import Server


class Written:
    """A transport that records each write and whether it was closed."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def test_head_and_body_leave_in_one_write_and_later_writes_pass_straight_on() -> None:
    async def run() -> Written:
        real = Written()
        transport = HeadWithBody(real, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(b"HEAD\r\n\r\n")
        assert real.writes == []
        transport.write(b"body")
        transport.write(b"more")
        await asyncio.sleep(0)
        assert not transport.is_closing()
        return real

    assert asyncio.run(run()).writes == [b"HEAD\r\n\r\nbody", b"more"]


def test_a_head_alone_leaves_on_the_next_turn_and_before_a_close() -> None:
    async def run() -> tuple[list[bytes], list[bytes], bool]:
        loop = asyncio.get_running_loop()
        alone, closing = Written(), Written()
        HeadWithBody(alone, loop).write(b"HTTP/1.1 100 Continue\r\n\r\n")  # type: ignore[arg-type]
        closed = HeadWithBody(closing, loop)  # type: ignore[arg-type]
        closed.write(b"HEAD")
        closed.close()
        assert closing.writes == [b"HEAD"] and closing.closed
        await asyncio.sleep(0)
        return alone.writes, closing.writes, closing.closed

    alone, closing, closed = asyncio.run(run())
    assert alone == [b"HTTP/1.1 100 Continue\r\n\r\n"] and closing == [b"HEAD"] and closed


def _read_responses(sock: socket.socket, count: int) -> list[tuple[bytes, bytes]]:
    received = b""
    answers: list[tuple[bytes, bytes]] = []
    while len(answers) < count:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection early"
        received += chunk
        while b"\r\n\r\n" in received:
            head, _, rest = received.partition(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            length = next(int(line.split(b":", 1)[1]) for line in lines if line.lower().startswith(b"content-length"))
            if len(rest) < length:
                break
            answers.append((head, rest[:length]))
            received = rest[length:]
    return answers


def test_pipelined_requests_on_one_connection_are_answered_whole_and_in_order(ours: Server) -> None:
    body = json.dumps({"tools": {"source": "openai", "payload": []}}).encode()
    requests = [
        b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"POST /api/v1/tools/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body,
        b"GET /api/v1/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ]
    with socket.create_connection(("127.0.0.1", ours.port), timeout=20) as sock:
        sock.sendall(b"".join(requests))
        answers = _read_responses(sock, 3)
    statuses = [head.split(b" ", 2)[1] for head, _ in answers]
    assert statuses == [b"200", b"422", b"404"]
    assert json.loads(answers[0][1])["status"] == "ok"
    assert json.loads(answers[2][1])["error"] == "not_found"


def test_expect_100_continue_is_answered_before_the_body_is_sent(ours: Server) -> None:
    body = json.dumps({"tools": {"source": "openai", "payload": []}}).encode()
    head = (
        b"POST /api/v1/tools/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Expect: 100-continue\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", ours.port), timeout=20) as sock:
        sock.sendall(head)
        assert sock.recv(65536).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        sock.sendall(body)
        ((answer_head, answer_body),) = _read_responses(sock, 1)
    assert answer_head.startswith(b"HTTP/1.1 422 ") and json.loads(answer_body)["error"] == "loader_error"
