/** `edit_file {path, old_text, new_text, replace_all?}`: exact-text replacement in one file. */
import { err, ok, type Result } from "neverthrow";
import { resolvePath } from "../paths/path.js";
import { describeFsError } from "../ports/file-system.js";
import { asObject, optionalBoolean, requiredString } from "./input.js";
import { completed, failed, type Tool } from "./tool.js";

export type EditFileInput = {
  readonly path: string;
  readonly oldText: string;
  readonly newText: string;
  readonly replaceAll: boolean;
};

const countOccurrences = (text: string, part: string): number => {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
};

/** The edited text, or why the edit cannot apply (told to the model, never thrown). */
export const applyEdit = (text: string, input: EditFileInput): Result<string, string> => {
  if (input.oldText.length === 0) return err("old_text is empty");
  const count = countOccurrences(text, input.oldText);
  if (count === 0) return err(`old_text not found in ${input.path}`);
  if (count > 1 && !input.replaceAll) {
    return err(`old_text found ${count} times in ${input.path}; give more context or set replace_all`);
  }
  return ok(input.replaceAll ? text.split(input.oldText).join(input.newText) : text.replace(input.oldText, () => input.newText));
};

export const editFileTool: Tool<EditFileInput> = {
  spec: {
    name: "edit_file",
    description:
      "Replace an exact piece of text in a file. old_text must match exactly once unless replace_all is true.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string" },
        old_text: { type: "string" },
        new_text: { type: "string" },
        replace_all: { type: "boolean" },
      },
      required: ["path", "old_text", "new_text"],
      additionalProperties: false,
    },
  },
  gated: true,
  parse: (input) =>
    asObject(input).andThen((fields) =>
      requiredString(fields, "path").andThen((path) =>
        requiredString(fields, "old_text").andThen((oldText) =>
          requiredString(fields, "new_text").andThen((newText) =>
            optionalBoolean(fields, "replace_all").andThen((replaceAll) =>
              ok({ path, oldText, newText, replaceAll: replaceAll ?? false }),
            ),
          ),
        ),
      ),
    ),
  locations: (input, ctx) => [resolvePath(ctx.cwd, input.path, ctx.home)],
  preview: async (input, ctx) => {
    const path = resolvePath(ctx.cwd, input.path, ctx.home);
    const text = (await ctx.fs.readText(path)).unwrapOr(null);
    if (text === null) return [];
    return applyEdit(text, input).match(
      (newText) => [{ path, oldText: text, newText }],
      () => [],
    );
  },
  run: async (input, ctx) => {
    const path = resolvePath(ctx.cwd, input.path, ctx.home);
    const read = await ctx.fs.readText(path);
    if (read.isErr()) return failed(`[edit_file failed: ${describeFsError(read.error)}]`);
    const edited = applyEdit(read.value, input);
    if (edited.isErr()) return failed(`[edit_file failed: ${edited.error}]`);
    const diff = { path, oldText: read.value, newText: edited.value };
    return (await ctx.fs.writeText(path, edited.value)).match(
      () => completed(`edited ${path}`, [diff]),
      (e) => failed(`[edit_file failed: ${describeFsError(e)}]`),
    );
  },
};
