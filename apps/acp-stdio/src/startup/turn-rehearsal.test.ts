import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aiSdkModel } from "@mm/ai-model";
import { counterHex, inMemoryFileSystem, inMemorySkillCatalogue, scriptedShell } from "@mm/core/testing";
import type { AppPorts } from "../serve.js";
import { describe, expect, it } from "vitest";
import { testConfig } from "../../test/test-config.js";
import { REHEARSAL_CHUNKS, rehearseTurn } from "./turn-rehearsal.js";

type Line = { id?: number; method?: string; result?: { stopReason?: string }; params?: { update?: { sessionUpdate?: string; content?: { text?: string } } } };

/** In-memory ports and the real model's canned chat (its own request path, against a private local socket). */
/** Calls of the model list: the rehearsal asks the server nothing. */
const lists: unknown[] = [];
const canned = (): AppPorts => {
  const model = aiSdkModel({ model: "test-model", baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-test", api: "chat" }).cannedChat(REHEARSAL_CHUNKS);
  if (model === undefined) throw new Error("no canned chat on this platform");
  return {
    model,
    fs: inMemoryFileSystem(),
    shell: scriptedShell(),
    skills: inMemorySkillCatalogue([]),
    store: { list: () => { throw new Error("the rehearsal used the store"); } } as unknown as AppPorts["store"],
    clock: { now: () => Date.now() },
    random: counterHex(),
    listModels: async () => (lists.push(1), undefined),
  };
};

describe("rehearseTurn", () => {
  it("runs a whole turn on its own agent through the real model path: every chunk, then end_turn", async () => {
    const lines: Line[] = [];
    await rehearseTurn({ ...testConfig(), acp: { surface: "full" } }, canned(), { onLine: (line) => lines.push(JSON.parse(line) as Line) });
    const chunks = lines.filter((m) => m.method === "session/update" && m.params?.update?.sessionUpdate === "agent_message_chunk");
    expect(chunks.map((m) => m.params?.update?.content?.text)).toEqual(REHEARSAL_CHUNKS);
    expect(lines.find((m) => m.id === 3)?.result?.stopReason).toBe("end_turn");
    expect(lists).toEqual([]);
  });

  it("touches no disk and writes nothing to stdout, even with sessions kept", async () => {
    const home = await mkdtemp(join(tmpdir(), "mm-rehearsal-"));
    const writes: unknown[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: unknown) => (writes.push(chunk), true)) as typeof process.stdout.write;
    try {
      await rehearseTurn({ ...testConfig(), sessions: { enabled: true, dir: join(home, "sessions") } }, canned());
    } finally {
      process.stdout.write = write;
    }
    expect(writes).toEqual([]);
    expect(await readdir(home)).toEqual([]);
    await rm(home, { recursive: true, force: true });
  });

  it("stops at once when cancelled: before it starts, and in the middle of its turn", async () => {
    const before = new AbortController();
    before.abort();
    const none: Line[] = [];
    await rehearseTurn(testConfig(), canned(), { signal: before.signal, onLine: (line) => none.push(JSON.parse(line) as Line) });
    expect(none).toEqual([]);

    const during = new AbortController();
    const lines: Line[] = [];
    const started = Date.now();
    await rehearseTurn(testConfig(), canned(), {
      signal: during.signal,
      onLine: (line) => {
        const message = JSON.parse(line) as Line;
        lines.push(message);
        if (message.params?.update?.sessionUpdate === "agent_message_chunk") during.abort();
      },
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    const chunks = lines.filter((m) => m.params?.update?.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.length).toBeLessThan(REHEARSAL_CHUNKS.length);
  });

  it("is not offered where the model has no chat path of its own", () => {
    expect(aiSdkModel({ model: "m", baseURL: "http://127.0.0.1:9/v1", apiKey: "k", api: "responses" }).cannedChat(REHEARSAL_CHUNKS)).toBeUndefined();
  });
});
