/** Parsers of the git outputs the git change tracker reads: `diff-tree -z --raw` and `cat-file --batch(-check)`. */

/** One line of `git diff-tree -r -z --raw --no-renames`: modes are octal strings, `000000` for "absent". */
export type RawDiffEntry = {
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldId: string;
  readonly newId: string;
  readonly path: string;
};

/** Entries of `git diff-tree -r -z --raw --no-renames --no-abbrev <a> <b>`. */
export const parseRawDiff = (output: Buffer): RawDiffEntry[] => {
  const fields = output.toString("utf8").split("\0");
  const entries: RawDiffEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, oldId, newId] = (fields[i] ?? "").replace(/^:/, "").split(" ");
    const path = fields[i + 1];
    if (oldMode === undefined || newMode === undefined || oldId === undefined || newId === undefined || path === undefined) break;
    entries.push({ oldMode, newMode, oldId, newId, path });
  }
  return entries;
};

/** Sizes of blobs from `git cat-file --batch-check` (`<id> <type> <size>` lines); missing ids are left out. */
export const parseBatchCheck = (output: Buffer): Map<string, number> => {
  const sizes = new Map<string, number>();
  for (const line of output.toString("utf8").split("\n")) {
    const [id, type, size] = line.split(" ");
    if (id !== undefined && type === "blob" && size !== undefined) sizes.set(id, Number(size));
  }
  return sizes;
};

/** Contents from `git cat-file --batch`: `<id> <type> <size>\n<content>\n` per object; missing ids are left out. */
export const parseBatch = (output: Buffer): Map<string, Buffer> => {
  const contents = new Map<string, Buffer>();
  let at = 0;
  while (at < output.length) {
    const lineEnd = output.indexOf(0x0a, at);
    if (lineEnd < 0) break;
    const [id, type, size] = output.subarray(at, lineEnd).toString("utf8").split(" ");
    if (id === undefined || type === "missing" || size === undefined) {
      at = lineEnd + 1;
      continue;
    }
    const start = lineEnd + 1;
    const end = start + Number(size);
    contents.set(id, output.subarray(start, end));
    at = end + 1;
  }
  return contents;
};
