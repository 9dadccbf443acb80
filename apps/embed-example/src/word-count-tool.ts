/**
 * A tool of the embedding program's own, in one file: `word_count {path}` counts the words of a file.
 * It asks the user first (gated), reads as `read` in an editor, and counts as a file operation.
 */
import { completed, defineTool, describeFsError, failed, object, resolvePath, string } from "@mm/core";

export const wordCountTool = defineTool({
  name: "word_count",
  description: "Count the words of a text file. Relative paths are resolved against the working directory.",
  guidance: "count the words of a text file.",
  kind: "read",
  counts: "file",
  gated: true,
  input: object({ path: string({ description: "The file to count" }) }),
  title: (input) => `word_count: ${input.path}`,
  locations: (input, place) => [resolvePath(place.cwd, input.path, place.home)],
  run: async (input, ctx) =>
    (await ctx.fs.readText(resolvePath(ctx.cwd, input.path, ctx.home))).match(
      (text) => completed(`${text.split(/\s+/).filter(Boolean).length} word(s)`),
      (error) => failed(`[word_count failed: ${describeFsError(error)}]`),
    ),
});
