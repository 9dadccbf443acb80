/** `write_file {path, content}`: creates or replaces a file; the proposed diff is shown first. */
import type { FileDiff } from "../history/message.js";
import { resolvePath } from "../paths/path.js";
import { describeFsError, landingPath, type FileSystem } from "../ports/file-system.js";
import { object } from "../schema/object.js";
import { string } from "../schema/schema.js";
import { completed, defineTool, failed } from "./tool.js";

/** The current text of a file, or null when it does not exist or cannot be read as text. */
const currentText = async (fs: FileSystem, path: string): Promise<string | null> => (await fs.readText(path)).unwrapOr(null);

/** The change to the file a write lands in (a link's target, named as such). */
const diffOf = async (content: string, fs: FileSystem, path: string): Promise<FileDiff> => ({
  path: await landingPath(fs, path),
  oldText: await currentText(fs, path),
  newText: content,
});

/** `write_file`: gated, shows its diff first, counts as a file operation. */
export const writeFileTool = defineTool({
  name: "write_file",
  description: "Create or overwrite a file with the given content, creating parent directories.",
  guidance: "create or overwrite a whole file.",
  kind: "edit",
  counts: "file",
  gated: true,
  input: object({ path: string(), content: string() }),
  title: (input) => `write_file: ${input.path}`,
  locations: (input, place) => [resolvePath(place.cwd, input.path, place.home)],
  preview: async (input, ctx) => [await diffOf(input.content, ctx.fs, resolvePath(ctx.cwd, input.path, ctx.home))],
  run: async (input, ctx) => {
    const path = resolvePath(ctx.cwd, input.path, ctx.home);
    const diff = await diffOf(input.content, ctx.fs, path);
    return (await ctx.fs.writeText(path, input.content)).match(
      () => completed(`wrote ${input.content.length} character(s) to ${path}`, [diff]),
      (e) => failed(`[write_file failed: ${describeFsError(e)}]`),
    );
  },
});
