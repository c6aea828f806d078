"""JSON on stdout with exact numbers: indented as ``print_json`` writes it, a Decimal with all its digits."""

from __future__ import annotations

from toolform import jsontext


def _indented(value: object, depth: int) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict) and value:
        items = [
            f"{inner}{jsontext.write(str(k), ensure_ascii=False)}: {_indented(v, depth + 1)}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, (list, tuple)) and value:
        return "[\n" + ",\n".join(f"{inner}{_indented(v, depth + 1)}" for v in value) + f"\n{pad}]"
    return jsontext.write(value, ensure_ascii=False)


def exact_json_text(value: object) -> str:
    """``value`` as JSON indented by two spaces, non-ASCII kept, every Decimal's digits as written."""
    return _indented(value, 0)


def print_exact_json(value: object) -> None:
    """``value`` as JSON indented by two spaces, non-ASCII kept, every Decimal's digits as written."""
    print(exact_json_text(value))


def text_of(value: object) -> str:
    """``value`` as one line of JSON (``", "`` and ``": "`` between items), exact numbers kept."""
    return jsontext.write(value, ensure_ascii=False)


__all__ = ["exact_json_text", "print_exact_json", "text_of"]
