"""The SDK's errors, one class per row of the HTTP API's errors table.

Each error knows its machine name (``code``) and HTTP status, so the server maps
any of them to the one error shape ``{"error", "detail", "status"}`` without a
table of its own; callers of the SDK catch them as ordinary exceptions.
"""

from __future__ import annotations

from typing import ClassVar


class ToolFormError(Exception):
    """Base of every error the SDK raises on purpose.

    ``detail`` is a sentence for a person: what was wrong and, where it helps,
    how to fix it.
    """

    code: ClassVar[str] = "internal_error"
    status: ClassVar[int] = 500

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def to_dict(self) -> dict[str, object]:
        """The error in the API's one shape."""
        return {"error": self.code, "detail": self.detail, "status": self.status}


class BadRequest(ToolFormError):
    """A value the operation cannot use (also a Content-Length that is not a number)."""

    code = "bad_request"
    status = 400


class UnknownFormat(ToolFormError):
    """A format id that is not in the registry."""

    code = "unknown_format"
    status = 404


class UnknownProtocol(ToolFormError):
    """A protocol id that is not in the registry."""

    code = "unknown_protocol"
    status = 404


class UnknownEvidence(ToolFormError):
    """An evidence file name that the manifest does not list."""

    code = "not_found"
    status = 404


class JobNotFound(ToolFormError):
    """A measurement job id that this process does not know."""

    code = "job_not_found"
    status = 404


class NoEndpoint(ToolFormError):
    """A measurement asked for with no model endpoint configured."""

    code = "no_endpoint"
    status = 409


class PayloadTooLarge(ToolFormError):
    """More tools, text, bytes or measurement requests than the limits allow."""

    code = "payload_too_large"
    status = 413


class MisdirectedRequest(ToolFormError):
    """A Host header the server does not answer to."""

    code = "misdirected_request"
    status = 421


class LoaderError(ToolFormError):
    """Tools that do not load, or no tools at all.

    ``line`` is the 1-based line of the source text where the problem is, when
    the loader knows it (TypeScript and Flow listings, JSON text).
    """

    code = "loader_error"
    status = 422

    def __init__(self, detail: str, line: int | None = None) -> None:
        super().__init__(detail)
        self.line = line

    def to_dict(self) -> dict[str, object]:
        shape = super().to_dict()
        if self.line is not None:
            shape["line"] = self.line
        return shape


class TooManyJobs(ToolFormError):
    """As many measurements wait as may run."""

    code = "too_many_jobs"
    status = 429


class EndpointError(ToolFormError):
    """The model endpoint refused or failed."""

    code = "endpoint_error"
    status = 502


class EvidenceUnavailable(ToolFormError):
    """The study's evidence is missing or failed its check, so a route that serves it cannot."""

    code = "evidence_unavailable"
    status = 503


class JobStoreError(ToolFormError):
    """The job store (SQLite, beside the local evidence store) could not be opened, read or written."""

    code = "job_store_error"
    status = 503
