import type * as acp from "@agentclientprotocol/sdk";
import { counterHex, inMemoryFileSystem, inMemorySessionStore, inMemorySkillCatalogue, manualClock, scriptedModel, scriptedShell } from "@mm/core/testing";
import type { MmConfig } from "@mm/node";
import { describe, expect, it } from "vitest";
import { testConfig } from "../test/test-config.js";
import { answerFirst } from "./front.js";
import { serve } from "./serve.js";
import { afterFront, REPLAYED_INITIALIZE_ID } from "./wire/front-handoff.js";
import { lightReadable, lightWritable } from "./wire/light-streams.js";

type Raw = { id?: unknown; method?: string; result?: unknown; error?: { code: number; message: string } };

/** A message-level wire: what the editor sends, and each message the agent writes, as the JSON line it becomes. */
const wire = () => {
  const incoming: acp.AnyMessage[] = [];
  let wake: (() => void) | undefined;
  const out: string[] = [];
  let written: (() => void) | undefined;
  const stream: acp.Stream = {
    readable: lightReadable(
      async () => {
        while (incoming.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        return incoming.shift();
      },
      async () => undefined,
    ),
    writable: lightWritable(async (message: acp.AnyMessage) => {
      out.push(JSON.stringify(message));
      written?.();
    }),
  };
  const send = (message: Record<string, unknown>): void => {
    incoming.push({ jsonrpc: "2.0", ...message } as acp.AnyMessage);
    wake?.();
  };
  /** The `n`th line the agent wrote (from 0), once written. */
  const line = async (n: number): Promise<string> => {
    while (out.length <= n) await new Promise<void>((resolve) => (written = resolve));
    return out[n]!;
  };
  return { stream, send, line, out };
};

const portsFor = (config: MmConfig) => ({
  model: scriptedModel(),
  fs: inMemoryFileSystem({}),
  shell: scriptedShell(),
  skills: inMemorySkillCatalogue([]),
  store: config.sessions.enabled ? inMemorySessionStore() : undefined,
  clock: manualClock(),
  random: counterHex(),
});

const OPTIONS = { os: "linux x64", home: "/home/u" };

/** The agent as it was before the front: the SDK answers everything. */
const direct = (config: MmConfig) => {
  const w = wire();
  const logs: string[] = [];
  serve(config, portsFor(config), w.stream, { ...OPTIONS, log: (l) => logs.push(l) });
  return { ...w, logs };
};

/** The front reading the first message, then the agent on what it handed over. */
const viaFront = (config: MmConfig) => {
  const w = wire();
  const logs: string[] = [];
  const warnings: string[] = [];
  const handoffs: string[] = [];
  answerFirst(w.stream, config, (read) => {
    handoffs.push(read.kind);
    serve(config, portsFor(config), afterFront(w.stream, read, (l) => warnings.push(l)), { ...OPTIONS, log: (l) => logs.push(l) });
  });
  return { ...w, logs, warnings, handoffs };
};

const configs: Record<string, MmConfig> = {
  spec: testConfig(),
  "spec, sessions kept, vision": { ...testConfig(), sessions: { enabled: true, dir: "/s" }, model: { ...testConfig().model, vision: true } },
  full: { ...testConfig(), acp: { surface: "full" } },
  "full, sessions kept": { ...testConfig(), acp: { surface: "full" }, sessions: { enabled: true, dir: "/s" } },
};

/** What real clients send (as in wire/initialize-params.test.ts), and a terminal-auth client for the full surface's method. */
const clients: Record<string, Record<string, unknown>> = {
  acpx: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: "acpx", version: "0.19.1" } },
  zed: {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, _meta: { "terminal-auth": true } },
    clientInfo: { name: "zed", title: "Zed", version: "0.212.0" },
  },
  "acp.el": { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } } },
  "auth.terminal": { protocolVersion: 1, clientCapabilities: { auth: { terminal: true } } },
  bare: { protocolVersion: 1 },
};

describe("the start-up front", () => {
  for (const [configName, config] of Object.entries(configs)) {
    for (const [clientName, params] of Object.entries(clients)) {
      it(`answers ${clientName}'s initialize on the ${configName} configuration byte for byte as the SDK does, and the agent then serves the session`, async () => {
        const before = direct(config);
        before.send({ id: 0, method: "initialize", params });
        const expected = await before.line(0);

        const front = viaFront(config);
        front.send({ id: 0, method: "initialize", params });
        expect(await front.line(0)).toBe(expected);
        expect(front.handoffs).toEqual([]);

        // The editor's next request, sent before the agent was handed over, is answered as usual.
        front.send({ id: 1, method: "session/new", params: { cwd: "/w", mcpServers: [] } });
        const created = JSON.parse(await front.line(1)) as Raw;
        expect(created.id).toBe(1);
        expect(created.error).toBeUndefined();
        expect(created.result).toMatchObject({ sessionId: expect.any(String) });
        expect(front.handoffs).toEqual(["answered"]);
        // The handler saw the initialize (it logs the client), its second answer stayed off the wire.
        expect(front.logs.filter((l) => l.includes("initialize:"))).toEqual(before.logs.filter((l) => l.includes("initialize:")));
        expect(front.out.join("\n")).not.toContain(REPLAYED_INITIALIZE_ID);
        expect(front.warnings).toEqual([]);
      });
    }
  }

  const declined: Record<string, Record<string, unknown>> = {
    "a request before initialize": { id: 3, method: "session/new", params: { cwd: "/w", mcpServers: [] } },
    "initialize with a bad protocol version": { id: 3, method: "initialize", params: { protocolVersion: "1" } },
    "initialize with no params": { id: 3, method: "initialize" },
    "initialize with a field the fast check does not know": { id: 3, method: "initialize", params: { protocolVersion: 1, clientCapabilities: { future: {} } } },
    "initialize with a null id": { id: null, method: "initialize", params: { protocolVersion: 1 } },
    "an unknown method": { id: 3, method: "no/such", params: {} },
  };
  for (const [name, message] of Object.entries(declined)) {
    it(`hands ${name} to the agent unread, which answers as it always did`, async () => {
      const before = direct(testConfig());
      before.send(message);
      const expected = await before.line(0);
      const front = viaFront(testConfig());
      front.send(message);
      expect(await front.line(0)).toBe(expected);
      expect(front.handoffs).toEqual(["unread"]);
    });
  }

  it("leaves a second initialize to the agent, which answers it as the SDK always did", async () => {
    const params = clients.acpx!;
    const before = direct(testConfig());
    before.send({ id: 0, method: "initialize", params });
    before.send({ id: 1, method: "initialize", params });
    const expected = [await before.line(0), await before.line(1)];
    const front = viaFront(testConfig());
    front.send({ id: 0, method: "initialize", params });
    front.send({ id: 1, method: "initialize", params });
    expect([await front.line(0), await front.line(1)]).toEqual(expected);
    expect(front.handoffs).toEqual(["answered"]);
  });

  it("hands an initialize notification (no id) to the agent unread", async () => {
    const front = viaFront(testConfig());
    front.send({ method: "initialize", params: { protocolVersion: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(front.handoffs).toEqual(["unread"]);
    expect(front.out).toEqual([]);
  });

  it("hands over an input that failed, for the agent's read to meet the same failure", async () => {
    const failing: acp.Stream = {
      readable: lightReadable<acp.AnyMessage>(() => Promise.reject(new Error("EIO on stdin")), async () => undefined),
      writable: lightWritable<acp.AnyMessage>(async () => undefined),
    };
    const reads: string[] = [];
    answerFirst(failing, testConfig(), (read) => reads.push(read.kind));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual(["none"]);
  });

  it("hands over an input that ended before any message", async () => {
    const ended: acp.Stream = { readable: lightReadable<acp.AnyMessage>(async () => undefined, async () => undefined), writable: lightWritable<acp.AnyMessage>(async () => undefined) };
    const reads: string[] = [];
    answerFirst(ended, testConfig(), (read) => reads.push(read.kind));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual(["none"]);
  });

  it("keeps the editor's messages from the SDK until the replayed initialize is answered", async () => {
    const w = wire();
    const stream = afterFront(w.stream, { kind: "answered", params: { protocolVersion: 1 } }, () => undefined);
    w.send({ id: 1, method: "session/new", params: {} });
    const reader = stream.readable.getReader();
    expect(((await reader.read()).value as Raw).id).toBe(REPLAYED_INITIALIZE_ID);
    let second: Raw | undefined;
    const reading = reader.read().then(({ value }) => (second = value as Raw));
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBeUndefined();
    await stream.writable.getWriter().write({ jsonrpc: "2.0", id: REPLAYED_INITIALIZE_ID, result: {} } as acp.AnyMessage);
    await reading;
    expect(second?.id).toBe(1);
    expect(w.out).toEqual([]);
  });
});
