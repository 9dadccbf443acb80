/** `read_file {path, offset?, limit?}`: a file's text, by 1-based line range. */
import { resolvePath } from "../paths/path.js";
import { describeFsError } from "../ports/file-system.js";
import { object } from "../schema/object.js";
import { number, optional, string } from "../schema/schema.js";
import { completed, defineTool, failed } from "./tool.js";
import { base64Of, imageTypeOf } from "./image-file.js";
import { truncateMiddle } from "./truncate.js";

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

/** `read_file`: gated, counts as a file operation. */
export const readFileTool = defineTool({
  name: "read_file",
  description: "Read a text file. Relative paths are resolved against the session's working directory.",
  guidance: "read a text file (1-based offset and limit for long files).",
  kind: "read",
  counts: "file",
  gated: true,
  input: object(
    {
      path: string(),
      offset: optional(number({ min: 0, description: "First line to read, 1-based" })),
      limit: optional(number({ min: 0, description: "Number of lines to read" })),
    },
    { nullMeansAbsent: true },
  ),
  title: (input) => `read_file: ${input.path}`,
  locations: (input, place) => [resolvePath(place.cwd, input.path, place.home)],
  run: async (input, ctx) => {
    const path = resolvePath(ctx.cwd, input.path, ctx.home);
    const mimeType = imageTypeOf(path);
    if (ctx.vision === true && mimeType !== undefined && ctx.fs.readBytes !== undefined) {
      return (await ctx.fs.readBytes(path)).match(
        (bytes) => completed(`[image ${path}: ${mimeType}, ${bytes.length} bytes]`, [], [{ data: base64Of(bytes), mimeType }]),
        (e) => failed(`[read_file failed: ${describeFsError(e)}]`),
      );
    }
    return (await ctx.fs.readText(path)).match(
      (text) => completed(truncateMiddle(sliceLines(text, input.offset, input.limit), ctx.limits.maxOutputBytes)),
      (e) => failed(`[read_file failed: ${describeFsError(e)}]`),
    );
  },
});
