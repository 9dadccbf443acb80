/**
 * One MCP tool as a core Tool: named `<server>__<tool>` (so two servers' tools never clash, and within
 * the 64 characters models accept), gated like `bash`, its kind from the tool's annotations, its title
 * naming server and tool, counted as a command. The server checks its own input; mm only asks for an
 * object.
 */
import { anyObject, defineTool, failed, type JsonSchema, type Tool, type ToolKind } from "@mm/core";
import { nameSlug } from "./server-spec.js";
import { outcomeOf } from "./tool-result.js";

/** A tool as the server lists it (`tools/list`). */
export type McpToolInfo = {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: JsonSchema;
  readonly annotations?: { readonly title?: string; readonly readOnlyHint?: boolean; readonly openWorldHint?: boolean } | undefined;
};

/** Calls a tool of the server: the raw result, or why the call did not happen. */
export type CallTool = (
  name: string,
  args: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
) => Promise<{ readonly content?: unknown; readonly isError?: unknown; readonly structuredContent?: unknown }>;

const MAX_NAME = 64;

/** `<server>__<tool>`, cut to 64 characters. */
export const toolNameOf = (server: string, tool: string): string => `${nameSlug(server)}__${nameSlug(tool)}`.slice(0, MAX_NAME);

/** Read-only tools read (or fetch, when they reach outside); every other one executes. */
export const kindOf = (info: McpToolInfo): ToolKind =>
  info.annotations?.readOnlyHint === true ? (info.annotations.openWorldHint === true ? "fetch" : "read") : "execute";

/** The tool's input schema as a model is shown it: an object schema, without a `$schema` dialect line. */
const schemaFor = (schema: JsonSchema): JsonSchema => {
  const { $schema: _dialect, ...rest } = schema;
  return { type: "object", ...rest };
};

const describe = (value: unknown): string => (value instanceof Error ? value.message : String(value)).split("\n")[0]!;

export const mcpTool = (server: string, info: McpToolInfo, call: CallTool): Tool => {
  const name = toolNameOf(server, info.name);
  const shown = info.annotations?.title ?? info.title ?? info.name;
  const description = `${info.description ?? shown} (MCP server "${server}", tool "${info.name}")`;
  return defineTool({
    name,
    description,
    guidance: `${(info.description ?? shown).split("\n")[0]!.slice(0, 160)} (MCP server ${server})`,
    kind: kindOf(info),
    counts: "command",
    gated: true,
    input: anyObject(schemaFor(info.inputSchema)),
    title: () => `${server}: ${shown}`,
    run: async (input, ctx) => {
      try {
        return outcomeOf(await call(info.name, input, ctx.signal), ctx.limits.maxOutputBytes);
      } catch (error) {
        return failed(ctx.signal.aborted ? "[cancelled]" : `[${name} failed: ${describe(error)}]`);
      }
    },
  });
};
