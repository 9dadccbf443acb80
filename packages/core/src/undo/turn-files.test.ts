import { describe, expect, it } from "vitest";
import { inMemoryFileSystem } from "../testing/in-memory-file-system.js";
import { inMemoryUndoStore } from "../testing/in-memory-undo-store.js";
import { DEFAULT_UNDO_LIMITS } from "../ports/undo-store.js";
import { turnFiles } from "./turn-files.js";

describe("turnFiles", () => {
  it("records a hidden path a command changed without reading it: named, not restorable, no hash of it kept", async () => {
    const fs = inMemoryFileSystem({ "/w/.env": "SECRET=1\n", "/w/a.txt": "b\n" });
    const store = inMemoryUndoStore(fs);
    const read: string[] = [];
    const watched = { ...store, read: (path: string, max: number) => (read.push(path), store.read(path, max)) };
    const place = { cwd: "/w", sessionId: "s" };
    const files = await turnFiles({ store: watched, fs, limits: DEFAULT_UNDO_LIMITS, warn: () => undefined }, place, [{ role: "system", text: "sys" }], "go");
    await files.afterCall([], {
      status: "completed",
      output: "",
      diffs: [
        { path: "/w/.env", oldText: null, newText: null, note: "file changed, not shown: a hidden path (content never read)" },
        { path: "/w/a.txt", oldText: "a\n", newText: "b\n" },
      ],
      before: (path) => (path === "/w/a.txt" ? { bytes: new TextEncoder().encode("a\n") } : undefined),
      hidden: (path) => path === "/w/.env",
    });
    expect(read).toEqual(["/w/a.txt"]);
    const log = (await store.loadLog(place))._unsafeUnwrap();
    const env = log.turns[0]?.files.find((file) => file.path === "/w/.env");
    expect(env).toEqual({
      path: "/w/.env",
      before: { kind: "unknown", reason: "a hidden path: /undo never reads nor keeps it" },
      after: { kind: "unknown", reason: "a hidden path: /undo never reads nor keeps it" },
    });
  });
});
