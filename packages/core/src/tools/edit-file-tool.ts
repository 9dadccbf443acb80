/** `edit_file {path, old_text, new_text, replace_all?}`: exact-text replacement in one file. */
import { err, ok, type Result } from "neverthrow";
import { resolvePath } from "../paths/path.js";
import { describeFsError, landingPath } from "../ports/file-system.js";
import { object } from "../schema/object.js";
import { boolean, optional, string, type Infer } from "../schema/schema.js";
import { completed, defineTool, failed } from "./tool.js";

const editInput = object({ path: string(), old_text: string(), new_text: string(), replace_all: optional(boolean()) }, { nullMeansAbsent: true });

/** What `edit_file` is asked to do. */
export type EditFileInput = Infer<typeof editInput>;

const countOccurrences = (text: string, part: string): number => {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
};

/** The edited text, or why the edit cannot apply (told to the model, never thrown). */
export const applyEdit = (text: string, input: EditFileInput): Result<string, string> => {
  if (input.old_text.length === 0) return err("old_text is empty");
  const count = countOccurrences(text, input.old_text);
  if (count === 0) return err(`old_text not found in ${input.path}`);
  const all = input.replace_all === true;
  if (count > 1 && !all) return err(`old_text found ${count} times in ${input.path}; give more context or set replace_all`);
  return ok(all ? text.split(input.old_text).join(input.new_text) : text.replace(input.old_text, () => input.new_text));
};

/** `edit_file`: gated, shows its diff first, counts as a file operation. */
export const editFileTool = defineTool({
  name: "edit_file",
  description: "Replace an exact piece of text in a file. old_text must match exactly once unless replace_all is true.",
  guidance: "replace an exact piece of text in a file; include enough context to match once.",
  kind: "edit",
  counts: "file",
  gated: true,
  input: editInput,
  title: (input) => `edit_file: ${input.path}`,
  locations: (input, place) => [resolvePath(place.cwd, input.path, place.home)],
  preview: async (input, ctx) => {
    const path = resolvePath(ctx.cwd, input.path, ctx.home);
    const text = (await ctx.fs.readText(path)).unwrapOr(null);
    if (text === null) return [];
    const target = await landingPath(ctx.fs, path);
    return applyEdit(text, input).match(
      (newText) => [{ path: target, oldText: text, newText }],
      () => [],
    );
  },
  run: async (input, ctx) => {
    const path = resolvePath(ctx.cwd, input.path, ctx.home);
    const read = await ctx.fs.readText(path);
    if (read.isErr()) return failed(`[edit_file failed: ${describeFsError(read.error)}]`);
    const edited = applyEdit(read.value, input);
    if (edited.isErr()) return failed(`[edit_file failed: ${edited.error}]`);
    const diff = { path: await landingPath(ctx.fs, path), oldText: read.value, newText: edited.value };
    return (await ctx.fs.writeText(path, edited.value)).match(
      () => completed(`edited ${path}`, [diff]),
      (e) => failed(`[edit_file failed: ${describeFsError(e)}]`),
    );
  },
});
