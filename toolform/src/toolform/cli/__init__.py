"""The ``toolform`` command: one module per verb, each with ``add_parser`` and ``run``.

Results go to stdout, messages and logs to stderr. Exit status: 0 done, 1 a check
failed (doctor), 2 a usage error, 3 an error the message explains, 141 (the shell's
SIGPIPE convention) when the reader of stdout went away (``toolform formats | head``),
quietly.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import traceback
from collections.abc import Callable

from toolform.cli import (
    ab_test,
    catalogue,
    convert,
    doctor,
    evidence,
    guard,
    inspect,
    recommend,
    registry,
    serve,
    version,
)
from toolform.cli import call as call_verb
from toolform.cli import parse as parse_verb
from toolform.cli import render as render_verb
from toolform.environment import env_flag
from toolform.errors import ToolFormError

EXIT_ERROR = 3
#: 128 + SIGPIPE, what a shell reports for a writer whose reader closed the pipe.
EXIT_BROKEN_PIPE = 141

Verb = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolform",
        description=(
            "ToolForm: convert and inspect tool definitions for language models, and read the study's "
            "evidence (129 formats, 31 answer protocols, 112 models)."
        ),
    )
    parser.add_argument(
        "--debug", action="store_true", help="show the full traceback of an error (the same as TOOLFORM_DEBUG=1)"
    )
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    verb_modules = (
        version, doctor, evidence, registry, inspect, render_verb, parse_verb, convert, guard, catalogue, recommend,
        serve,
    )
    for module in (*verb_modules, ab_test, call_verb):
        module.add_parser(verbs)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one verb; an error is one line on stderr (the traceback too with --debug)."""
    arguments = build_parser().parse_args(argv)
    run: Verb = arguments.run
    _escape_lone_surrogates()
    debug = arguments.debug or env_flag("TOOLFORM_DEBUG")
    try:
        status = run(arguments)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not as a message at exit
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except (ToolFormError, OSError) as error:
        if debug:
            traceback.print_exc()
        message = error.detail if isinstance(error, ToolFormError) else str(error)
        print(f"error: {message}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


def _escape_lone_surrogates() -> None:
    """Write a lone surrogate (a model's reply may hold one, escaped) as ``\\ud800``: UTF-8 cannot carry it."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of a closed pipe says nothing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
