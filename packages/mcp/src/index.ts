/** @mm/mcp — MCP servers as tools of @mm/core. */
export { connectMcpServer, type McpConnectOptions, type McpConnection, type McpStartError } from "./mcp-connection.js";
export { stderrReason, stderrTail } from "./stderr-reason.js";
export { kindOf, mcpTool, toolNameOf, type CallTool, type McpToolInfo } from "./mcp-tool.js";
export { outcomeOf } from "./tool-result.js";
export { nameSlug, type McpServerSpec } from "./server-spec.js";
export { GroupStdioTransport, type GroupStdioOptions } from "./group-stdio-transport.js";
