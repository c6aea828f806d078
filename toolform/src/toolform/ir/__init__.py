"""The tools IR: one tool set, whatever shape it came from."""

from toolform.ir.tool import USER, ToolIR, ToolSet
from toolform.ir.types import CONSTRAINT_KEYS, ENUM_BASES, FieldIR, Kind, TypeIR
from toolform.ir.values import JsonValue, is_number

__all__ = [
    "CONSTRAINT_KEYS",
    "ENUM_BASES",
    "USER",
    "FieldIR",
    "JsonValue",
    "Kind",
    "ToolIR",
    "ToolSet",
    "TypeIR",
    "is_number",
]
