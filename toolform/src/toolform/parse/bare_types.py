"""The type of an enum's base kind, as validation and normalisation read it: one per kind, made once."""

from __future__ import annotations

from toolform.ir import Kind, TypeIR

# Read only: validation and normalisation never change a type. Made once, not per enum value checked.
_BARE: dict[Kind, TypeIR] = {kind: TypeIR(kind) for kind in Kind}


def bare_type(kind: Kind) -> TypeIR:
    """``TypeIR(kind)``: the kind with no constraint, field, item, member or base."""
    return _BARE[kind]
