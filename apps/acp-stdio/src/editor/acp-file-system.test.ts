import * as acp from "@agentclientprotocol/sdk";
import { inMemoryFileSystem } from "@mm/core/testing";
import { describe, expect, it } from "vitest";
import { acpFileSystem } from "./acp-file-system.js";
import type { Peer } from "../state/app-state.js";

/** A peer whose editor answers every request with `answer` (a thrown value is its error answer). */
const peerAnswering = (answer: (method: string) => unknown): Peer => ({
  client: { request: async (method: string) => answer(method) } as unknown as acp.AgentContext,
  capabilities: { fs: { readTextFile: true, writeTextFile: true } },
});

describe("acpFileSystem: the editor's refusal", () => {
  it("fails a read and a write with the editor's reason, and touches nothing local", async () => {
    const local = inMemoryFileSystem({ "/w/a.txt": "local" });
    const fs = acpFileSystem(
      peerAnswering((method) => {
        throw new acp.RequestError(-32603, `Permission denied for ${method}`, "by policy");
      }),
      "s1",
      local,
    );
    expect((await fs.readText("/w/a.txt"))._unsafeUnwrapErr()).toEqual({
      kind: "io",
      path: "/w/a.txt",
      message: "the editor refused fs/read_text_file (Permission denied for fs/read_text_file: by policy)",
    });
    expect((await fs.writeText("/w/b.txt", "x"))._unsafeUnwrapErr()).toMatchObject({
      kind: "io",
      message: expect.stringContaining("the editor refused fs/write_text_file"),
    });
    expect((await local.readText("/w/b.txt")).isErr()).toBe(true);
  });

  it("uses the local disk when the editor does not know the method", async () => {
    const local = inMemoryFileSystem({ "/w/a.txt": "local" });
    const fs = acpFileSystem(
      peerAnswering((method) => {
        throw acp.RequestError.methodNotFound(method);
      }),
      "s1",
      local,
    );
    expect((await fs.readText("/w/a.txt"))._unsafeUnwrap()).toBe("local");
    expect((await fs.writeText("/w/b.txt", "x")).isOk()).toBe(true);
    expect((await local.readText("/w/b.txt"))._unsafeUnwrap()).toBe("x");
  });

  it("takes the editor's answer when it gives one", async () => {
    const local = inMemoryFileSystem({ "/w/a.txt": "local" });
    const fs = acpFileSystem(
      peerAnswering((method) => (method === "fs/read_text_file" ? { content: "buffer" } : null)),
      "s1",
      local,
    );
    expect((await fs.readText("/w/a.txt"))._unsafeUnwrap()).toBe("buffer");
    expect((await fs.writeText("/w/b.txt", "x")).isOk()).toBe(true);
    expect((await local.readText("/w/b.txt")).isErr()).toBe(true);
  });
});
