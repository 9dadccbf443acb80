/** A path as the disk has it: every existing link resolved, shared by the boundary and the sandbox's file tools. */
import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** The path with every existing link resolved; the part that does not exist yet is kept as written. */
export const realPathOf = async (path: string): Promise<string> => {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPathOf(parent), basename(path));
  }
};
