// The MCP TypeScript SDK's peer of the neutral driver's Node rows
// (benches/neutral/driver.py): McpServer over stdio with one `echo` tool,
// answering as the Node floor does. Beside benches/node/package.json so that
// it loads the pinned SDK of benches/node/node_modules.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const server = new McpServer({ name: 'sdk-echo', version: '0.1.0' })
server.registerTool('echo', { inputSchema: { value: z.unknown() } }, async ({ value }) => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: { result: value },
}))
await server.connect(new StdioServerTransport())
