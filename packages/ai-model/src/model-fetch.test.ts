import { afterEach, describe, expect, it } from "vitest";
import { startEndlessServer, type EndlessServer } from "../../fake-openai/src/index.js";
import { aiSdkModel } from "./ai-sdk-model.js";
import { listModelIds } from "./model-catalogue.js";
import { MAX_REDIRECTS, RedirectRefused, sameOriginRedirects } from "./model-fetch.js";
import { collect } from "./test-support.js";

/** A fetch answering each URL from `routes` (a redirect's Location, or a body), recording what it was asked. */
const routed = (routes: Readonly<Record<string, { status: number; location?: string } | string>>) => {
  const asked: { url: string; method: string; redirect: string | undefined; body: unknown }[] = [];
  const inner = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = String(input);
    asked.push({ url, method: init?.method ?? "GET", redirect: init?.redirect, body: init?.body });
    const route = routes[url];
    if (route === undefined) return new Response("no such route", { status: 404 });
    if (typeof route === "string") return new Response(route, { status: 200 });
    return new Response("moved", { status: route.status, headers: route.location !== undefined ? { location: route.location } : {} });
  }) as typeof fetch;
  return { inner, asked };
};

describe("sameOriginRedirects", () => {
  it("follows a redirect within the origin, method and body kept (307), never letting fetch follow one itself", async () => {
    const { inner, asked } = routed({
      "http://h:1/v1/chat/completions": { status: 307, location: "/v2/chat/completions" },
      "http://h:1/v2/chat/completions": "answered",
    });
    const response = await sameOriginRedirects(inner)("http://h:1/v1/chat/completions", { method: "POST", body: "{}" });
    expect(await response.text()).toBe("answered");
    expect(asked).toEqual([
      { url: "http://h:1/v1/chat/completions", method: "POST", redirect: "manual", body: "{}" },
      { url: "http://h:1/v2/chat/completions", method: "POST", redirect: "manual", body: "{}" },
    ]);
  });

  it("refuses a redirect to another origin (another host, port or scheme) without asking it, naming where it pointed", async () => {
    for (const location of ["http://elsewhere:1/v1/x?token=secret", "http://h:2/v1/x", "https://h:1/v1/x"]) {
      const { inner, asked } = routed({ "http://h:1/v1/x": { status: 308, location } });
      const failure = await sameOriginRedirects(inner)("http://h:1/v1/x", { method: "POST", body: "{}" }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RedirectRefused);
      expect((failure as Error).message).toBe(
        `redirected (308) to ${location.replace("?token=secret", "")}, another origin: not followed, so the key goes nowhere else`,
      );
      expect(asked.map((a) => a.url)).toEqual(["http://h:1/v1/x"]);
    }
  });

  it("refuses a redirect that would turn a POST into a GET, and a loop past the limit; a GET follows a 302", async () => {
    const post = routed({ "http://h:1/a": { status: 302, location: "/b" } });
    await expect(sameOriginRedirects(post.inner)("http://h:1/a", { method: "POST" })).rejects.toThrow(/would turn the request into a GET/);
    const get = routed({ "http://h:1/a": { status: 302, location: "/b" }, "http://h:1/b": "listed" });
    expect(await (await sameOriginRedirects(get.inner)("http://h:1/a")).text()).toBe("listed");
    const loop = routed({ "http://h:1/a": { status: 307, location: "/a" } });
    await expect(sameOriginRedirects(loop.inner)("http://h:1/a")).rejects.toThrow(`redirected more than ${MAX_REDIRECTS} times`);
    expect(loop.asked).toHaveLength(MAX_REDIRECTS + 1);
  });

  it("hands a redirect without a Location back as it is", async () => {
    const { inner } = routed({ "http://h:1/a": { status: 302 } });
    expect((await sameOriginRedirects(inner)("http://h:1/a")).status).toBe(302);
  });
});

describe("a model server that never ends a line", () => {
  let server: EndlessServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each([
    ["data-line", 200, "chat"],
    ["comment-line", 200, "chat"],
    ["json", 500, "chat"],
    ["data-line", 200, "responses"],
  ] as const)("a step against an endless %s (status %i, %s) fails in one line, asked once, retries allowed", async (kind, status, api) => {
    server = await startEndlessServer({ kind, status, maxMs: 20_000 });
    const baseURL = `${server.origin}/v1`;
    const model = aiSdkModel({ model: "m", baseURL, apiKey: "k-0123456789", api, maxRetries: 2, sleep: async () => undefined });
    const events = await collect(model.step({ system: "s", messages: [{ role: "user", text: "hi" }], tools: [], signal: new AbortController().signal }));
    const last = events.at(-1);
    expect(last).toEqual({
      type: "error",
      error: {
        kind: "bad-response",
        message:
          kind === "json"
            ? `the model server at ${baseURL} sent an answer of over 16 MiB; stopped, not retried`
            : `the model server at ${baseURL} sent over 8 MiB of an event stream without ending an event (a line that never ends?); stopped, not retried`,
      },
    });
    expect(server.requests).toHaveLength(1);
    await server.idle();
    expect(server.written()).toBeLessThan(64 * 1024 * 1024);
  });

  it.each(["json", "data-line"] as const)("GET /models against an endless %s: a one-line reason, the answer read no further than its bound", async (kind) => {
    server = await startEndlessServer({ kind, maxMs: 20_000 });
    const result = await listModelIds({ baseURL: `${server.origin}/v1`, timeoutMs: 15_000 });
    expect(result._unsafeUnwrapErr()).toBe(`the server sent an answer of over 16 MiB to GET ${server.origin}/v1/models; stopped`);
    await server.idle();
    expect(server.written()).toBeLessThan(64 * 1024 * 1024);
  });
});
