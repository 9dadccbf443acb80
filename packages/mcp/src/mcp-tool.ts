/**
 * One MCP tool as a core Tool: named `<server>__<tool>` (so two servers' tools never clash, and within
 * the 64 characters models accept), gated like `bash`, its kind from the tool's annotations, its title
 * naming server and tool, counted as a command. The server checks its own input; mm only asks for an
 * object.
 */
import { isAbsolute, join, normalize } from "node:path";
import { anyObject, defineTool, failed, type JsonSchema, type Tool, type ToolKind, type ToolPlace } from "@mm/core";
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

/** The words of a tool's name: `read_text_file`, `readTextFile` and `read-text-file` are read, text, file. */
const wordsOf = (name: string): ReadonlySet<string> =>
  new Set(
    name
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w !== ""),
  );
const hasAny = (words: ReadonlySet<string>, ...wanted: string[]): boolean => wanted.some((w) => words.has(w));

/**
 * The ACP kind of a tool, from its annotations and its name, so a client shows a file write as an edit
 * and not as a command. Read-only tools fetch (reaching outside), search or read; the others delete,
 * move or edit when their name says so, and execute otherwise.
 */
export const kindOf = (info: McpToolInfo): ToolKind => {
  const words = wordsOf(info.name);
  if (info.annotations?.readOnlyHint === true) {
    if (info.annotations.openWorldHint === true) return "fetch";
    return hasAny(words, "search", "find", "grep", "query") ? "search" : "read";
  }
  if (hasAny(words, "delete", "remove", "unlink", "rm")) return "delete";
  if (hasAny(words, "move", "rename", "mv")) return "move";
  if (hasAny(words, "write", "edit", "create", "update", "patch", "replace", "append", "insert", "save")) return "edit";
  return "execute";
};

/** Argument names that hold a file or directory path (or a list of them). */
const PATH_ARGUMENT = /^(path|paths|file|files|file_?path|file_?name|source|destination|target|dir|directory|uri)$/i;

/**
 * The files a call names, for the client to show and follow: the string values (or lists of them)
 * of path-like arguments, relative ones taken from the cwd; `file://` URIs as their path, other
 * URIs not at all.
 */
export const locationsOf = (input: Readonly<Record<string, unknown>>, place: ToolPlace): readonly string[] => {
  const paths = Object.entries(input)
    .filter(([key]) => PATH_ARGUMENT.test(key))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === "string" && value !== "" && value.length <= 4096)
    .flatMap((value) => {
      if (value.startsWith("file://")) {
        try {
          return [normalize(decodeURIComponent(value.slice("file://".length)))];
        } catch {
          return [];
        }
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return [];
      return [isAbsolute(value) ? normalize(value) : join(place.cwd, value)];
    });
  return [...new Set(paths)];
};

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
    locations: locationsOf,
    // Not every MCP tool is a command; the built-in tools keep the spec's wording.
    rejected: "[tool call rejected by the user]",
    // The server is not running yet when a session's replay is sent.
    recordsView: true,
    run: async (input, ctx) => {
      try {
        return outcomeOf(await call(info.name, input, ctx.signal), ctx.limits.maxOutputBytes);
      } catch (error) {
        return failed(ctx.signal.aborted ? "[cancelled]" : `[${name} failed: ${describe(error)}]`);
      }
    },
  });
};
