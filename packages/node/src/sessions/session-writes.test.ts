import { describe, expect, it } from "vitest";
import type { History, StoredSession } from "@mm/core";
import { planWrite, type Kept } from "./session-writes.js";

const history: History = [
  { role: "system", text: "You are Bob." },
  { role: "user", text: "fix the parser\nplease" },
  { role: "assistant", text: "Done.", toolCalls: [] },
];
const stored: StoredSession = { id: "20260101-000000-00000001", cwd: "/p", createdAt: 1, updatedAt: 2, history };
const keptOf = (session: StoredSession): Kept => ({
  session,
  generation: "0123456789ab",
  document: { ino: 1, size: 4096, mtimeMs: 1 },
  journal: undefined,
  broken: false,
});
const grown = (session: StoredSession, extra: Partial<StoredSession> = {}): StoredSession => ({
  ...session,
  updatedAt: 3,
  history: [...session.history, { role: "user", text: "and the tests" }] as unknown as History,
  ...extra,
});

describe("planWrite", () => {
  it("appends a turn to a document written before titles, loaded with its first prompt's title", () => {
    const plan = planWrite(keptOf(stored), grown(stored, { title: "fix the parser" }))._unsafeUnwrap();
    expect(plan).toMatchObject({ kind: "append" });
  });

  it("rewrites the document when the title, the model or the mode changes", () => {
    const titled = { ...stored, title: "fix the parser" };
    for (const change of [{ title: "renamed" }, { model: "big" }, { mode: "edits" as const }]) {
      expect(planWrite(keptOf(titled), grown(titled, change))._unsafeUnwrap()).toMatchObject({ kind: "rewrite" });
    }
    expect(planWrite(keptOf(stored), grown(stored, { title: "another title" }))._unsafeUnwrap()).toMatchObject({ kind: "rewrite" });
  });

  it("writes nothing when nothing changed", () => {
    expect(planWrite(keptOf(stored), stored)._unsafeUnwrap()).toBe("nothing");
  });
});
