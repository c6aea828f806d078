"""TypeScript declarations read by the TypeScript compiler's parser (through Node)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toolform.errors import LoaderError
from toolform.summary import fingerprint

from support.paths import DATA
from toolform import loaders


def test_the_declarations_read_as_the_reference_reads_them() -> None:
    # The source and the tools the reference's /tools/load gave for it.
    expected = json.loads((DATA / "typescript_tools.reference.json").read_text(encoding="utf-8"))
    result = loaders.load("auto", expected["source"])
    assert result.kind == "typescript"
    assert result.toolset.to_dicts() == expected["tools"]
    assert fingerprint(result.toolset) == expected["fingerprint"]
    # What the reference reads silently, named.
    assert any("at $.d: a tuple is read as an array" in w for w in result.warnings)
    assert any("tool 'rec' at $.n.next: the type 'Node' refers to itself" in w for w in result.warnings)


def test_enum_declarations_are_enums() -> None:
    source = 'enum Units { Metric = "metric", Imperial = "imperial" }\nenum Level { Low, High }\n'
    source += "declare function f(u: Units, l: Level): void;"
    params = loaders.load("typescript", source).toolset.tools[0].params
    assert [p.type.to_dict() for p in params] == [
        {"kind": "enum", "enum_values": ["metric", "imperial"], "base": "string"},
        {"kind": "enum", "enum_values": [0, 1], "base": "number"},
    ]


@pytest.mark.parametrize(
    ("source", "message", "line"),
    [
        ("function f(a: string): void;\nf(: ;", "TypeScript syntax error", 2),
        ("\n\ndeclare function f(a: Missing): void;", "unknown type 'Missing'; declare it in the file", 3),
        ("const f = (a: string) => a;", "no function declarations found", None),
        ("declare function f(a: string): void;\ndeclare function f(a: number): void;", "declared more than once", 2),
    ],
)
def test_refusals_name_the_line(source: str, message: str, line: int | None) -> None:
    with pytest.raises(LoaderError, match=message) as caught:
        loaders.load("typescript", source)
    assert caught.value.line == line


def test_a_payload_that_is_not_text_is_refused() -> None:
    with pytest.raises(LoaderError, match="must be the source text"):
        loaders.load("typescript", {"a": 1})


def test_node_readers_are_bounded_in_number_and_each_in_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from toolform.errors import TooManyJobs
    from toolform.loaders import typescript
    from toolform.loaders.notes import Notes

    # A reader that never answers (as Node on declarations that explode), with short bounds for the test.
    stuck = tmp_path / "stuck.js"
    stuck.write_text("setInterval(() => {}, 1000);\n")
    monkeypatch.setattr(typescript, "SCRIPT", stuck)
    monkeypatch.setattr(typescript, "TIMEOUT_SECONDS", 3)
    monkeypatch.setattr(typescript, "QUEUE_SECONDS", 0.5)
    readers = threading.BoundedSemaphore(typescript.MAX_READERS)
    monkeypatch.setattr(typescript, "_readers", readers)
    refusals: list[Exception] = []

    def read() -> None:
        try:
            typescript.load("declare function f(x: string): void;", Notes())
        except Exception as error:
            refusals.append(error)

    running = [threading.Thread(target=read) for _ in range(typescript.MAX_READERS)]
    for thread in running:
        thread.start()
    while readers._value > 0:  # every reader taken
        threading.Event().wait(0.01)
    # One more waits for a reader, then is refused (429 too_many_jobs) naming how many run at once.
    with pytest.raises(TooManyJobs, match=f"{typescript.MAX_READERS} TypeScript readings are under way"):
        typescript.load("declare function g(): void;", Notes())
    for thread in running:
        thread.join()
    # Each stuck reader was stopped at its time limit, and its reader freed.
    assert len(refusals) == typescript.MAX_READERS
    assert all(isinstance(e, LoaderError) and "did not finish within 3 s" in str(e) for e in refusals), refusals
    assert readers._value == typescript.MAX_READERS
