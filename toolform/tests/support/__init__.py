"""What the tests share that is not a fixture, imported as ``from support.MODULE import NAME``.

Places and processes:
    paths             the repository's folders and the tests' data/
    serving           `toolform serve` (ours or the reference's) on a free loopback port
    reference_sdk     the reference's SDK in a subprocess of its own venv
    scripted_endpoint a model endpoint on loopback that answers from a script
    local_model       the local llama.cpp model server
    browser           Debian's Chromium through Playwright, its requests audited
    flow_exact_tool   a Flow Tool process of Decimal arithmetic

Inputs, seeded so that a failing case reproduces:
    toolsets, tools_cases, catalogues, parse_corpus, adversarial, guard_generated,
    guard_corpora, advisor_situations, measure_cases, call_tools

The evidence as files:
    evidence_files (read straight from disk), evidence_sets (copies damaged on purpose),
    tools_evidence and render_fixtures (the parity fixtures through the package's reader)

The differential harness:
    differential (one request to both servers, compared), differences (the server's named
    differences), and each area's named differences: render_differences, parse_differences,
    guard_differences, advisor_differences, adversarial_differences

Recorded answers:
    answer_bytes (the parse and render routes' answer digests; ``python -m support.answer_bytes
    --write`` from toolform/tests writes data/answer_bytes.json again)
"""
