/**
 * The floor of the benchmark: the smallest Node ACP agent on the same SDK as mm (2.4.0) that does what
 * a streaming turn needs — on `session/prompt`, POST the prompt to the chat-completions endpoint named
 * by `--config FILE` (`model.baseURL`), read its SSE stream and send each delta as one
 * `agent_message_chunk`, then answer `end_turn`. No history, no tools, no validation beyond the SDK's.
 * Not part of the product: bench/floor/build.ts bundles it the way build.mjs bundles mm.
 */
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const baseUrl = (): string => {
  const at = process.argv.indexOf("--config");
  const file = at >= 0 ? process.argv[at + 1] : undefined;
  if (file === undefined) throw new Error("floor-agent: --config FILE is required");
  const config = JSON.parse(readFileSync(file, "utf8")) as { model?: { baseURL?: string; name?: string } };
  if (config.model?.baseURL === undefined) throw new Error("floor-agent: model.baseURL is missing");
  return config.model.baseURL;
};

type Frame = { choices?: { delta?: { content?: string } }[] };

/** Streams one chat completion, calling `onDelta` with each non-empty content delta. */
const streamCompletion = async (url: string, text: string, onDelta: (delta: string) => void): Promise<void> => {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer floor" },
    body: JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: text }] }),
  });
  if (!response.ok || response.body === null) throw new Error(`model answered ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const delta = (JSON.parse(line.slice(6)) as Frame).choices?.[0]?.delta?.content;
      if (delta) onDelta(delta);
    }
  }
};

export const start = (): void => {
  const url = baseUrl();
  let sessions = 0;
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = acp
    .agent({ name: "floor" })
    .onRequest("initialize", () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }))
    .onRequest("session/new", () => ({ sessionId: `floor-${++sessions}` }))
    .onRequest("session/prompt", async ({ params }) => {
      const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
      await streamCompletion(url, text, (delta) => {
        connection.client
          .notify("session/update", { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: delta } } })
          .catch(() => undefined);
      });
      return { stopReason: "end_turn" as const };
    })
    .connect(stream);
};
