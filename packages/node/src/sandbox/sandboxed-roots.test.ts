import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeFileSystem } from "../files/node-file-system.js";
import { writeFileSync } from "node:fs";
import { HIDDEN_MESSAGE, OUTSIDE_MESSAGE, READ_ONLY_MESSAGE, sandboxedFileSystem } from "./sandboxed-file-system.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("sandboxedFileSystem with a session's additional directories", () => {
  it("writes in them like the cwd, their .mm read-only like its own, and follows a later list", async () => {
    const root = mkdtempSync(join("/var/tmp", "mm-sandboxed-roots-"));
    made.push(root);
    const [cwd, home, extra, other] = ["project", "home", "library", "other"].map((name) => join(root, name)) as [string, string, string, string];
    for (const dir of [cwd, home, extra, other, join(extra, ".mm")]) mkdirSync(dir, { recursive: true });
    let roots: readonly string[] = [extra];
    const fs = sandboxedFileSystem(nodeFileSystem(), {
      settings: { home, writable: [], network: false, hidden: [".env"] },
      privateTmp: join(root, "room/tmp"),
      cwd: () => cwd,
      roots: () => roots,
    });
    expect((await fs.writeText(join(extra, "src/a.ts"), "x")).isOk()).toBe(true);
    expect(readFileSync(join(extra, "src/a.ts"), "utf8")).toBe("x");
    expect((await fs.writeText(join(extra, ".mm/config.json"), "{}"))._unsafeUnwrapErr()).toMatchObject({ message: READ_ONLY_MESSAGE });
    expect((await fs.writeText(join(other, "b.txt"), "no"))._unsafeUnwrapErr()).toMatchObject({ message: OUTSIDE_MESSAGE });
    // tools.hidden's relative entries apply there as in the cwd.
    writeFileSync(join(extra, ".env"), "TOKEN=1");
    expect((await fs.readText(join(extra, ".env")))._unsafeUnwrapErr()).toMatchObject({ message: HIDDEN_MESSAGE });
    roots = [];
    expect((await fs.writeText(join(extra, "src/a.ts"), "y"))._unsafeUnwrapErr()).toMatchObject({ message: OUTSIDE_MESSAGE });
  });
});
