import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { ModelEvent } from "@mm/core";
import { afterEach, describe, expect, it } from "vitest";
import { fakeServerKeeper, text } from "../../fake-openai/src/index.js";
import { aiSdkModel } from "./ai-sdk-model.js";
import { nodeHttpSender } from "./node-http-fetch.js";
import { cannedConnection, warmUpFrames } from "./warm-up.js";
import { warmUpSocket } from "./warm-up-socket.js";

const servers = fakeServerKeeper();
afterEach(servers.close);

const collect = async (events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> => {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
};

describe("the warm-up step", () => {
  for (const api of ["chat", "responses"] as const) {
    it(`${api}: runs a whole step on the canned answer without contacting the server, once`, async () => {
      const fake = await servers.start([text("real")]);
      const model = aiSdkModel({ model: "fake-model", baseURL: fake.url, apiKey: "sk-test", api, maxRetries: 0 });
      expect(await model.warmUp()).toBe("warmed");
      expect(await model.warmUp()).toBe("warmed");
      expect(fake.requests).toHaveLength(0);
      const events = await collect(model.step({ system: "s", messages: [{ role: "user", text: "hi" }], tools: [], signal: new AbortController().signal }));
      expect(events[0]).toEqual({ type: "text", text: "real" });
      expect(fake.requests).toHaveLength(1);
    });
  }

  it("a real step started during the warm-up stops it instead of waiting for it", async () => {
    const fake = await servers.start([text(["now", "!"])]);
    const model = aiSdkModel({ model: "fake-model", baseURL: fake.url, apiKey: "sk-test", api: "chat", maxRetries: 0 });
    const warming = model.warmUp();
    const events = await collect(model.step({ system: "s", messages: [{ role: "user", text: "hi" }], tools: [], signal: new AbortController().signal }));
    expect(events.slice(0, 2)).toEqual([
      { type: "text", text: "now" },
      { type: "text", text: "!" },
    ]);
    expect(await warming).toBe("stopped");
  });

  it("the canned connection answers what is written to it with the frames, one per turn, as a chunked 200 event stream", async () => {
    const socket = cannedConnection(["data: a\n\n", "data: é\n\n"]);
    const received: string[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk.toString("utf8")));
    const ended = new Promise((resolve) => socket.on("end", resolve));
    socket.write("POST / HTTP/1.1\r\n\r\n");
    await ended;
    expect(received[0]).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: text\/event-stream\r\ntransfer-encoding: chunked\r\n/);
    expect(received.slice(1)).toEqual(["9\r\ndata: a\n\n\r\n", "a\r\ndata: é\n\n\r\n", "0\r\n\r\n"]);
    expect(warmUpFrames("chat", "m").at(-1)).toBe("data: [DONE]\n\n");
  });

  it.each(["linux", "darwin"] as const)("the local socket (%s) serves the frames through the keep-alive agent, twice on one connection, and leaves nothing behind", async (platform) => {
    if (platform === "linux" && process.platform !== "linux") return;
    const local = await warmUpSocket(["data: a\n\n", "data: é\n\n"], platform);
    expect(local).toBeDefined();
    // Linux: an abstract socket, no file at all; elsewhere a file in a private directory, until connected.
    if (platform === "linux") expect(local!.path.startsWith("\0")).toBe(true);
    else expect(existsSync(local!.path)).toBe(true);
    let opened = 0;
    const send = nodeHttpSender({
      agentConnection: () => {
        opened++;
        return local!.connect();
      },
    });
    const request = { url: new URL("http://warm-up.invalid/v1/chat/completions"), method: "POST", headers: {}, body: [Buffer.from("{}")] };
    for (let i = 0; i < 2; i++) {
      const response = await send(request);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      expect(await response.text()).toBe("data: a\n\ndata: é\n\n");
    }
    expect(opened).toBe(1);
    if (platform !== "linux") expect(existsSync(dirname(local!.path))).toBe(false);
    local!.close();
  });
});
