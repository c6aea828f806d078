"""Our catalogue routes beyond the reference: the identifier split over HTTP, a catalogue asked
again (read once, answered the same), and the text limit on the query."""

from __future__ import annotations

from typing import Any

from support.serving import Server


def _tools(*names: str) -> dict[str, Any]:
    payload = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}} for name in names]
    return {"source": "openai", "payload": payload}


def test_split_identifiers_ranks_camel_case_words(ours: Server) -> None:
    body = {"tools": _tools("getWeather", "sendMail"), "query": "weather"}
    plain = ours.post("/api/v1/catalogue/retrieve", body).json()
    split = ours.post("/api/v1/catalogue/retrieve", {**body, "split_identifiers": True}).json()
    assert plain["ranked"] == [["getWeather", 0.0], ["sendMail", 0.0]]
    assert split["ranked"] == [["getWeather", 0.693147], ["sendMail", 0.0]]


def test_a_catalogue_asked_again_gets_the_same_answer(ours: Server) -> None:
    body = {"tools": _tools("get_weather", "send_mail", "book_flight"), "query": "send mail", "k": 2}
    first = ours.post("/api/v1/catalogue/retrieve", body)
    again = ours.post("/api/v1/catalogue/retrieve", body)
    assert first.status == again.status == 200 and first.body == again.body
    assert first.json()["selected"] == ["send_mail", "get_weather"]
    other = ours.post("/api/v1/catalogue/retrieve", {**body, "tools": _tools("send_mail", "x_y")}).json()
    assert other["selected"] == ["send_mail", "x_y"]


def test_a_query_over_the_text_limit_is_refused_by_name(ours: Server) -> None:
    reply = ours.post("/api/v1/catalogue/retrieve", {"tools": _tools("a_b"), "query": "x" * 1_000_001})
    assert reply.status == 413
    assert reply.json()["detail"] == "query has 1,000,001 characters; the limit is 1,000,000"
