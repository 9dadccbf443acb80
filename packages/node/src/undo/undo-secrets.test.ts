/** Undo data never holds a secret of the agent's: a before-state holding one is not copied (issue 36). */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { secretSet } from "../boundary/secrets.js";
import { nodeUndoStore, SECRET_NOT_KEPT } from "./node-undo-store.js";

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("nodeUndoStore with the agent's secrets", () => {
  it("refuses to keep bytes that hold one, writing nothing, and keeps the others", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "mm-undo-secrets-"));
    made.push(cwd);
    const secrets = secretSet(["sk-undo-secret-123"]);
    const store = nodeUndoStore({ dir: ".mm/sessions", holdsSecret: secrets.heldIn });
    const place = { cwd, sessionId: "20260916-101530-4f2a9c1e" };
    const refused = await store.putBlob(place, Buffer.from("OPENAI_API_KEY=sk-undo-secret-123\n"));
    expect(refused._unsafeUnwrapErr()).toEqual({ kind: "io", message: SECRET_NOT_KEPT });
    expect(await readdir(join(cwd, ".mm/sessions")).catch(() => [])).toEqual([]);
    expect((await store.putBlob(place, Buffer.from("nothing secret\n"))).isOk()).toBe(true);
  });
});
