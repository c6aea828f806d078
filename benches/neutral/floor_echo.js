// The Node floor of the neutral driver's table: a trivial MCP echo server
// (readline, JSON.parse and JSON.stringify, no dependency), answering
// initialize, tools/list and tools/call of one `echo` tool. What any Node MCP
// server costs at least.
"use strict";
const readline = require("node:readline");

const tools = { tools: [{ name: "echo", inputSchema: { type: "object", properties: { value: {} }, required: ["value"] } }] };
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  let result;
  if (message.method === "initialize") {
    result = { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "floor", version: "0" } };
  } else if (message.method === "tools/list") {
    result = tools;
  } else if (message.method === "tools/call") {
    const value = message.params.arguments.value;
    result = { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: { result: value }, isError: false };
  } else {
    return;
  }
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\n");
});
