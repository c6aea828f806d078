"""Values and names as the formats print them: Python literals, JSON, cases."""

from __future__ import annotations

import json
from typing import Any


def py_literal(value: Any) -> str:
    """A default as Python writes it (``False``, ``'a'`` inside lists, ``None``)."""
    return repr(value)


def plain(value: Any) -> str:
    """A default as prose shows it: strings bare, everything else as Python writes it."""
    return value if isinstance(value, str) else repr(value)


def json_text(value: Any, indent: int | None = None, minify: bool = False) -> str:
    """JSON with non-ASCII kept; ``minify`` drops every optional space."""
    if minify or indent is None:
        separators = (",", ":") if minify else (", ", ": ")
        return json.dumps(value, ensure_ascii=False, separators=separators)
    return json.dumps(value, ensure_ascii=False, indent=indent)


def compact_json(value: Any) -> str:
    """JSON with no optional space at all."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def pascal(name: str) -> str:
    """``legal_draft_v3`` (or ``legal-draft-v3``) as ``LegalDraftV3``."""
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_") if part)


def pascal_underscores(name: str) -> str:
    """``legal_draft_v3`` as ``LegalDraftV3``; only underscores split words (``a-b`` is ``A-b``)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def capitalized(name: str) -> str:
    """``legal_draft_v3`` as ``LegalDraftV3``, each word's other letters lowered (``aB`` is ``Ab``)."""
    return "".join(part.capitalize() for part in name.split("_") if part)


def wit_name(name: str) -> str:
    """``Legal_Draft`` as ``legal-draft``: WIT's lower kebab case."""
    return name.replace("_", "-").lower()


def camel(name: str) -> str:
    """``legal_draft_v3`` as ``legalDraftV3``."""
    joined = pascal(name)
    return joined[:1].lower() + joined[1:]


def kebab(name: str) -> str:
    """``term_months`` as ``term-months``."""
    return name.replace("_", "-")


def sentence(text: str) -> str:
    """A description without its final full stop, for use inside a sentence."""
    return text[:-1] if text.endswith(".") else text


def first_sentence(text: str) -> str:
    """The text up to its first full stop, without it."""
    head = text.split(". ", 1)[0]
    return head[:-1] if head.endswith(".") else head


def lower_first(text: str) -> str:
    """``Draft a contract`` as ``draft a contract``, for use after words of our own."""
    return text[:1].lower() + text[1:]
