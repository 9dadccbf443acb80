/**
 * The auth method of the "full" surface, through the SDK's own client: a `terminal` method running
 * `mm-acp --setup` for clients that can run one, nothing on the spec surface, `{}` from `authenticate`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AcpSurface } from "../src/config/index.js";
import { describe, expect, it } from "vitest";
import { inMemoryAcp } from "./in-memory-acp.js";

/** The `clientCapabilities` the ACP registry's CI sends (.github/workflows/client.py): no `auth`, only the older `_meta` flag. */
const REGISTRY_CHECK: acp.ClientCapabilities = {
  terminal: true,
  fs: { readTextFile: true, writeTextFile: true },
  _meta: { terminal_output: true, "terminal-auth": true },
};

const initializeWith = async (surface: AcpSurface, capabilities: acp.ClientCapabilities) => {
  const t = inMemoryAcp({ config: (c) => ({ ...c, acp: { surface } }) });
  const authenticated = await t.run((agent) => agent.request("authenticate", { methodId: "mm-setup" }), capabilities);
  const init = t.wire.find((w) => w.from === "agent" && w.message.id !== undefined)!.message.result as acp.InitializeResponse;
  expect(t.problems).toEqual([]);
  return { authMethods: init.authMethods, authenticated };
};

const SETUP = {
  type: "terminal",
  id: "mm-setup",
  name: "Set up the model server",
  description: "Choose the model server, the model and the environment variable holding its key (the key itself is never written)",
  args: ["--setup"],
};

describe("authMethods", () => {
  it("stays [] on the spec surface, whatever the client can do", async () => {
    expect(await initializeWith("spec", { auth: { terminal: true }, ...REGISTRY_CHECK })).toEqual({ authMethods: [], authenticated: {} });
  });

  it("offers mm-acp --setup as a terminal method under full, to a client declaring auth.terminal", async () => {
    expect(await initializeWith("full", { auth: { terminal: true } })).toEqual({ authMethods: [SETUP], authenticated: {} });
  });

  it("offers it to the registry's check, which declares only _meta terminal-auth", async () => {
    const { authMethods } = await initializeWith("full", REGISTRY_CHECK);
    expect(authMethods).toEqual([SETUP]);
  });

  it("offers nothing under full to a client that cannot run a terminal method", async () => {
    expect((await initializeWith("full", {})).authMethods).toEqual([]);
    expect((await initializeWith("full", { auth: { terminal: false }, terminal: true })).authMethods).toEqual([]);
  });
});
