"""generated-samples/python/weather is what flow-gen writes for the example
listing, and the generated code passes mypy --strict and ruff."""

from __future__ import annotations

import filecmp
import subprocess
import sys
from pathlib import Path

from conftest import REPO, WEATHER_LISTING, binary

SAMPLE = REPO / "generated-samples" / "python" / "weather"


def run_python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, check=False)


def generate(out: Path, *args: str, listing: Path = WEATHER_LISTING) -> subprocess.CompletedProcess[str]:
    """`flow-gen --lang python LISTING --out OUT --no-manifest ARGS`."""
    return subprocess.run(
        [str(binary("flow-gen")), "--lang", "python", str(listing), "--out", str(out), "--no-manifest", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_sample_is_what_generation_writes(tmp_path: Path) -> None:
    out = tmp_path / "weather"
    assert generate(out).returncode == 0
    files = sorted(p.name for p in SAMPLE.iterdir() if p.suffix == ".py")
    assert files == sorted(p.name for p in out.iterdir())
    _, mismatch, errors = filecmp.cmpfiles(SAMPLE, out, files, shallow=False)
    assert (mismatch, errors) == ([], [])
    assert generate(SAMPLE, "--check").returncode == 0


def test_check_names_a_stale_file_and_spares_the_scaffold(tmp_path: Path) -> None:
    out = tmp_path / "weather"
    generate(out)
    (out / "implementation.py").write_text("# mine\n")
    models = out / "models.py"
    models.write_text(models.read_text() + "# edited\n")
    checked = generate(out, "--check")
    assert checked.returncode == 1
    assert "not up to date" in checked.stderr and "models.py" in checked.stderr
    assert "implementation.py" not in checked.stderr
    generate(out)
    assert (out / "implementation.py").read_text() == "# mine\n"
    assert generate(out, "--check").returncode == 0


def test_invalid_listing_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(WEATHER_LISTING.read_text().replace('"lexical_ordinal": 7', '"lexical_ordinal": 0'))
    out = tmp_path / "pkg"
    run = generate(out, listing=bad)
    assert run.returncode == 1 and "[shape]" in run.stderr
    assert not out.exists()


def test_mypy_strict_and_ruff_pass_on_the_sample_and_the_example() -> None:
    for target in (SAMPLE, REPO / "examples" / "python" / "weather_tools"):
        mypy = run_python("-m", "mypy", "--strict", str(target))
        assert mypy.returncode == 0, mypy.stdout
        ruff = run_python("-m", "ruff", "check", str(target))
        assert ruff.returncode == 0, ruff.stdout


def test_keywords_builtins_and_awkward_docs_generate_valid_code(tmp_path: Path) -> None:
    listing = {
        "data": "0.1",
        "tools": [{
            "tool": "tools/odd.flow.class", "doc": 'Ends in a quote "', "generic": [],
            "params": [{"name": "lambda", "type": "Int"}, {"name": "ctx", "type": "Text"},
                       {"name": "get-sum", "type": {"Named": {"declaration": "1", "args": []}}}],
            "ok": {"Named": {"declaration": "2", "args": []}}, "err": "Text"}],
        "declarations": {
            "1": {"name": "None", "identity": "tools/odd.flow.None", "lexical_ordinal": 1, "generic": [],
                  "opaque": False, "kind": "record", "doc": 'Has """ and a \\ backslash',
                  "fields": [{"name": "int", "type": "Int", "doc": "\x07bell"},
                             {"name": "from", "type": {"Option": {"Option": "Int"}}, "doc": None},
                             {"name": "A", "type": {"Named": {"declaration": "2", "args": []}}, "doc": None}]},
            "2": {"name": "A", "identity": "tools/odd.flow.A", "lexical_ordinal": 2, "generic": [],
                  "opaque": False, "kind": "enum", "doc": None,
                  "constructors": [{"name": "BC", "doc": None, "payload": None},
                                   {"name": "Pair", "doc": None, "payload": {"positional": ["Int", "Text"]}}]},
        },
    }
    import json

    source = tmp_path / "odd.json"
    source.write_text(json.dumps(listing))
    out = tmp_path / "odd_tools"
    run = generate(out, listing=source)
    assert run.returncode == 0, run.stderr
    mypy = run_python("-m", "mypy", "--strict", str(out))
    assert mypy.returncode == 0, mypy.stdout
    check = subprocess.run(
        [sys.executable, "-c", "import odd_tools.models as m; print(m.None_.__doc__); print(m.__name__)"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert check.returncode == 0, check.stderr
    assert 'Has """ and a \\ backslash' in check.stdout
    models = (out / "models.py").read_text()
    assert "    A_: A\n" in models and "    from_: flow_toolkit.Some[int | None] | None = None\n" in models
    assert "    int_: int\n" in models and "class None_:" in models
    tools = (out / "tools.py").read_text()
    for line in ("def class_(", "lambda_: int,", "ctx_: str,", "get_sum: models.None_,"):
        assert line in tools


def test_the_keywords_listing_type_checks_lints_and_keeps_its_docs(tmp_path: Path) -> None:
    # tests/examples/keywords.tools.json, the listing every generator is held
    # to: names that are keywords in Python, TypeScript and Rust, names that
    # differ only by case (or spelled like the Tools class), and docs that
    # hold a line of Python after a closing triple quote. Had a doc escaped,
    # mypy would refuse that line; the docstrings must hold it whole.
    listing = REPO / "tests" / "examples" / "keywords.tools.json"
    out = tmp_path / "kw_tools"
    run = generate(out, listing=listing)
    assert run.returncode == 0, run.stderr
    mypy = run_python("-m", "mypy", "--strict", str(out))
    assert mypy.returncode == 0, mypy.stdout
    ruff = run_python("-m", "ruff", "check", "--no-cache", "--config", str(REPO / "ruff.toml"), str(out))
    assert ruff.returncode == 0, ruff.stdout
    probe = 'escaped_python: int = "a docstring ended early"'
    check = subprocess.run(
        [sys.executable, "-c", "import kw_tools as k, kw_tools.models as m; "
         "print(k.KeywordsTools.__module__, m.KeywordsTools_2.__name__); "
         "print(hasattr(m, 'escaped_python')); print(m.Twin.__doc__); print(m.Twin_2.__doc__)"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert check.returncode == 0, check.stderr
    lines = check.stdout.splitlines()
    assert lines[:2] == ["kw_tools.tools KeywordsTools_2", "False"]
    assert check.stdout.count(probe) == 2


def test_a_listing_without_declarations_generates_an_importable_package(tmp_path: Path) -> None:
    import json

    listing = {"data": "0.1", "declarations": {}, "tools": [{
        "tool": "tools/bare.flow.echo", "doc": None, "generic": [],
        "params": [{"name": "text", "type": "Text"}], "ok": "Text", "err": "Never"}]}
    (tmp_path / "bare.json").write_text(json.dumps(listing))
    run = generate(tmp_path / "bare_tools", listing=tmp_path / "bare.json")
    assert run.returncode == 0, run.stderr
    assert run_python("-m", "mypy", "--strict", str(tmp_path / "bare_tools")).returncode == 0
    imported = subprocess.run([sys.executable, "-c", "import bare_tools.__main__"], cwd=tmp_path,
                              capture_output=True, text=True, check=False)
    assert imported.returncode == 0, imported.stderr


def test_a_generic_enum_is_annotated_with_each_constructors_arguments(tmp_path: Path) -> None:
    import json

    # Either<L, R> whose first constructor uses R: an alias would take its
    # type variables as (R, L); uses are written as the union of constructors.
    def param(i: int) -> dict[str, object]:
        return {"Param": {"owner": "1", "index": i}}

    listing = {
        "data": "0.1",
        "tools": [{"tool": "tools/e.flow.pick", "doc": None, "generic": [], "params": [],
                   "ok": {"Named": {"declaration": "1", "args": ["Int", "Text"]}}, "err": "Never"}],
        "declarations": {"1": {
            "name": "Either", "identity": "tools/e.flow.Either", "lexical_ordinal": 1, "generic": ["L", "R"],
            "opaque": False, "kind": "enum", "doc": None, "constructors": [
                {"name": "Right", "doc": None, "payload": {"positional": [param(1)]}},
                {"name": "Left", "doc": None, "payload": {"positional": [param(0)]}},
                {"name": "Neither", "doc": None, "payload": None}]}},
    }
    (tmp_path / "e.json").write_text(json.dumps(listing))
    run = generate(tmp_path / "e_tools", listing=tmp_path / "e.json")
    assert run.returncode == 0, run.stderr
    tools = (tmp_path / "e_tools" / "tools.py").read_text()
    assert "models.EitherRight[str] | models.EitherLeft[int] | models.EitherNeither" in tools
    assert run_python("-m", "mypy", "--strict", str(tmp_path / "e_tools")).returncode == 0


def test_only_the_classes_of_a_tools_error_type_are_raisable(tmp_path: Path) -> None:
    import json

    # The error type is Option<Problem<Text>>, a generic record: its class is
    # a raisable exception, whose field `args` must not hide BaseException's;
    # Detail, only a field of the error, stays plain and keeps its `args`.
    listing = {
        "data": "0.1",
        "tools": [{"tool": "tools/p.flow.check", "doc": None, "generic": [], "params": [], "ok": "Unit",
                   "err": {"Option": {"Named": {"declaration": "1", "args": ["Text"]}}}}],
        "declarations": {
            "1": {"name": "Problem", "identity": "tools/p.flow.Problem", "lexical_ordinal": 1, "generic": ["T"],
                  "opaque": False, "kind": "record", "doc": None, "fields": [
                      {"name": "what", "type": {"Param": {"owner": "1", "index": 0}}, "doc": None},
                      {"name": "detail", "type": {"Named": {"declaration": "2", "args": []}}, "doc": None},
                      {"name": "args", "type": {"List": "Text"}, "doc": None}]},
            "2": {"name": "Detail", "identity": "tools/p.flow.Detail", "lexical_ordinal": 2, "generic": [],
                  "opaque": False, "kind": "record", "doc": None,
                  "fields": [{"name": "code", "type": "Int", "doc": None},
                             {"name": "args", "type": "Text", "doc": None}]},
        },
    }
    (tmp_path / "p.json").write_text(json.dumps(listing))
    run = generate(tmp_path / "p_tools", listing=tmp_path / "p.json")
    assert run.returncode == 0, run.stderr
    models = (tmp_path / "p_tools" / "models.py").read_text()
    assert "@flow_toolkit.raisable\n@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)\n" \
        "class Problem(Exception, typing.Generic[T]):" in models
    assert "@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)\nclass Detail:" in models
    assert models.count("@flow_toolkit.raisable\n") == 1
    assert "    args_: list[str]\n" in models and "    args: str\n" in models
    tools = (tmp_path / "p_tools" / "tools.py").read_text()
    assert "Raise a ``models.Problem[str]`` (or ``flow_toolkit.Failed(error)``)" in tools
    # An implementation that raises it type-checks.
    (tmp_path / "p_tools" / "implementation.py").write_text(
        "from __future__ import annotations\n\nimport flow_toolkit\n\n"
        "from . import models\nfrom .tools import PTools\n\n\n"
        "class Implementation(PTools):\n"
        "    def check(self, *, ctx: flow_toolkit.CallContext) -> None:\n"
        "        raise models.Problem(what=\"x\", detail=models.Detail(code=1, args=\"a\"), args_=[])\n"
    )
    mypy = run_python("-m", "mypy", "--strict", str(tmp_path / "p_tools"))
    assert mypy.returncode == 0, mypy.stdout
    raised = subprocess.run(
        [sys.executable, "-c", "import p_tools.models as m, p_tools.metadata as d\n"
         "try:\n    raise m.Problem(what='x', detail=m.Detail(code=1, args='a'), args_=['b'])\n"
         "except m.Problem as e:\n"
         "    print(e.args, isinstance(e.detail, BaseException))\n"
         "    print(d.CODEC.encode('{\"Named\": {\"declaration\": \"1\", \"args\": [\"Text\"]}}', e))"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert raised.stdout == '() False\n{"args":["b"],"detail":{"args":"a","code":1},"what":"x"}\n', raised.stderr


def test_a_tool_whose_types_cannot_cross_is_refused_as_every_language_refuses_it(tmp_path: Path) -> None:
    import json

    token = {"name": "K", "identity": "t.flow.K", "lexical_ordinal": 1, "generic": [], "opaque": True,
             "kind": "host", "doc": None}
    k = {"Named": {"declaration": "k", "args": []}}
    for type_, expected in [
        ({"Set": k}, "Set<K> has elements that hold a host token (K)"),
        ({"Dict": [{"Tuple": ["Int", k]}, "Int"]}, "Dict<(Int,K),Int> has keys that hold a host token (K)"),
    ]:
        listing = {"data": "0.1", "tools": [{"tool": "t.flow.f", "doc": None, "generic": [],
                                             "params": [{"name": "p", "type": type_}], "ok": "Unit", "err": "Never"}],
                   "declarations": {"k": token}}
        source = tmp_path / "tokens.json"
        source.write_text(json.dumps(listing))
        out = tmp_path / "pkg"
        run = generate(out, listing=source)
        assert run.returncode == 1, run.stderr
        assert "$.tools[0].params[0].type: t.flow.f: parameter p: " in run.stderr, run.stderr
        assert expected in run.stderr, run.stderr
        assert run.stderr.rstrip().endswith("[cannot-cross]"), run.stderr
        assert not out.exists()


FIXTURES = sorted(
    p.name.removesuffix(".tools.json") for p in (REPO / "tests" / "examples").glob("genprop_*.tools.json")
)


def test_the_property_fixtures_are_what_generation_writes_and_type_check(tmp_path: Path) -> None:
    # Listings that once broke a generator (flow-genprop's finds, docs/generators.md):
    # each one's committed package is what flow-gen writes, and passes mypy --strict and ruff.
    assert FIXTURES, "no property test fixtures under tests/examples"
    for name in FIXTURES:
        sample = REPO / "generated-samples" / "python" / name
        out = tmp_path / name
        run = generate(out, listing=REPO / "tests" / "examples" / f"{name}.tools.json")
        assert run.returncode == 0, run.stderr
        files = sorted(p.name for p in sample.iterdir() if p.suffix == ".py")
        assert files == sorted(p.name for p in out.iterdir()), name
        _, mismatch, errors = filecmp.cmpfiles(sample, out, files, shallow=False)
        assert (mismatch, errors) == ([], []), f"{name}: regenerate with scripts/regenerate-samples"
    mypy = run_python("-m", "mypy", "--strict", *(str(REPO / "generated-samples" / "python" / n) for n in FIXTURES))
    assert mypy.returncode == 0, mypy.stdout
    ruff = run_python("-m", "ruff", "check", "--no-cache", "--config", str(REPO / "ruff.toml"),
                      *(str(REPO / "generated-samples" / "python" / n) for n in FIXTURES))
    assert ruff.returncode == 0, ruff.stdout
