"""Drives a Flow Tool served over MCP with an official client and checks
what came back: one harness for the weather Tool of every language.

    drive.py CLIENT PLAN -- CMD ARGS...

CLIENT is `python-auto` (the Python SDK's Client, which probes
`server/discover` and stays in the 2026-07-28 era), `python-legacy` (the
same, with the `initialize` handshake) or `typescript` (the TypeScript SDK's
Client with StdioClientTransport, handshake era only). PLAN is a JSON file:

    {"tools":  {NAME: {"description": ..., "required": [...], "outputSchema": ...}, ...},
     "calls":  [{"name": ..., "arguments": {...}, "expect": EXPECT}, ...],
     "cancel": {"name": ..., "arguments": {...}},     a call that waits for its cancel
     "then":   {"name": ..., "arguments": {...}, "expect": EXPECT}}

`tools` lists every tool in order, each with what its listing must hold
(any of the three members). EXPECT is one of `{"ok": V}` (structured content
V, and V's JSON in the one text block), `{"failed": V}` (an `isError` result
whose one text block is V's JSON, with no structured content) or
`{"text": T}` (an `isError` result whose text is T; a T ending in `...`
matches any rest).

The Tool runs behind record.py, so the check also covers the lines
themselves: the era each client speaks, the cancel sent with the waiting
call's id and never answered, and the Tool ending by itself (status 0) once
its input ended, which it does only after its running calls end: so the
cancel reached the waiting call. Exits 0 saying `ok`, else 1 saying what
differed. The standard library only; run it with the MCP venv's Python,
whose SDK the Python client needs.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


class Mismatch(Exception):
    pass


def expect(condition, what, *context):
    if not condition:
        raise Mismatch("\n".join([what, *(json.dumps(c, sort_keys=True) for c in context)]))


def client_command(client, plan_text):
    if client in ("python-auto", "python-legacy"):
        mode = client.split("-", 1)[1]
        return [sys.executable, os.path.join(HERE, "python_client.py"), mode, plan_text]
    if client == "typescript":
        return ["node", os.path.join(HERE, "ts_client.mjs"), plan_text]
    raise SystemExit(f"drive.py: unknown client {client!r}\n{__doc__}")


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def text_of(result):
    content = result.get("content", [])
    expect(len(content) == 1 and content[0].get("type") == "text", "not one text block", result)
    return content[0]["text"]


def check_result(step, result):
    wanted = step["expect"]
    is_error = result.get("isError") is True
    if "ok" in wanted:
        expect(not is_error and result.get("structuredContent") == wanted["ok"], "not the expected Ok", step, result)
        text = json.loads(text_of(result))
        expect(text == wanted["ok"], "the text block is not the structured content", step, result)
    elif "failed" in wanted:
        bare = is_error and "structuredContent" not in result
        expect(bare, "not an error result without structured content", step, result)
        expect(json.loads(text_of(result)) == wanted["failed"], "not the expected declared error", step, result)
    elif "text" in wanted:
        text = text_of(result) if is_error else None
        prefix = wanted["text"][:-3] if wanted["text"].endswith("...") else None
        matches = text is not None and (text.startswith(prefix) if prefix is not None else text == wanted["text"])
        expect(matches, "not the expected error text", step, result)
    else:
        raise Mismatch(f"a plan step expects ok, failed or text: {step}")


def check_tools(plan, report):
    tools = report["tools"]
    expect([t["name"] for t in tools] == list(plan["tools"]), "not the tools of the plan", [t["name"] for t in tools])
    for tool in tools:
        wanted = plan["tools"][tool["name"]]
        expect(tool["inputSchema"].get("type") == "object", "an inputSchema that is no object", tool)
        expect(tool.get("outputSchema", {}).get("type") == "object", "an outputSchema that is no object", tool)
        if "description" in wanted:
            expect(tool.get("description") == wanted["description"], "not the description", wanted, tool)
        if "required" in wanted:
            required = tool["inputSchema"].get("required", [])
            expect(required == wanted["required"], "not the required arguments", wanted, tool)
        if "outputSchema" in wanted:
            expect(tool["outputSchema"] == wanted["outputSchema"], "not the outputSchema", wanted, tool)


def check_era(client, report, sent, received):
    methods = [line.get("method") for line in sent]
    results = [line["result"] for line in received if "result" in line]
    if client == "python-auto":
        expect(report["protocolVersion"] == "2026-07-28", "not the 2026-07-28 era", report["protocolVersion"])
        discovered = methods[0] == "server/discover" and "initialize" not in methods
        expect(discovered, "not a discover without handshake", methods)
        complete = all(r.get("resultType") == "complete" for r in results)
        expect(complete, "a 2026-07-28 result without resultType complete")
    else:
        expect(methods[:2] == ["initialize", "notifications/initialized"], "not the initialize handshake", methods)
        expect(all("resultType" not in r for r in results), "a handshake-era result with resultType")
        asked = sent[0]["params"]["protocolVersion"]
        expect(received[0]["result"]["protocolVersion"] == asked, "not the version asked for", asked, received[0])
        if client == "python-legacy":
            expect(report["protocolVersion"] == asked, "the client did not agree", report["protocolVersion"])


def check_cancel(plan, report, sent, received, status):
    raised = report["cancel"].get("raised", "")
    expect("timed out" in raised.lower(), "the waiting call did not time out on the client", report["cancel"])
    waiting = [line for line in sent if line.get("params", {}).get("arguments") == plan["cancel"]["arguments"]]
    expect(len(waiting) == 1, "the waiting call was not sent once", waiting)
    request_id = waiting[0]["id"]
    cancels = [line for line in sent if line.get("method") == "notifications/cancelled"]
    cancelled = len(cancels) == 1 and cancels[0]["params"]["requestId"] == request_id
    expect(cancelled, "no cancel of the waiting call", cancels)
    expect(all(line.get("id") != request_id for line in received), "a response to the cancelled request", request_id)
    expect(status == "0", "the Tool did not end by itself once its input ended", status)


def main():
    client, plan_path, dash, *command = sys.argv[1:]
    if dash != "--" or not command:
        raise SystemExit(__doc__)
    with open(plan_path, encoding="utf-8") as f:
        plan_text = f.read()
    plan = json.loads(plan_text)
    record = tempfile.mkdtemp(prefix="flow-mcp-")
    try:
        recorded = [sys.executable, os.path.join(HERE, "record.py"), record, "--", *command]
        run = subprocess.run([*client_command(client, plan_text), "--", *recorded], stdout=subprocess.PIPE)
        if run.returncode != 0:
            raise Mismatch(f"the {client} client failed ({run.returncode}):\n{run.stdout.decode(errors='replace')}")
        report = json.loads(run.stdout)
        sent, received = lines(os.path.join(record, "in")), lines(os.path.join(record, "out"))
        status_path = os.path.join(record, "status")
        status = open(status_path).read().strip() if os.path.exists(status_path) else "(none: it was stopped)"
        check_era(client, report, sent, received)
        check_tools(plan, report)
        expect(len(report["calls"]) == len(plan["calls"]), "not one result per call")
        for step, result in zip(plan["calls"], report["calls"], strict=True):
            check_result(step, result)
        check_result(plan["then"], report["then"])
        check_cancel(plan, report, sent, received, status)
    except Mismatch as e:
        print(f"drive.py {client} {plan_path}: {e}")
        sys.exit(1)
    finally:
        shutil.rmtree(record, ignore_errors=True)
    print(f"ok: {client} {os.path.basename(plan_path)}: {len(plan['calls']) + 2} calls")


main()
