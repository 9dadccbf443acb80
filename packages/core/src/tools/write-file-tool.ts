/** `write_file {path, content}`: creates or replaces a file; the proposed diff is shown first. */
import { ok } from "neverthrow";
import type { FileDiff } from "../history/message.js";
import { resolvePath } from "../paths/path.js";
import { describeFsError, type FileSystem } from "../ports/file-system.js";
import { asObject, requiredString } from "./input.js";
import { completed, failed, type Tool } from "./tool.js";

export type WriteFileInput = { readonly path: string; readonly content: string };

/** The current text of a file, or null when it does not exist or cannot be read as text. */
export const currentText = async (fs: FileSystem, path: string): Promise<string | null> =>
  (await fs.readText(path)).unwrapOr(null);

const diffOf = async (input: WriteFileInput, fs: FileSystem, path: string): Promise<FileDiff> => ({
  path,
  oldText: await currentText(fs, path),
  newText: input.content,
});

export const writeFileTool: Tool<WriteFileInput> = {
  spec: {
    name: "write_file",
    description: "Create or overwrite a file with the given content, creating parent directories.",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
      additionalProperties: false,
    },
  },
  gated: true,
  parse: (input) =>
    asObject(input).andThen((fields) =>
      requiredString(fields, "path").andThen((path) =>
        requiredString(fields, "content").andThen((content) => ok({ path, content })),
      ),
    ),
  locations: (input, ctx) => [resolvePath(ctx.cwd, input.path, ctx.home)],
  preview: async (input, ctx) => [await diffOf(input, ctx.fs, resolvePath(ctx.cwd, input.path, ctx.home))],
  run: async (input, ctx) => {
    const path = resolvePath(ctx.cwd, input.path, ctx.home);
    const diff = await diffOf(input, ctx.fs, path);
    return (await ctx.fs.writeText(path, input.content)).match(
      () => completed(`wrote ${input.content.length} character(s) to ${path}`, [diff]),
      (e) => failed(`[write_file failed: ${describeFsError(e)}]`),
    );
  },
};
