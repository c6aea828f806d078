#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target into OUT/<target>/, from the
shared vectors (tests/vectors), the example listings, JSONTestSuite and a few
protocol transcripts written here. Run by scripts/fuzz before each run, so
the seeds follow the vectors and nothing generated is committed.

Usage: fuzz/seeds.py OUT [JSONTestSuite/test_parsing]
"""

import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VECTORS = REPO / "tests" / "vectors"


class Raw:
    """A number kept as its own text: Python's floats would round 1e400 or
    0.1000000000000000000001, and the seeds must say what the vectors say."""

    def __init__(self, text):
        self.text = text


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=Raw, parse_int=Raw)


def dump(value):
    """Compact JSON on one line (a decode seed's term must not hold a newline)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dump(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def compact_file(path):
    return dump(load(path)).encode()


class Corpus:
    def __init__(self, out):
        self.out = Path(out)
        self.counts = {}

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode()
        folder = self.out / target
        folder.mkdir(parents=True, exist_ok=True)
        # Named by content, as libFuzzer names its own: duplicates collapse.
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        self.counts[target] = self.counts.get(target, 0) + 1


def rpc(method, params, id=None):
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    if id is not None:
        message["id"] = id
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


WEATHER = "github.com/acme/weather@1.2.0/weather.flow."
GROW = "github.com/example/rec@1.0.0/rec.flow.grow"


def json_seeds(corpus, suite):
    if suite is not None:
        for path in sorted(suite.glob("*.json")):
            corpus.add("json", path.read_bytes())
    for name in ["canonical.json", "decode-primitives.json"]:
        for case in load(VECTORS / name)["cases"]:
            if "input" in case:
                corpus.add("json", case["input"])
            elif "input_hex" in case:
                corpus.add("json", bytes.fromhex(case["input_hex"]))


def decode_seeds(corpus):
    for path in sorted(VECTORS.glob("decode-*.json")) + [VECTORS / "canonical.json"]:
        for case in load(path)["cases"]:
            term = dump(case["type"]).encode()
            if "input" in case:
                value = case["input"].encode()
            else:
                value = bytes.fromhex(case["input_hex"])
            corpus.add("decode", term + b"\n" + value)
    # The recursive generic fixture.
    tree = '{"Named":{"declaration":"tree","args":[{"Option":"Text"}]}}'
    chain = '{"Named":{"declaration":"chain","args":[{"Tuple":["Int","Decimal"]}]}}'
    trie = '{"Named":{"declaration":"trie","args":["Int"]}}'
    zig = '{"Named":{"declaration":"zig","args":["Bytes","Bool"]}}'
    ok = '{"Named":{"declaration":"tree","args":[{"Set":{"Named":{"declaration":"chain","args":["Instant"]}}}]}}'
    for term, value in [
        (tree, '{"value":{"Some":"a"},"kids":[{"value":"None","kids":[]},{"value":{"Some":"b"},"kids":[{"value":"None","kids":[]}]}]}'),
        (chain, '{"Link":{"head":[1,2.50],"tail":{"Fork":[{"Link":{"head":[-3,1e2],"tail":"End"}},{"Some":"End"}]}}}'),
        (chain, '{"Fork":["End","None"]}'),
        (trie, '{"next":[[2,{"next":[],"keys":[]}],[1,{"end":null,"next":[],"keys":[[1,2],[]]}]],"keys":[[3]]}'),
        (zig, '{"a":"AAEC","zag":{"Turn":{"a":true,"zag":{"Stop":"AAEC"}}}}'),
        (ok, '{"value":["End",{"Link":{"head":"2024-03-01T05:00:00Z","tail":"End"}}],"kids":[]}'),
    ]:
        corpus.add("decode", term + "\n" + value)


def listing_seeds(corpus):
    for path in sorted((REPO / "tests" / "examples").glob("*.tools.json")) + [REPO / "fuzz" / "fixtures" / "recursive.tools.json"]:
        corpus.add("listing", compact_file(path))
    for path in sorted(VECTORS.glob("*.json")):
        file = load(path)
        if isinstance(file.get("listing"), dict):
            corpus.add("listing", dump(file["listing"]))
        if file["kind"] != "listing":
            continue
        for case in file["cases"]:
            if "listing" in case:
                corpus.add("listing", dump(case["listing"]))
            else:
                corpus.add("listing", case["listing_text"])


def call(run, call_id, tool, args, **views):
    return rpc("call", {"run": run, "call": call_id, "tool": WEATHER + tool if "/" not in tool else tool, "args": args, **views})


def server_seeds(corpus):
    forecast = {"city": "Oslo", "days": 2, "units": {"Some": "Metric"}}
    lines = [
        '{"id":1,"jsonrpc":"2.0","method":"describe","params":{}}',
        call("r", "c1", "get_forecast", forecast),
        call("r", "c2", "list_stations", {"region": {"name": "Earth", "children": [{"name": "Norway", "children": []}]}, "cursor": "None"}),
        call("r", "c3", "station_history", {"station": 7, "since": "2024-03-01T05:00:00Z", "window": "PT1H30M", "counts": [[1, 2], [3, 4]]}),
        rpc("cancel", {"run": "r", "call": "c1"}),
        call("r", "c1", "get_forecast", forecast),
        rpc("reply", {"run": "r", "call": "c9", "outcome": {"Ok": 1}}),
        '{"jsonrpc":"2.0","id":5,"result":{}}',
        "not json",
        '{"jsonrpc":"2.0","method":"call","params":{"run":"r","call":"c4","tool":"' + WEATHER + 'get_forecast","args":{"city":"x","days":1e5000,"units":"None"}}}',
    ]
    for flags in [0, 1]:
        corpus.add("server", bytes([flags]) + "\n".join(lines).encode() + b"\n")
        for line in lines:
            corpus.add("server", bytes([flags]) + line.encode() + b"\n")
    # Generic calls of `echo`, with the views of the call-view vectors.
    views = load(VECTORS / "call-views.json")
    samples = {'"Int"': 5, '"Text"': "x"}
    for i, case in enumerate(views["cases"]):
        # A value of the bound type where one is easy to write; null (a
        # refusal at most types) elsewhere.
        value = json.dumps(samples.get(dump(case["types"]["params"][0]["type"])))
        line = ('{"jsonrpc":"2.0","method":"call","params":{"args":{"value":' + value + '},"call":"e' + str(i)
                + '","run":"g","schema":' + dump(case["schema"]) + ',"tool":' + json.dumps(case["tool"])
                + ',"types":' + dump(case["types"]) + "}}")
        corpus.add("server", b"\x00" + line.encode() + b"\n")
    # The recursive fixture's Tool.
    grow = {
        "tree": {"value": {"Some": "a"}, "kids": [{"value": "None", "kids": []}]},
        "chain": {"Link": {"head": [1, 2.5], "tail": "End"}},
        "trie": {"next": [[1, {"next": [], "keys": []}]], "keys": [[1]]},
        "zig": {"a": "AAEC", "zag": {"Turn": {"a": True, "zag": "None"}}},
    }
    corpus.add("server", b"\x02" + call("r", "g1", GROW, grow).encode() + b"\n")
    corpus.add("server", b"\x03" + call("r", "g2", GROW, grow).encode() + b"\n" + rpc("cancel", {"run": "r", "call": "g2"}).encode() + b"\n")


def host_seeds(corpus):
    fingerprint = "sha256:" + "0" * 64
    describe = {"data": "0.1", "tools": [{"tool": WEATHER + "get_forecast", "fingerprint": fingerprint, "signature": {}}]}
    values = []
    for case in load(VECTORS / "decode-weather.json")["cases"]:
        if "canonical" in case:
            values.append(case["canonical"])
    lines = [
        '{"id":1,"jsonrpc":"2.0","result":' + json.dumps(describe, separators=(",", ":")) + "}",
        '{"error":{"code":-32601,"message":"no"},"id":1,"jsonrpc":"2.0"}',
        '{"id":2,"jsonrpc":"2.0","method":"describe","params":{}}',
        rpc("reply", {"run": "r", "call": "c", "outcome": {"NotRun": "why"}}),
        rpc("reply", {"run": "r", "call": "c", "outcome": {"Unknown": "why"}}),
        rpc("reply", {"run": "r", "call": "c", "outcome": {"Maybe": 1}}),
        '{"jsonrpc":"2.0","method":"reply","params":{"call":"c","outcome":{"Ok":' + "[" * 20 + "]" * 20 + '},"run":"r"}}',
    ]
    # Each value under several pairs: the pair picks the types it is admitted at.
    for value in values:
        for pair in range(5):
            for tag in ["Ok", "Failed"]:
                lines.append('{"jsonrpc":"2.0","method":"reply","params":{"call":"c' + str(pair) + '","outcome":{"' + tag + '":' + value + '},"run":"r"}}')
    for flags in [0, 1]:
        for line in lines:
            corpus.add("host", bytes([flags]) + line.encode() + b"\n")
    corpus.add("host", b"\x00" + "\n".join(lines[:7]).encode())


def mcp_seeds(corpus):
    tools = '{"tools":[{"name":"add","inputSchema":{"type":"object"}},{"name":"echo","inputSchema":{"type":"object"}}]}'
    forecast = '{"city":"Oslo","days":[],"issued":"2024-03-01T05:00:00Z","tags":[]}'
    region = '{"name":"Earth","children":[]}'
    modern = [
        '{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete"}}',
        '{"jsonrpc":"2.0","id":2,"result":' + tools + "}",
        '{"jsonrpc":"2.0","id":"c0","result":{"content":[],"structuredContent":' + forecast + "}}",
        '{"jsonrpc":"2.0","id":"c1","result":{"content":[{"type":"text","text":' + json.dumps(region) + "}]}}",
    ]
    handshake = [
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}',
        '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}',
        '{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"p2"}}',
        '{"jsonrpc":"2.0","id":4,"result":' + tools + "}",
        '{"jsonrpc":"2.0","id":"c0","result":{"content":[{"type":"text","text":"\\"RateLimited\\""}],"isError":true}}',
        '{"jsonrpc":"2.0","id":9,"method":"ping"}',
        '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}',
        '{"jsonrpc":"2.0","id":"c1","error":{"code":-32602,"message":"bad"}}',
    ]
    timed_out = [
        '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}',
        '{"jsonrpc":"2.0","id":3,"result":' + tools + "}",
        '{"jsonrpc":"2.0","id":"c0","result":{"content":[],"structuredContent":' + forecast + ',"resultType":"complete"}}',
    ]
    for flags, lines in [(0, modern), (0, handshake), (2, timed_out), (1, modern), (3, timed_out)]:
        corpus.add("mcp", bytes([flags]) + "\n".join(lines).encode() + b"\n")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    corpus = Corpus(sys.argv[1])
    suite = Path(sys.argv[2]) if len(sys.argv) == 3 else None
    if suite is not None and not suite.is_dir():
        sys.exit(f"seeds.py: no JSONTestSuite at {suite}")
    json_seeds(corpus, suite)
    decode_seeds(corpus)
    listing_seeds(corpus)
    server_seeds(corpus)
    host_seeds(corpus)
    mcp_seeds(corpus)
    print("seeds: " + ", ".join(f"{t} {n}" for t, n in sorted(corpus.counts.items())))


if __name__ == "__main__":
    main()
