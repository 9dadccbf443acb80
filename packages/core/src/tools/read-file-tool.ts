/** `read_file {path, offset?, limit?}`: a file's text, by 1-based line range. */
import { ok } from "neverthrow";
import { resolvePath } from "../paths/path.js";
import { describeFsError } from "../ports/file-system.js";
import { asObject, optionalNumber, requiredString } from "./input.js";
import { completed, failed, noPreview, type Tool } from "./tool.js";
import { truncateMiddle } from "./truncate.js";

export type ReadFileInput = { readonly path: string; readonly offset?: number; readonly limit?: number };

const DEFAULT_LIMIT = 2000;

/** The lines `offset..offset+limit-1` (1-based) with a header when the file has more. */
export const sliceLines = (text: string, offset = 1, limit = DEFAULT_LIMIT): string => {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const start = Math.max(1, Math.floor(offset));
  const end = Math.min(lines.length, start + Math.max(1, Math.floor(limit)) - 1);
  if (start === 1 && end === lines.length) return text;
  if (start > lines.length) return `[the file has ${lines.length} line(s); offset ${start} is past its end]`;
  return `[lines ${start}-${end} of ${lines.length}]\n${lines.slice(start - 1, end).join("\n")}\n`;
};

export const readFileTool: Tool<ReadFileInput> = {
  spec: {
    name: "read_file",
    description: "Read a text file. Relative paths are resolved against the session's working directory.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string" },
        offset: { type: "number", description: "First line to read, 1-based" },
        limit: { type: "number", description: "Number of lines to read" },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
  gated: true,
  parse: (input) =>
    asObject(input).andThen((fields) =>
      requiredString(fields, "path").andThen((path) =>
        optionalNumber(fields, "offset").andThen((offset) =>
          optionalNumber(fields, "limit").andThen((limit) => ok({ path, offset, limit })),
        ),
      ),
    ),
  locations: (input, ctx) => [resolvePath(ctx.cwd, input.path, ctx.home)],
  preview: noPreview,
  run: async (input, ctx) =>
    (await ctx.fs.readText(resolvePath(ctx.cwd, input.path, ctx.home))).match(
      (text) => completed(truncateMiddle(sliceLines(text, input.offset, input.limit), ctx.limits.maxOutputBytes)),
      (e) => failed(`[read_file failed: ${describeFsError(e)}]`),
    ),
};
