"""The Python form of each Flow type: round trips, refusals with path and rule,
and the choices the package docstring documents."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import flow_toolkit
from flow_toolkit import Duration, FlowMap, FlowSet, HostToken, Instant, Some

EMPTY = json.dumps({"data": "0.1", "tools": [], "declarations": {}})
C = flow_toolkit.codec_for(EMPTY)


def at(term: Any) -> flow_toolkit.TypeCodec:
    return C.type_of(json.dumps(term))


@pytest.mark.parametrize(
    ("term", "text", "python"),
    [
        ("Int", "123456789012345678901234567890", 123456789012345678901234567890),
        ("Int", "1e3", 1000),
        ("Decimal", "0.7309454633826060586516", Decimal("0.7309454633826060586516")),
        ("Decimal", "1.50", Decimal("1.5")),
        ("Text", '"Zürich\\n"', "Zürich\n"),
        ("Bool", "true", True),
        ("Bytes", '"iVBORw=="', b"\x89PNG"),
        ("Unit", "null", None),
        ({"List": "Int"}, "[1,2]", [1, 2]),
        ({"Tuple": ["Int", "Text"]}, '[1,"a"]', (1, "a")),
        ({"Dict": ["Text", "Int"]}, '{"b":2,"a":1}', {"a": 1, "b": 2}),
        ({"Option": "Int"}, '"None"', None),
        ({"Option": "Int"}, '{"Some":5}', 5),
        ({"Option": {"Option": "Int"}}, '{"Some":"None"}', Some(None)),
        ({"Option": {"Option": "Int"}}, '"None"', None),
        ({"Option": "Unit"}, '{"Some":null}', Some(None)),
        ({"Option": "json.Value"}, '{"Some":null}', Some(None)),
        ("json.Value", '{"a":[1,2.50,null,true,"x"]}', {"a": [1, Decimal("2.5"), None, True, "x"]}),
    ],
)
def test_round_trip(term: Any, text: str, python: Any) -> None:
    codec = at(term)
    value = codec.decode(text)
    assert value == python
    assert type(value) is type(python)
    assert codec.decode(codec.encode(value)) == python


@pytest.mark.parametrize(
    ("decimal", "text"),
    [("1.50", "1.5"), ("1E+3", "1000"), ("-0", "0"), ("0E-7", "0"), ("-0.0", "0"), ("0.000", "0"),
     ("12.345e-10", "0.0000000012345"), ("-7", "-7"), ("100", "100"), ("0.5", "0.5"), ("-0.25", "-0.25")],
)
def test_decimals_an_author_makes_encode_canonically(decimal: str, text: str) -> None:
    assert at("Decimal").encode(Decimal(decimal)) == text
    assert at({"List": "Decimal"}).encode([Decimal(decimal)]) == f"[{text}]"


def test_sets_and_maps_use_flows_order() -> None:
    sets = at({"Set": {"List": "Int"}})
    value = sets.decode("[[2],[1,5],[1]]")
    assert isinstance(value, FlowSet)
    assert list(value) == [[1], [1, 5], [2]]
    assert sets.encode(FlowSet([[2], [1], [1, 5], [1]])) == "[[1],[1,5],[2]]"
    maps = at({"Dict": [{"Tuple": ["Int", "Int"]}, "Text"]})
    m = maps.decode('[[[2,1],"b"],[[1,9],"a"]]')
    assert isinstance(m, FlowMap) and m[(1, 9)] == "a" and list(m) == [(1, 9), (2, 1)]
    assert maps.encode(FlowMap({(2, 1): "b", (1, 9): "a"})) == '[[[1,9],"a"],[[2,1],"b"]]'
    # Flow's equality: 1 and Decimal("1.0") are one key.
    with pytest.raises(ValueError, match="given twice"):
        FlowMap([(1, "a"), (Decimal("1.0"), "b")])
    assert FlowMap([(1, "a"), (Decimal("1.0"), "a")]) == FlowMap([(1, "a")])
    assert FlowSet([{"b": 1, "a": 2}, {"a": 2, "b": 1}]) == FlowSet([{"a": 2, "b": 1}])


def test_records_order_by_declared_fields_not_names() -> None:
    @__import__("dataclasses").dataclass(frozen=True, slots=True)
    class P:
        z: int
        a: int

    assert list(FlowSet([P(2, 0), P(1, 9)])) == [P(1, 9), P(2, 0)]


@pytest.mark.parametrize(
    ("term", "value", "path", "reason"),
    [
        ("Int", True, "$", "expected an int, found bool"),
        ("Int", 1.0, "$", "found a float"),
        ("Decimal", 1, "$", "expected a decimal.Decimal, found int"),
        ("Decimal", 0.5, "$", "found a float"),
        ("Decimal", Decimal("NaN"), "$", "which is no number"),
        ({"List": "Decimal"}, [Decimal(1), 2.5], "$[1]", "found a float"),
        ({"Set": "Int"}, {1, 2}, "$", "expected a FlowSet, found set"),
        ({"Dict": ["Int", "Int"]}, {1: 2}, "$", "expected a FlowMap, found dict"),
        ({"Tuple": ["Int", "Int"]}, (1,), "$", "expected a tuple of 2"),
        ({"Option": {"Option": "Int"}}, 5, "$", "expected Some(...) or None"),
        ("json.Value", {"a": [1.5]}, "$.a[0]", "found a float"),
        ("json.Value", {1: 2}, "$", "str key"),
        ("Text", "\ud800", "$", "lone surrogate"),
        pytest.param("Int", 10**5000, "$", "digits", id="int-past-the-digit-limit"),
    ],
)
def test_refusals_name_path_and_rule(term: Any, value: Any, path: str, reason: str) -> None:
    with pytest.raises(flow_toolkit.EncodeError) as refused:
        at(term).encode(value)
    assert refused.value.path == path, str(refused.value)
    assert reason in refused.value.reason, str(refused.value)


def test_instant_and_duration() -> None:
    i = Instant.parse("2024-02-29T23:59:59.120+01:30")
    assert str(i) == "2024-02-29T22:29:59.12Z"
    assert Instant.from_datetime(i.to_datetime()) == i
    assert i.to_datetime() == datetime.datetime(2024, 2, 29, 22, 29, 59, 120000, tzinfo=datetime.UTC)
    with pytest.raises(ValueError, match="nanoseconds"):
        Instant(1).to_datetime()
    with pytest.raises(ValueError, match="years 1 to 9999"):
        Instant.parse("+10000-01-01T00:00:00Z").to_datetime()
    with pytest.raises(ValueError, match="naive"):
        Instant.from_datetime(datetime.datetime(2024, 1, 1))
    with pytest.raises(ValueError, match="range"):
        Instant(9 * 10**21)
    with pytest.raises(flow_toolkit.DecodeError) as refused:
        Instant.parse("2024-01-01T24:00:00Z")
    assert refused.value.rule == "instant"
    d = Duration.parse("PT-1.5S")
    assert d.nanos == -1_500_000_000 and str(d) == "PT-1.5S"
    assert Duration.from_timedelta(d.to_timedelta()) == d
    with pytest.raises(ValueError, match="nanoseconds"):
        Duration(1).to_timedelta()
    assert sorted([Duration(2), Duration(-1)]) == [Duration(-1), Duration(2)]


def test_host_tokens_are_canonical_json() -> None:
    assert HostToken('{ "b": 1, "a": [1.50] }') == HostToken('{"a":[1.5],"b":1}')
    assert HostToken('{"a":1}').json_text == '{"a":1}'
    with pytest.raises(TypeError, match="no order"):
        FlowSet([HostToken("1"), HostToken("2")])


def test_canonical_and_refusals() -> None:
    assert flow_toolkit.canonical(' {"b": [1.50, -0, 1e2], "a": "\\u00e9"} ') == '{"a":"é","b":[1.5,0,100]}'
    with pytest.raises(flow_toolkit.DecodeError) as refused:
        flow_toolkit.canonical('{"a":1,"a":2}')
    assert refused.value.rule == "duplicate-key"


HOSTED = json.dumps({
    "data": "0.1",
    "tools": [{"tool": "tools/h.flow.t", "doc": None, "generic": [], "params": [],
               "ok": {"Named": {"declaration": "1", "args": []}}, "err": "Never"}],
    "declarations": {
        "1": {"name": "Rec", "identity": "tools/h.flow.Rec", "lexical_ordinal": 1, "generic": [], "opaque": False,
              "kind": "record", "doc": None, "fields": [
                  {"name": "token", "type": {"Named": {"declaration": "2", "args": []}}, "doc": None},
                  {"name": "maybe", "type": {"Option": {"Option": "Int"}}, "doc": None},
                  {"name": "unit", "type": {"Option": "Unit"}, "doc": None}]},
        "2": {"name": "Token", "identity": "tools/h.flow.Token", "lexical_ordinal": 2, "generic": [], "opaque": True,
              "kind": "host", "doc": None},
    },
})


def test_option_fields_whose_payload_may_be_none_stay_distinguishable() -> None:
    codec = flow_toolkit.codec_for(HOSTED)
    rec = codec.type_of('{"Named":{"declaration":"1","args":[]}}')
    absent = rec.decode('{"token":{"any":"json"}}')
    assert (absent.maybe, absent.unit) == (None, None)
    assert absent.token == HostToken('{"any":"json"}')
    inner_none = rec.decode('{"token":1,"maybe":"None","unit":null}')
    assert (inner_none.maybe, inner_none.unit) == (Some(None), Some(None))
    some = rec.decode('{"token":1,"maybe":{"Some":5}}')
    assert some.maybe == Some(5)
    texts = ('{"token":{"any":"json"}}', '{"maybe":"None","token":1,"unit":null}', '{"maybe":{"Some":5},"token":1}')
    for text in texts:
        assert rec.encode(rec.decode(text)) == text
    with pytest.raises(flow_toolkit.EncodeError) as refused:
        rec.encode(type(absent)(token=HostToken("1"), maybe=5, unit=None))
    assert refused.value.path == "$.maybe"


def test_made_classes_take_any_field_name() -> None:
    # Field names that are Python's own (__slots__, __init__), the constructor
    # classes' _flow_index, keywords and non-identifiers all get attributes,
    # as flow-gen names them; the wire keeps the Flow names.
    names = ["__slots__", "__init__", "_flow_index", "class", "x y", "0", "__proto__"]
    fields = [{"name": n, "type": "Int", "doc": None} for n in names]
    named = [{"name": p, "type": {"Named": {"declaration": d, "args": []}}} for p, d in (("r", "1"), ("e", "2"))]
    tool = {"tool": "tools/n.flow.t", "doc": None, "generic": [], "params": named, "ok": "Unit", "err": "Never"}
    listing = json.dumps({"data": "0.1", "tools": [tool], "declarations": {
        "1": {"name": "R", "identity": "tools/n.flow.R", "lexical_ordinal": 1, "generic": [], "opaque": False,
              "kind": "record", "doc": None, "fields": fields},
        "2": {"name": "E", "identity": "tools/n.flow.E", "lexical_ordinal": 2, "generic": [], "opaque": False,
              "kind": "enum", "doc": None,
              "constructors": [{"name": "C", "doc": None, "payload": {"named": fields}}]},
    }})
    codec = flow_toolkit.codec_for(listing)
    text = json.dumps({n: i for i, n in enumerate(names)}, sort_keys=True, separators=(",", ":"))
    record = codec.type_of('{"Named":{"declaration":"1","args":[]}}')
    value = record.decode(text)
    attrs = (value.f__slots__, value.f__init__, value._flow_index_2, value.class_, value.x_y, value._0)
    assert attrs == (0, 1, 2, 3, 4, 5)
    assert record.encode(value) == text
    enum = codec.type_of('{"Named":{"declaration":"2","args":[]}}')
    assert enum.encode(enum.decode(f'{{"C":{text}}}')) == f'{{"C":{text}}}'


def test_the_flow_gen_command_is_installed(tmp_path: Path, weather_text: str) -> None:
    import subprocess
    import sys

    flow_gen = Path(sys.executable).parent / "flow-gen"
    (tmp_path / "flow.tools.json").write_text(weather_text)
    # No listing named, nothing piped: flow.tools.json; the folder is PROJECT_tools.
    run = subprocess.run([str(flow_gen), "--lang", "python"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "weather_tools" / "models.py").exists()
    assert (tmp_path / "flow.toml").read_text() == '[tools."weather.flow"]\ncommand = "python3 -m weather_tools"\n'
    # Piped: the listing on stdin wins.
    piped = subprocess.run([str(flow_gen), "--lang", "python", "--out", "piped_tools", "--no-manifest"], cwd=tmp_path,
                           input=weather_text, capture_output=True, text=True, check=False)
    assert piped.returncode == 0, piped.stderr
    assert (tmp_path / "piped_tools" / "tools.py").exists()
