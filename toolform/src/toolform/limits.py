"""The server's limits on what one request may ask for (the 413 payload_too_large rows)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from toolform.errors import PayloadTooLarge

#: Schema nodes one loading may read, ``$ref`` and alias expansion included (``toolform serve
#: --max-schema-nodes``): a few kilobytes of references fanning out expand exponentially.
DEFAULT_MAX_SCHEMA_NODES = 200_000
#: Characters one rendered prompt may have (``toolform serve --max-rendered-chars``).
DEFAULT_MAX_RENDERED_CHARS = 4_000_000

_schema_node_limit = DEFAULT_MAX_SCHEMA_NODES
_rendered_char_limit = DEFAULT_MAX_RENDERED_CHARS


def set_schema_node_limit(limit: int) -> None:
    """The schema nodes every loading in this process may read from now on (the server sets its own)."""
    global _schema_node_limit
    _schema_node_limit = limit


def set_rendered_char_limit(limit: int) -> None:
    """The characters every rendered tool block and prompt in this process may have from now on (the server
    sets its own): one place bounds /render, /render/compare, the two-stage prompt, the catalogue plan and a
    measurement's prompts alike."""
    global _rendered_char_limit
    _rendered_char_limit = limit


def check_rendered_chars(chars: int) -> None:
    """Refuse a rendered tool block or prompt longer than the process's limit (``set_rendered_char_limit``)."""
    _refuse_rendered(chars, _rendered_char_limit)


def _refuse_rendered(chars: int, limit: int) -> None:
    if chars > limit:
        raise PayloadTooLarge(
            f"the rendered prompt has {chars:,} characters; the limit is {limit:,} "
            "(max_rendered_chars): render fewer tools, or fewer formats at once"
        )


_loading: ContextVar[SchemaNodes | None] = ContextVar("toolform_schema_nodes", default=None)


def schema_nodes() -> SchemaNodes:
    """The count of the loading under way (``counting_schema_nodes``), else a count of its own."""
    return _loading.get() or SchemaNodes()


@contextmanager
def counting_schema_nodes() -> Iterator[SchemaNodes]:
    """One count for every schema read inside the block (a loading's tools share one limit)."""
    count = SchemaNodes()
    token = _loading.set(count)
    try:
        yield count
    finally:
        _loading.reset(token)


class SchemaNodes:
    """Counts the schema nodes one loading reads; past the limit, PayloadTooLarge naming it."""

    __slots__ = ("left", "limit")

    def __init__(self, limit: int | None = None) -> None:
        self.limit = _schema_node_limit if limit is None else limit
        self.left = self.limit

    def count(self, nodes: int = 1) -> None:
        self.left -= nodes
        if self.left < 0:
            raise PayloadTooLarge(
                f"the tools expand to more than {self.limit:,} schema nodes ($ref and type aliases inlined), "
                f"the limit (max_schema_nodes); share fewer references or flatten the schemas"
            )


@dataclass(frozen=True)
class Limits:
    """How much one request may carry; the defaults are the reference's."""

    max_tools: int = 2000
    max_text_chars: int = 1_000_000
    max_body_bytes: int = 8_000_000
    max_jobs: int = 4
    max_ab_requests: int = 20_000
    max_schema_nodes: int = DEFAULT_MAX_SCHEMA_NODES
    max_rendered_chars: int = DEFAULT_MAX_RENDERED_CHARS

    def check_rendered(self, chars: int) -> None:
        """Refuse a rendered prompt longer than ``max_rendered_chars``."""
        _refuse_rendered(chars, self.max_rendered_chars)

    def check_tool_count(self, count: int) -> None:
        """Refuse more tools than ``max_tools``."""
        if count > self.max_tools:
            raise PayloadTooLarge(f"{count:,} tools; the limit is {self.max_tools:,}")

    def check_text(self, where: str, text: str) -> None:
        """Refuse a text member longer than ``max_text_chars``; ``where`` names it (``tools.payload``)."""
        if len(text) > self.max_text_chars:
            raise PayloadTooLarge(
                f"{where} has {len(text):,} characters; the limit is {self.max_text_chars:,}"
            )

    def check_body(self, size: int) -> None:
        """Refuse a request body larger than ``max_body_bytes``."""
        if size > self.max_body_bytes:
            raise PayloadTooLarge(
                f"the request body is {size:,} bytes; the limit is {self.max_body_bytes:,}"
            )

    def check_ab_requests(self, total: int) -> None:
        """Refuse a measurement of more requests in all (formats times tasks) than ``max_ab_requests``."""
        if total > self.max_ab_requests:
            raise PayloadTooLarge(
                f"the measurement needs {total:,} requests; the limit is {self.max_ab_requests:,} "
                "(ask for fewer formats or requests)"
            )
