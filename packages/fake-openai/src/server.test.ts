import { afterEach, describe, expect, it } from "vitest";
import { dropAfter, fakeServerKeeper, floodText, slowText, stall, status, text, toolCalls, type FakeOpenAI } from "./index.js";

const servers = fakeServerKeeper();
afterEach(servers.close);
const start = servers.start;

const chat = (fake: FakeOpenAI, body: Record<string, unknown> = {}, init: RequestInit = {}): Promise<Response> =>
  fetch(`${fake.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true, stream_options: { include_usage: true }, ...body }),
    ...init,
  });

type Chunk = {
  choices: {
    delta: { content?: string | null; tool_calls?: { index: number; id?: string; function: { name?: string; arguments: string } }[] };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
};

const sseData = (body: string): string[] =>
  body
    .split("\n\n")
    .map((frame) =>
      frame
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6),
    )
    .filter((data): data is string => data !== undefined);

const chunksOf = async (response: Response): Promise<Chunk[]> => {
  const data = sseData(await response.text());
  expect(data.at(-1)).toBe("[DONE]");
  return data.slice(0, -1).map((d) => JSON.parse(d) as Chunk);
};

const contentOf = (chunks: Chunk[]): string[] => chunks.flatMap((c) => c.choices.map((choice) => choice.delta.content ?? "")).filter((t) => t !== "");

describe("startFakeOpenAI", () => {
  it("streams scripted text as chat.completion.chunk deltas, then usage, and records the request", async () => {
    const fake = await start([text(["Hel", "lo"], { promptTokens: 1234 })]);
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await chat(fake);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const chunks = await chunksOf(response);
    expect(contentOf(chunks)).toEqual(["Hel", "lo"]);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 1234, completion_tokens: 2 });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: "/v1/chat/completions", body: { model: "m" } });
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("sends no usage chunk unless the client asks for it", async () => {
    const fake = await start();
    const chunks = await chunksOf(await chat(fake, { stream_options: undefined }));
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it("answers ok when the queue is empty, and computes function replies from the request", async () => {
    const fake = await start();
    fake.enqueue((request) => text(`echo ${(request.body as { model: string }).model}`));
    expect(contentOf(await chunksOf(await chat(fake, { model: "x1" })))).toEqual(["echo x1"]);
    expect(contentOf(await chunksOf(await chat(fake)))).toEqual(["ok"]);
    expect(fake.pending()).toBe(0);
  });

  it("streams tool calls as tool_call deltas ending with finish_reason tool_calls", async () => {
    const fake = await start([
      toolCalls(
        [
          { name: "bash", arguments: { command: "ls -la" } },
          { name: "read_file", arguments: "{broken", id: "call_x" },
        ],
        "Let me look.",
      ),
    ]);
    const chunks = await chunksOf(await chat(fake));
    const calls = new Map<number, { id: string | undefined; name: string | undefined; args: string }>();
    for (const delta of chunks.flatMap((c) => c.choices.flatMap((choice) => choice.delta.tool_calls ?? []))) {
      const call = calls.get(delta.index) ?? { id: undefined, name: undefined, args: "" };
      calls.set(delta.index, { id: delta.id ?? call.id, name: delta.function.name ?? call.name, args: call.args + delta.function.arguments });
    }
    expect(contentOf(chunks)).toEqual(["Let me look."]);
    expect(calls.get(0)).toMatchObject({ name: "bash", args: '{"command":"ls -la"}' });
    expect(calls.get(0)?.id).toMatch(/^call_fake_/);
    expect(calls.get(1)).toEqual({ id: "call_x", name: "read_file", args: "{broken" });
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("answers status replies with an OpenAI-style error body and the given headers", async () => {
    const fake = await start([status(429, undefined, { "retry-after": "1" }), status(500, { error: { message: "boom" } })]);
    const limited = await chat(fake);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(await limited.json()).toMatchObject({ error: { type: "rate_limit_exceeded" } });
    const failed = await chat(fake);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: { message: "boom" } });
  });

  it("drops the connection mid-stream after the given chunks", async () => {
    const fake = await start([dropAfter(["par", "tial"])]);
    const response = await chat(fake);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        received += value;
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(received).toContain('"content":"tial"');
    expect(received).not.toContain("[DONE]");
  });

  it("stalls after the headers until the client gives up, or serves what follows", async () => {
    const fake = await start([stall(60_000), stall(50, text("late"))]);
    const controller = new AbortController();
    const response = await chat(fake, {}, { signal: controller.signal });
    expect(response.status).toBe(200);
    const reading = response.text();
    setTimeout(() => controller.abort(), 50);
    await expect(reading).rejects.toThrow();
    expect(contentOf(await chunksOf(await chat(fake)))).toEqual(["late"]);
  });

  it("streams slow text one frame at a time, and stops when the client leaves", async () => {
    const fake = await start([slowText(["a", "b"], 30), slowText(["x", "y", "z"], 500)]);
    const started = performance.now();
    expect(contentOf(await chunksOf(await chat(fake)))).toEqual(["a", "b"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    const controller = new AbortController();
    const response = await chat(fake, {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(response.text()).rejects.toThrow();
  });

  it("floods many small chunks quickly", async () => {
    const fake = await start([floodText(50_000, "x")]);
    const started = performance.now();
    const chunks = await chunksOf(await chat(fake));
    expect(contentOf(chunks)).toHaveLength(50_000);
    expect(chunks.at(-1)?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("answers non-streaming requests with a chat.completion body", async () => {
    const fake = await start([toolCalls([{ name: "bash", arguments: { command: "pwd" } }])]);
    const response = await chat(fake, { stream: false });
    expect(await response.json()).toMatchObject({
      object: "chat.completion",
      choices: [{ message: { tool_calls: [{ function: { name: "bash", arguments: '{"command":"pwd"}' } }] }, finish_reason: "tool_calls" }],
      usage: { prompt_tokens: expect.any(Number) },
    });
  });

  it("streams the Responses API for text and function calls", async () => {
    const fake = await start([toolCalls([{ name: "bash", arguments: { command: "ls" } }], "Looking.")]);
    const response = await fetch(`${fake.url}/responses`, {
      method: "POST",
      body: JSON.stringify({ model: "m", input: [], stream: true }),
    });
    const events = sseData(await response.text()).map((d) => JSON.parse(d) as { type: string; delta?: string; item?: { arguments?: string } });
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events[6]?.item?.arguments).toBe('{"command":"ls"}');
  });

  it("answers unknown routes 404 and lists a model", async () => {
    const fake = await start();
    expect((await fetch(`${fake.url}/embeddings`, { method: "POST", body: "{}" })).status).toBe(404);
    expect(await (await fetch(`${fake.url}/models`)).json()).toMatchObject({ data: [{ id: "fake-model" }] });
  });
});
