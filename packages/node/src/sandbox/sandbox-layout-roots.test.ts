import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { layoutFor, makeReadOnlyDirs } from "./sandbox-layout.js";
import { createSandboxRoom } from "./sandbox-room.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("layoutFor with a session's additional directories", () => {
  it("binds them writable, their .mm read-only (made first) and tools.hidden's relative entries hidden there", async () => {
    const root = mkdtempSync(join("/var/tmp", "mm-layout-roots-"));
    made.push(root);
    const [cwd, home, extra] = ["project", "home", "library"].map((name) => join(root, name)) as [string, string, string];
    for (const dir of [cwd, home, extra]) mkdirSync(dir);
    writeFileSync(join(extra, ".env"), "TOKEN=1");
    const room = createSandboxRoom(root)._unsafeUnwrap();
    await makeReadOnlyDirs(cwd, [extra]);
    expect(existsSync(join(extra, ".mm"))).toBe(true);
    const layout = await layoutFor({ home, writable: [], network: false, hidden: [".env"] }, room, cwd, [extra]);
    expect(layout.writable).toEqual([extra]);
    expect(layout.protectedPaths).toContain(join(extra, ".mm"));
    expect(layout.hidden).toContainEqual({ path: join(extra, ".env"), kind: "file" });
    room.remove();
  });
});
