/**
 * Reads git index files (format versions 2, 3 and 4) the way the change tracker needs them: where
 * each stage-0 entry sits, found in one tight pass and kept per file; then, by binary search on the
 * sorted paths, the entries at or under some paths, and what differs between two indexes there — as
 * `git diff-index --cached` compares an index with a tree. Only the entries looked at are decoded.
 */
/** One changed path between two indexes, as `git diff --raw` shows it: modes are octal strings, `000000` for "absent". */
export type RawDiffEntry = {
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldId: string;
  readonly newId: string;
  readonly path: string;
};

const HEADER = 12;
/** ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit fields before the object id. */
const STAT_BYTES = 40;
const MODE_AT = 24;
/** Where an entry keeps the file's size: git's own mark for "compare the content" is a size of 0. */
export const SIZE_AT = 36;
const EXTENDED = 0x4000;
const SLASH = 0x2f;
const MAX_PATH = 4096;

/** The stage-0 entries of one index file, in path order: where each entry and its path are. */
type Table = {
  readonly bytes: Buffer;
  readonly count: number;
  readonly entry: Int32Array;
  /** Paths are in `paths` (the file itself, or a copy for version 4, whose paths are compressed). */
  readonly paths: Buffer;
  readonly pathAt: Int32Array;
  readonly pathLength: Int32Array;
};

const tables = new WeakMap<Buffer, Table>();

const tabulate = (bytes: Buffer, idBytes: number): Table => {
  const known = tables.get(bytes);
  if (known !== undefined) return known;
  if (bytes.length < HEADER || bytes.toString("latin1", 0, 4) !== "DIRC") throw new Error("not a git index");
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`git index version ${version} is not supported`);
  const total = bytes.readUInt32BE(8);
  const entry = new Int32Array(total);
  const pathAt = new Int32Array(total);
  const pathLength = new Int32Array(total);
  // Version 4 strips from each path the end of the previous one and adds its own suffix: paths are
  // copied whole into `paths`, the previous one first.
  let paths = version === 4 ? Buffer.alloc(Math.max(MAX_PATH, bytes.length)) : bytes;
  let previousAt = 0;
  let previousLength = 0;
  let written = 0;
  let count = 0;
  let at = HEADER;
  for (let n = 0; n < total; n += 1) {
    const start = at;
    const flagsAt = start + STAT_BYTES + idBytes;
    const flags = (bytes[flagsAt]! << 8) | bytes[flagsAt + 1]!;
    let nameAt = flagsAt + 2 + (version >= 3 && (flags & EXTENDED) !== 0 ? 2 : 0);
    let path = nameAt;
    let length: number;
    if (version === 4) {
      let byte = bytes[nameAt++]!;
      let strip = byte & 0x7f;
      while ((byte & 0x80) !== 0) {
        byte = bytes[nameAt++]!;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const end = bytes.indexOf(0, nameAt);
      const kept = previousLength - strip;
      length = kept + end - nameAt;
      if (kept < 0 || length > MAX_PATH) throw new Error("git index: bad path");
      if (written + length > paths.length) {
        const grown = Buffer.alloc(paths.length * 2);
        paths.copy(grown, 0, 0, written);
        paths = grown;
      }
      paths.copy(paths, written, previousAt, previousAt + kept);
      bytes.copy(paths, written + kept, nameAt, end);
      path = written;
      previousAt = written;
      previousLength = length;
      written += length;
      at = end + 1;
    } else {
      length = flags & 0xfff;
      if (length === 0xfff) length = bytes.indexOf(0, nameAt) - nameAt;
      at = start + ((nameAt - start + length + 8) & ~7);
    }
    // Unmerged entries (stages 1 to 3) are left out: only stage 0 is compared.
    if ((flags & 0x3000) !== 0) continue;
    entry[count] = start;
    pathAt[count] = path;
    pathLength[count] = length;
    count += 1;
  }
  const table = { bytes, count, entry, paths, pathAt, pathLength };
  tables.set(bytes, table);
  return table;
};

/** Byte order of entry `i`'s path against `path` (negative: the entry sorts first). */
const compareAt = (t: Table, i: number, path: Buffer): number => t.paths.compare(path, 0, path.length, t.pathAt[i]!, t.pathAt[i]! + t.pathLength[i]!);

/** The first entry not sorting before `path`. */
const lowerBound = (t: Table, path: Buffer): number => {
  let low = 0;
  let high = t.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareAt(t, middle, path) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
};

const startsWith = (t: Table, i: number, prefix: Buffer): boolean =>
  t.pathLength[i]! >= prefix.length && t.paths.compare(prefix, 0, prefix.length, t.pathAt[i]!, t.pathAt[i]! + prefix.length) === 0;

/**
 * Indexes of the entries at `path` or under it. What is under "a" is one run of entries starting at
 * "a/" (git sorts "a-b" and "a.c" between "a" and "a/", "a0" after).
 */
const entriesUnder = (t: Table, path: Buffer): number[] => {
  if (path.length === 0) return Array.from({ length: t.count }, (_, i) => i);
  const found: number[] = [];
  const exact = lowerBound(t, path);
  if (exact < t.count && t.pathLength[exact] === path.length && compareAt(t, exact, path) === 0) found.push(exact);
  const prefix = Buffer.concat([path, Buffer.from([SLASH])]);
  for (let i = lowerBound(t, prefix); i < t.count && startsWith(t, i, prefix); i += 1) found.push(i);
  return found;
};

type Side = { readonly mode: string; readonly id: string };

const sideOf = (t: Table, i: number, idBytes: number): Side => {
  const at = t.entry[i]!;
  return {
    mode: t.bytes
      .readUInt32BE(at + MODE_AT)
      .toString(8)
      .padStart(6, "0"),
    id: t.bytes.toString("hex", at + STAT_BYTES, at + STAT_BYTES + idBytes),
  };
};

const pathOf = (t: Table, i: number): string => t.paths.toString("utf8", t.pathAt[i]!, t.pathAt[i]! + t.pathLength[i]!);

/** The entries of `t` at or under `paths`, decoded, by path. */
const collect = (t: Table | undefined, paths: readonly Buffer[], idBytes: number): Map<string, Side> => {
  const found = new Map<string, Side>();
  if (t === undefined) return found;
  for (const path of paths) for (const i of entriesUnder(t, path)) found.set(pathOf(t, i), sideOf(t, i, idBytes));
  return found;
};

/**
 * The entries whose mode or id differ between the indexes `before` and `after` (undefined: no index
 * file) at or under `paths` (relative to the work tree's top, `""` for all), in path order.
 * `idBytes` is 20 for SHA-1 repositories, 32 for SHA-256. Throws on a file that is not an index.
 */
export const indexDifferences = (before: Buffer | undefined, after: Buffer | undefined, idBytes: number, paths: readonly string[]): RawDiffEntry[] => {
  const a = before === undefined ? undefined : tabulate(before, idBytes);
  const b = after === undefined ? undefined : tabulate(after, idBytes);
  const absent: Side = { mode: "000000", id: "0".repeat(idBytes * 2) };
  const entry = (path: string, old: Side, now: Side): RawDiffEntry => ({ path, oldMode: old.mode, oldId: old.id, newMode: now.mode, newId: now.id });
  const wanted = [...new Set(paths)].map((path) => Buffer.from(path, "utf8"));
  if (wanted.every((path) => path.length > 0) || a === undefined || b === undefined) {
    const old = collect(a, wanted, idBytes);
    const now = collect(b, wanted, idBytes);
    const entries: RawDiffEntry[] = [];
    const order = [...new Set([...old.keys(), ...now.keys()])].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    for (const path of order) {
      const o = old.get(path) ?? absent;
      const n = now.get(path) ?? absent;
      if (o.mode !== n.mode || o.id !== n.id) entries.push(entry(path, o, n));
    }
    return entries;
  }
  // Everything: both walked side by side; entries whose mode and id bytes are equal are skipped.
  const entries: RawDiffEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.count || j < b.count) {
    const side =
      i === a.count
        ? 1
        : j === b.count
          ? -1
          : a.paths.compare(b.paths, b.pathAt[j]!, b.pathAt[j]! + b.pathLength[j]!, a.pathAt[i]!, a.pathAt[i]! + a.pathLength[i]!);
    if (side === 0) {
      const x = a.entry[i]!;
      const y = b.entry[j]!;
      const same =
        a.bytes.compare(b.bytes, y + MODE_AT, y + MODE_AT + 4, x + MODE_AT, x + MODE_AT + 4) === 0 &&
        a.bytes.compare(b.bytes, y + STAT_BYTES, y + STAT_BYTES + idBytes, x + STAT_BYTES, x + STAT_BYTES + idBytes) === 0;
      if (!same) entries.push(entry(pathOf(a, i), sideOf(a, i, idBytes), sideOf(b, j, idBytes)));
      i += 1;
      j += 1;
    } else if (side < 0) {
      entries.push(entry(pathOf(a, i), sideOf(a, i, idBytes), absent));
      i += 1;
    } else {
      entries.push(entry(pathOf(b, j), absent, sideOf(b, j, idBytes)));
      j += 1;
    }
  }
  return entries;
};

/**
 * The sizes the index `bytes` records for the entries at exactly `paths`: the size of the file in the
 * work tree when it was staged (0 when git did not record it, a racily clean entry), which differs
 * from its blob's when git converted the file as it stored it (end of lines, an encoding).
 */
export const recordedSizes = (bytes: Buffer | undefined, idBytes: number, paths: readonly string[]): Map<string, number> => {
  const sizes = new Map<string, number>();
  if (bytes === undefined) return sizes;
  const t = tabulate(bytes, idBytes);
  for (const path of paths) {
    const wanted = Buffer.from(path, "utf8");
    const i = lowerBound(t, wanted);
    if (path !== "" && i < t.count && t.pathLength[i] === wanted.length && compareAt(t, i, wanted) === 0)
      sizes.set(path, t.bytes.readUInt32BE(t.entry[i]! + SIZE_AT));
  }
  return sizes;
};

/** Offsets in the file of the stage-0 entries at exactly `paths` (relative to the work tree's top). */
export const entryOffsets = (bytes: Buffer, idBytes: number, paths: readonly string[]): number[] => {
  const t = tabulate(bytes, idBytes);
  return paths
    .filter((path) => path !== "")
    .flatMap((path) => {
      const wanted = Buffer.from(path, "utf8");
      const i = lowerBound(t, wanted);
      return i < t.count && t.pathLength[i] === wanted.length && compareAt(t, i, wanted) === 0 ? [i] : [];
    })
    .map((i) => t.entry[i]!)
    .sort((x, y) => x - y);
};

/** Which of `paths` (relative to the work tree's top) are stage-0 entries of the index `bytes`. */
export const trackedPaths = (bytes: Buffer | undefined, idBytes: number, paths: readonly string[]): Set<string> => {
  if (bytes === undefined) return new Set();
  const t = tabulate(bytes, idBytes);
  return new Set(
    paths.filter((path) => {
      const wanted = Buffer.from(path, "utf8");
      const i = lowerBound(t, wanted);
      return path !== "" && i < t.count && t.pathLength[i] === wanted.length && compareAt(t, i, wanted) === 0;
    }),
  );
};
