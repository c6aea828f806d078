"""The server's limits on what one request may ask for (the 413 payload_too_large rows)."""

from __future__ import annotations

from dataclasses import dataclass

from toolform.errors import PayloadTooLarge


@dataclass(frozen=True)
class Limits:
    """How much one request may carry; the defaults are the reference's."""

    max_tools: int = 2000
    max_text_chars: int = 1_000_000
    max_body_bytes: int = 8_000_000
    max_jobs: int = 4
    max_ab_requests: int = 20_000

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
