"""scripts/lib/shown.sh, which scripts/demo shows its commands with: a shown
command pastes into a shell and runs as the same words, and a Tool process's
stderr is labelled apart from flow-host's own lines."""

from __future__ import annotations

import subprocess

import pytest

from conftest import REPO

SHOWN = REPO / "scripts" / "lib" / "shown.sh"

AWKWARD = [
    "--type-arg=T={\"Named\":{\"declaration\":\"2\",\"args\":[]}}",
    "--args",
    '{"city":"Zürich","days":2,"units":"None"}',
    "it's",
    "",
    "two words",
    "$HOME",
    "a;b|c&d",
    "plain/path-1.json",
]


def bash(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", f". {SHOWN}\n{script}", "bash", *args],
                          capture_output=True, text=True, timeout=30, check=False)


@pytest.mark.parametrize("word", AWKWARD)
def test_a_shown_word_pastes_back_as_itself(word: str) -> None:
    shown = bash('shown printf "<%s>" "$@"', word)
    assert shown.returncode == 0
    assert shown.stdout == f"<{word}>"
    line = shown.stderr.removeprefix("$ ").removesuffix("\n")
    # Pasted into a fresh shell, the line runs the same command with the same words.
    pasted = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=30, check=False)
    assert pasted.stdout == f"<{word}>", line


def test_all_words_at_once_and_plain_ones_unquoted() -> None:
    shown = bash('shown_words=$(shell_words "$@"); printf "%s" "$shown_words"', *AWKWARD)
    pasted = subprocess.run(["bash", "-c", f"printf '<%s>' {shown.stdout}"], capture_output=True, text=True,
                            timeout=30, check=False)
    assert pasted.stdout == "".join(f"<{w}>" for w in AWKWARD)
    assert bash('shell_words flow-host call x.json get_forecast').stdout == "flow-host call x.json get_forecast"


def test_a_tool_process_stderr_is_labelled_and_the_status_kept() -> None:
    run = bash("labelled_stderr bash -c 'echo out; echo \"flow-host: a host line\" >&2; "
               "echo \"Traceback (most recent call last):\" >&2; exit 3'; echo \"status $?\"")
    assert run.stdout == "out\nstatus 3\n"
    assert run.stderr == ("flow-host: a host line\n"
                          "  [Tool process stderr] Traceback (most recent call last):\n")
