/** One test case's directories: a fresh directory under `root` holding the named subdirectories. */
import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";

/** Makes the case's directory and its subdirectories `names`; their paths, in the same order. */
export const caseDirs = <const Names extends readonly string[]>(root: string, ...names: Names): { [K in keyof Names]: string } => {
  const dir = mkdtempSync(join(root, "case-"));
  return names.map((name) => {
    const path = join(dir, name);
    mkdirSync(path);
    return path;
  }) as { [K in keyof Names]: string };
};
