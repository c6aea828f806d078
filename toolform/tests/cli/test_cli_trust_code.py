"""Every verb that reads a tools file imports a Python one only with --trust-code: refused, it runs nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli import toolform

#: A port nothing listens on: the verbs that ask a model fail there, after reading the tools.
CLOSED = "http://127.0.0.1:9/v1"

#: Each verb that reads a tools file, with what else it needs; the tools file goes in place of TOOLS.
VERBS: list[list[str]] = [
    ["convert", "TOOLS", "--to", "ir"],
    ["inspect", "TOOLS"],
    ["render", "TOOLS", "--format", "json_minimal"],
    ["guard", "TOOLS"],
    ["parse", "TOOLS", "--protocol", "json_object", "--text", "{}"],
    ["catalogue", "TOOLS", "--query", "time"],
    ["recommend", "--model", "Qwen/Qwen3-8B", "--tools-file", "TOOLS"],
    ["call", "TOOLS", "--request", "the time in Oslo", "--model", "m", "--format", "json_minimal",
     "--base-url", CLOSED],
    ["ab-test", "--tools-file", "TOOLS", "--model", "m", "--base-url", CLOSED, "--formats", "json_minimal",
     "--examples", "EXAMPLES", "--no-evidence"],
]


def _files(tmp_path: Path, name: str) -> tuple[Path, Path, Path]:
    tools, ran, examples = tmp_path / name, tmp_path / "ran", tmp_path / "examples.jsonl"
    # Importing the file leaves a mark, so a refusal can be seen to have run nothing.
    tools.write_text(
        f"from pathlib import Path\nPath({str(ran)!r}).write_text('ran')\n\n\n"
        'def get_time(city: str) -> str:\n    """The time in a city."""\n    return city\n',
        encoding="utf-8",
    )
    examples.write_text('{"request": "the time in Oslo", "calls": [{"name": "get_time", "arguments": '
                        '{"city": "Oslo"}}]}\n', encoding="utf-8")
    return tools, ran, examples


def _arguments(verb: list[str], tools: Path, examples: Path) -> list[str]:
    return [str(tools) if a == "TOOLS" else str(examples) if a == "EXAMPLES" else a for a in verb]


@pytest.mark.parametrize("verb", VERBS, ids=lambda verb: verb[0])
def test_every_verb_refuses_a_py_file_without_trust_code_and_runs_nothing(verb: list[str], tmp_path: Path) -> None:
    tools, ran, examples = _files(tmp_path, "tools.py")
    refused = toolform(*_arguments(verb, tools, examples))
    assert refused.returncode == 3, refused.stderr
    assert "pass --trust-code to allow it" in refused.stderr
    assert not ran.exists()
    trusted = toolform(*_arguments(verb, tools, examples), "--trust-code")
    assert "--trust-code" not in trusted.stderr
    assert ran.exists(), trusted.stderr


@pytest.mark.parametrize("verb", [VERBS[0], VERBS[6]], ids=lambda verb: verb[0])
def test_python_named_with_from_is_refused_whatever_the_file_is_called(verb: list[str], tmp_path: Path) -> None:
    tools, ran, examples = _files(tmp_path, "tools.txt")
    refused = toolform(*_arguments(verb, tools, examples), "--from", "python")
    assert refused.returncode == 3 and "pass --trust-code to allow it" in refused.stderr
    assert not ran.exists()


def test_a_verb_that_completes_offline_gives_the_tools_once_trusted(tmp_path: Path) -> None:
    tools, _, examples = _files(tmp_path, "tools.py")
    done = toolform(*_arguments(VERBS[1], tools, examples), "--trust-code", "--json")
    assert done.returncode == 0, done.stderr
    assert '"get_time"' in done.stdout
