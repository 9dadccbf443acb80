/**
 * What loading does with a journal it has read: a stale one (already folded into the document, or
 * extending another one) is removed, a torn last line cut off; without the lock, nothing is touched
 * and the session is marked for a rewrite at its next save instead.
 */
import { lstat, open, unlink } from "node:fs/promises";
import type { JournalReading } from "./session-journal.js";
import type { Kept } from "./session-writes.js";

const cut = async (path: string, length: number): Promise<boolean> => {
  try {
    const handle = await open(path, "r+");
    try {
      await handle.truncate(length);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    return true;
  } catch {
    return false;
  }
};

/** The session's state once its journal is read (`reading`) onto the document (`base`). */
export const repairJournal = async (path: string, base: Kept, reading: JournalReading, holding: boolean): Promise<Kept> => {
  const found = await lstat(path).then(
    (info) => ({ ino: info.ino, length: info.size }),
    () => undefined,
  );
  const ino = found?.ino;
  const length = found?.length ?? 0;
  if (ino === undefined) return reading.kind === "stale" ? base : { ...base, session: reading.session, broken: true };
  if (reading.kind === "stale") {
    if (
      holding &&
      (await unlink(path).then(
        () => true,
        () => false,
      ))
    )
      return base;
    return { ...base, broken: true, journal: { ino, bytes: length } };
  }
  const session = reading.session;
  if (!reading.torn) return { ...base, session, journal: { ino, bytes: length } };
  if (holding && (await cut(path, reading.validBytes))) return { ...base, session, journal: { ino, bytes: reading.validBytes } };
  return { ...base, session, broken: true, journal: { ino, bytes: length } };
};
