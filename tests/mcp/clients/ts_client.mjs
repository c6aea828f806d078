// A Flow Tool served over MCP, driven by the official TypeScript SDK client
// (`Client` with `StdioClientTransport`; it speaks the handshake era only).
//
//     node ts_client.mjs PLAN -- CMD ARGS...
//
// PLAN is the JSON of python_client.py. It lists every page of tools, makes
// each call, gives up on the cancel call after half a second (the SDK then
// sends `notifications/cancelled`; the call waits for that cancel, so the
// timeout always fires and nothing is timed), makes the last call, and
// prints one JSON report on stdout: the tools and each result as the SDK
// parsed and checked them (the SDK checks structured content against the
// output schema and throws when it does not match), or what was thrown.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [planText, dash, command, ...args] = process.argv.slice(2);
if (dash !== '--') {
  throw new Error('usage: node ts_client.mjs PLAN -- CMD ARGS...');
}
const plan = JSON.parse(planText);

async function call(client, step, options) {
  try {
    return await client.callTool({ name: step.name, arguments: step.arguments }, undefined, options);
  } catch (e) {
    return { raised: `${e.name}: ${e.message}` };
  }
}

const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'flow-toolkit-test', version: '0.0.0' });
await client.connect(transport);
const report = {};
const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor === undefined ? {} : { cursor });
  tools.push(...page.tools);
  cursor = page.nextCursor;
} while (cursor !== undefined);
report.tools = tools;
report.calls = [];
for (const step of plan.calls) {
  report.calls.push(await call(client, step));
}
report.cancel = await call(client, plan.cancel, { timeout: 500 });
report.then = await call(client, plan.then);
await client.close();
process.stdout.write(JSON.stringify(report) + '\n');
