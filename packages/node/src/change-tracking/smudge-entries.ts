/**
 * Marking index entries as git marks racily clean ones (size 0), so `git add` compares their content:
 * a rewrite that kept size and mtime (`cp -p`, `touch -r`) within the second of the last look has a
 * stat git can't tell from the old one, though the watcher saw it.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { entryOffsets, SIZE_AT } from "./index-entries.js";

/** Zeroes the recorded size of the entries of `paths` (tree paths) in `indexFile`, a copy of `bytes`, and rewrites its checksum. */
export const smudgeEntries = (indexFile: string, bytes: Buffer | undefined, idBytes: number, paths: readonly string[]): void => {
  if (bytes === undefined) return;
  const offsets = entryOffsets(bytes, idBytes, paths);
  if (offsets.length === 0) return;
  const zero = Buffer.alloc(4);
  const hash = createHash(idBytes === 32 ? "sha256" : "sha1");
  let at = 0;
  for (const offset of offsets) {
    hash.update(bytes.subarray(at, offset + SIZE_AT));
    hash.update(zero);
    at = offset + SIZE_AT + 4;
  }
  hash.update(bytes.subarray(at, bytes.length - idBytes));
  const fd = openSync(indexFile, "r+");
  try {
    for (const offset of offsets) writeSync(fd, zero, 0, 4, offset + SIZE_AT);
    writeSync(fd, hash.digest(), 0, idBytes, bytes.length - idBytes);
  } finally {
    closeSync(fd);
  }
};
