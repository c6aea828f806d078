"""The IR's dict form: the reference's, empty parts left out, constraints in one order."""

from __future__ import annotations

from toolform.ir import FieldIR, Kind, ToolIR, ToolSet, TypeIR


def test_a_bare_tool_has_the_reference_defaults() -> None:
    assert ToolIR("f").to_dict() == {
        "name": "f",
        "description": "",
        "params": [],
        "domain": "generic",
        "category": "generic",
        "origin": "synthetic",
    }


def test_empty_parts_are_left_out_and_constraints_keep_their_order() -> None:
    t = TypeIR(Kind.STRING, constraints={"format": "date", "max_items": None, "minimum": 1, "pattern": "x"})
    assert list(t.to_dict()["constraints"]) == ["minimum", "pattern", "format"]  # type: ignore[call-overload]
    field = FieldIR("a", TypeIR(Kind.ANY), required=False)
    assert field.to_dict() == {"name": "a", "type": {"kind": "any"}, "required": False}


def test_depth_counts_objects_and_arrays_with_items() -> None:
    leaf = TypeIR(Kind.STRING)
    assert leaf.depth() == 0
    assert TypeIR(Kind.ARRAY).depth() == 0
    assert TypeIR(Kind.OBJECT).depth() == 1
    nested = TypeIR(Kind.ARRAY, item=TypeIR(Kind.OBJECT, fields=[FieldIR("x", TypeIR(Kind.ARRAY, item=leaf))]))
    assert nested.depth() == 3
    assert TypeIR(Kind.UNION, union_of=[leaf, nested]).depth() == 3


def test_the_cut_marker_is_not_part_of_the_value() -> None:
    assert TypeIR(Kind.ANY, cut="recursion") == TypeIR(Kind.ANY)
    assert TypeIR(Kind.ANY, cut="recursion").to_dict() == {"kind": "any"}


def test_the_ir_document_has_the_reference_fixed_members() -> None:
    document = ToolSet([ToolIR("f")]).to_dict()
    assert (document["universe_id"], document["seed"], document["meta"]) == ("universe", None, {})
