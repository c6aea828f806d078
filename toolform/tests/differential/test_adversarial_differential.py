"""The adversarial differential: hostile tool sets and replies, ours against the reference, byte for byte.

Each seeded set (adversarial.py) holds what breaks formats in its names,
descriptions, enum values, defaults and examples. The reference loads it into
its IR (so both sides render the very same IR), then both render it in every
format, each with one of the 192 option combinations (so that the sets
together cycle through all of them) and a protocol among the 31 (or the
format's default), and the whole answers are compared: tool block,
instructions, system prompt, sizes, warnings, hidden fields. Each set's
two-stage prompt (the names-first index, with and without descriptions, for a
hostile request) goes to both servers and the answers are compared whole. Replies of every
kind models write (calls in each protocol's syntax, declined in words, in prose,
several, cut off, fenced, behind reasoning, natural-language intents, invented
tools, other protocols' syntax) are parsed under every protocol and the whole
verdicts compared.

The reference runs as a black box through its SDK in its own venv
(toolform/reference/driver.py). What we mean to differ in is named, with a reason, in
render_differences.py, parse_differences.py and adversarial_differences.py (what is seen but not matched);
anything else fails the test with the set's seed, which reproduces it.

    TOOLFORM_ADVERSARIAL_SETS   how many sets rendered (12 in CI; thousands by hand: make toolform-adversarial)
    TOOLFORM_ADVERSARIAL_FIRST  the first seed (0)
    TOOLFORM_ADVERSARIAL_NAMES  1: hostile tool and parameter names too (the default keeps them identifiers)
    TOOLFORM_ADVERSARIAL_PARSE  1: parse the replies of as many sets as are rendered (40 otherwise)
"""

from __future__ import annotations

import collections
import itertools
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from toolform.errors import ToolFormError
from toolform.loaders import load
from toolform.parse import parse_reply
from toolform.render import RenderOptions, render

from support import adversarial, adversarial_differences, parse_differences, render_differences
from support.differences import Request
from support.differential import compare, mismatches
from support.evidence_files import evidence_json
from support.parse_corpus import Case
from support.reference_sdk import ReferenceSdk
from support.serving import Server
from toolform import jsontext

SETS = int(os.environ.get("TOOLFORM_ADVERSARIAL_SETS", "12"))
FIRST = int(os.environ.get("TOOLFORM_ADVERSARIAL_FIRST", "0"))
HOSTILE_NAMES = os.environ.get("TOOLFORM_ADVERSARIAL_NAMES", "0") == "1"
#: The parse half: 40 seeded sets (31 replies each) in CI; TOOLFORM_ADVERSARIAL_PARSE=1 parses as many sets as
#: the render half (the long run by hand).
PARSE_SETS = SETS if os.environ.get("TOOLFORM_ADVERSARIAL_PARSE", "0") == "1" else 40
FORMATS = [f for f, entry in evidence_json("formats")["data"].items() if not entry["two_stage"]]
PROTOCOLS = list(evidence_json("protocols")["data"])
OPTION_CHOICES: dict[str, list[Any]] = {
    "descriptions": [True, False],
    "constraints": [True, False],
    "defaults": [True, False],
    "returns": [True, False],
    "minify": [False, True],
    "case_convention": ["as_is", "snake", "camel", "pascal", "kebab", "screaming"],
}
COMBINATIONS = [
    dict(zip(OPTION_CHOICES, values, strict=True)) for values in itertools.product(*OPTION_CHOICES.values())
]

#: Named differences used over the session, and the unexplained ones, for the long run's summary.
USED: collections.Counter[str] = collections.Counter()
COMPARED: collections.Counter[str] = collections.Counter()


@pytest.fixture(scope="module")
def reference_sdk() -> Iterator[ReferenceSdk]:
    with ReferenceSdk() as sdk:
        yield sdk


def reference_ir(sdk: ReferenceSdk, seed: int) -> dict[str, Any] | None:
    """The set as the reference's loader reads it (None when it refuses the set)."""
    loaded = sdk.ask({"op": "load", "tools": adversarial.tool_set(seed, HOSTILE_NAMES), "source": "openai"})
    ir: dict[str, Any] | None = loaded.get("ok")
    return ir


def render_cases(seed: int) -> Iterator[tuple[str, str | None, dict[str, Any]]]:
    """(format, protocol, options) for each format: the combinations and protocols in turn across sets."""
    for index, format_id in enumerate(FORMATS):
        options = COMBINATIONS[(seed * len(FORMATS) + index) % len(COMBINATIONS)]
        protocols: list[str | None] = [None, *PROTOCOLS]
        yield format_id, protocols[(seed * 7 + index) % len(protocols)], options


def _ours_render(ir: dict[str, Any], format_id: str, protocol: str | None, options: dict[str, Any]) -> Any:
    try:
        return render(ir, format_id, protocol, RenderOptions(**options)).to_dict()
    except ToolFormError as error:
        return {"refused": type(error).__name__}


def render_mismatches(sdk: ReferenceSdk, seed: int, ir: dict[str, Any]) -> list[str]:
    found = []
    for format_id, protocol, options in render_cases(seed):
        request = {"op": "render", "tools": ir, "source": "ir", "format": format_id, "protocol": protocol,
                   "options": options}  # fmt: skip
        answer = sdk.ask(request)
        theirs = answer.get("ok", {"refused": answer.get("error")})
        ours = json.loads(jsontext.dumps(_ours_render(ir, format_id, protocol, options)))
        COMPARED["render"] += 1
        if "refused" in theirs or "refused" in ours:
            if ("refused" in theirs) != ("refused" in ours):
                found.append(f"{format_id}: refused by one side only: ours {ours.get('refused')}, theirs {answer}")
            continue
        USED.update(render_differences.adjust(ours, theirs))
        USED.update(adversarial_differences.adjust_render(ir, options, ours, theirs))
        found += [f"{format_id} {protocol} {json.dumps(options)}: {m}" for m in mismatches(ours, theirs)[:3]]
    return found


def parse_mismatches(sdk: ReferenceSdk, seed: int, ir: dict[str, Any]) -> list[str]:
    tools = load("ir", ir).toolset
    hostile = adversarial_differences.reply_names_are_hostile(ir)
    found = []
    for kind, protocol, text, options in adversarial.replies(seed, adversarial.tool_set(seed, HOSTILE_NAMES),
                                                             PROTOCOLS):  # fmt: skip
        answer = sdk.ask({"op": "parse", "tools": ir, "source": "ir", "text": text, "protocol": protocol, **options})
        theirs = answer.get("ok", {"refused": answer.get("error")})
        try:
            ours = json.loads(jsontext.dumps(parse_reply(tools, text, protocol, **options).to_dict()))
        except ToolFormError as error:
            ours = {"refused": type(error).__name__}
        COMPARED["parse"] += 1
        if "refused" in theirs or "refused" in ours:
            if adversarial_differences.reference_raises(ours, theirs):
                USED["reference-raises-on-non-finite-values"] += 1
            elif ("refused" in theirs) != ("refused" in ours):
                found.append(f"{protocol} {kind} {text[:80]!r}: refused by one side only")
            continue
        case = Case(kind, protocol, text, options)
        before = [d.needed for d in parse_differences.DIFFERENCES]
        ours, theirs = parse_differences.adjust(case, ours, theirs)
        USED.update(d.name for d, n in zip(parse_differences.DIFFERENCES, before, strict=True) if d.needed > n)
        ours, theirs, open_used = adversarial_differences.adjust_parse(case, ours, theirs, hostile)
        USED.update(open_used)
        COMPARED["parse verdicts set aside in part"] += bool(open_used)
        found += [f"{protocol} {kind} {text[:80]!r} {options}: {m}" for m in mismatches(ours, theirs)[:3]]
    return found


@pytest.mark.parametrize("seed", range(FIRST, FIRST + SETS))
def test_hostile_tool_sets_render_as_the_reference(reference_sdk: ReferenceSdk, seed: int) -> None:
    ir = reference_ir(reference_sdk, seed)
    assert ir is not None or HOSTILE_NAMES, f"the reference refused set {seed}"
    found = render_mismatches(reference_sdk, seed, ir) if ir is not None else []
    USED["unexplained render"] += len(found)
    assert not found, f"seed {seed}: {len(found)} unexplained\n" + "\n".join(found[:20])


@pytest.mark.parametrize("seed", range(FIRST, FIRST + SETS))
def test_hostile_tool_sets_two_stage_prompts_as_the_reference(ours: Server, reference: Server, seed: int) -> None:
    """The two-stage index (its summaries cut from hostile descriptions) and prompt, through both servers."""
    for include_descriptions in (True, False):
        body = {
            "tools": {"source": "openai", "payload": adversarial.tool_set(seed, HOSTILE_NAMES)},
            "request": adversarial.hostile_request(seed),
            "include_descriptions": include_descriptions,
        }
        found = compare(ours, reference, Request("POST", "/api/v1/catalogue/two-stage/prompt", body))
        COMPARED["two-stage prompt"] += 1
        USED["unexplained two-stage"] += len(found)
        assert not found, f"seed {seed} include_descriptions {include_descriptions}:\n  " + "\n  ".join(found[:12])


@pytest.mark.parametrize("seed", range(FIRST, FIRST + PARSE_SETS))
def test_hostile_replies_parse_as_the_reference(reference_sdk: ReferenceSdk, seed: int) -> None:
    ir = reference_ir(reference_sdk, seed)
    assert ir is not None or HOSTILE_NAMES, f"the reference refused set {seed}"
    found = parse_mismatches(reference_sdk, seed, ir) if ir is not None else []
    USED["unexplained parse"] += len(found)
    assert not found, f"seed {seed}: {len(found)} unexplained\n" + "\n".join(found[:20])


def test_the_sets_hold_what_breaks_formats() -> None:
    """Every piece class is in the pool, and a few sets already carry most of it."""
    for piece in ("'", '"', "\\", "\n", "\t", "#", ":", "&", "<", "]]>", "*/", "--", "yes", "null", "~", "- ", "!",
                  "%", "@", "`", " ", "caf\u00e9", "\u202e", "\u200b"):  # fmt: skip
        assert piece in adversarial.PIECES
    text = json.dumps([adversarial.tool_set(seed) for seed in range(20)], ensure_ascii=False)
    assert sum(piece in text for piece in adversarial.PIECES) > 0.8 * len(adversarial.PIECES)
    assert len(COMBINATIONS) == 192 and len(PROTOCOLS) == 31


@pytest.mark.parametrize("difference", adversarial_differences.RENDER, ids=lambda d: d.name)
def test_every_open_render_difference_is_still_needed(reference_sdk: ReferenceSdk, difference: Any) -> None:
    """The witness set still differs in a render the difference touches, and the difference explains it."""
    loaded = reference_sdk.ask(
        {"op": "load", "tools": adversarial.tool_set(difference.witness, difference.hostile_names), "source": "openai"}
    )
    ir = loaded.get("ok")
    assert ir is not None
    explained = 0
    for format_id, protocol, options in render_cases(difference.witness):
        if not difference.touches(ir, options):
            continue
        request = {"op": "render", "tools": ir, "source": "ir", "format": format_id, "protocol": protocol,
                   "options": options}  # fmt: skip
        theirs = reference_sdk.ask(request)["ok"]
        ours = json.loads(jsontext.dumps(_ours_render(ir, format_id, protocol, options)))
        render_differences.adjust(ours, theirs)
        if mismatches(ours, theirs) and adversarial_differences.adjust_render(ir, options, ours, theirs):
            explained += 1
            assert mismatches(ours, theirs) == []
    assert explained > 0


@pytest.mark.parametrize("difference", adversarial_differences.PARSE, ids=lambda d: d.name)
def test_every_open_parse_difference_is_still_needed(reference_sdk: ReferenceSdk, difference: Any) -> None:
    """A reply of the witness set still differs, the difference touches it, and nothing else is left."""
    tool_set = adversarial.tool_set(difference.witness, difference.hostile_names)
    loaded = reference_sdk.ask({"op": "load", "tools": tool_set, "source": "openai"})
    ir = loaded["ok"]
    tools = load("ir", ir).toolset
    hostile = adversarial_differences.reply_names_are_hostile(ir)
    explained = 0
    for kind, protocol, text, options in adversarial.replies(difference.witness, tool_set, PROTOCOLS):
        request = {"op": "parse", "tools": ir, "source": "ir", "text": text, "protocol": protocol, **options}
        theirs = reference_sdk.ask(request)["ok"]
        ours = json.loads(jsontext.dumps(parse_reply(tools, text, protocol, **options).to_dict()))
        case = Case(kind, protocol, text, options)
        ours, theirs = parse_differences.adjust(case, ours, theirs)
        if mismatches(ours, theirs) and difference.touches(case, ours, theirs, hostile):
            ours, theirs, _ = adversarial_differences.adjust_parse(case, ours, theirs, hostile)
            assert mismatches(ours, theirs) == []
            explained += 1
    assert explained > 0


def test_the_reference_still_raises_on_its_witness(reference_sdk: ReferenceSdk) -> None:
    """A reply of the witness set still makes the reference raise where ours answers."""
    seed = adversarial_differences.REFERENCE_RAISES_WITNESS
    tool_set = adversarial.tool_set(seed, hostile_names=False)
    ir = reference_sdk.ask({"op": "load", "tools": tool_set, "source": "openai"})["ok"]
    tools = load("ir", ir).toolset
    raised = 0
    for _kind, protocol, text, options in adversarial.replies(seed, tool_set, PROTOCOLS):
        answer = reference_sdk.ask({"op": "parse", "tools": ir, "source": "ir", "text": text, "protocol": protocol,
                                    **options})  # fmt: skip
        ours = json.loads(jsontext.dumps(parse_reply(tools, text, protocol, **options).to_dict()))
        raised += adversarial_differences.reference_raises(
            ours, {"refused": answer.get("error")} if "error" in answer else {}
        )
    assert raised > 0


def test_summary() -> None:
    """Runs last in this file: what was compared, and which named differences were used (see -s)."""
    print(f"\nadversarial differential: sets {FIRST}..{FIRST + SETS - 1}, hostile names {HOSTILE_NAMES}, "
          f"compared {dict(COMPARED)}, differences used {dict(USED)}")  # fmt: skip
