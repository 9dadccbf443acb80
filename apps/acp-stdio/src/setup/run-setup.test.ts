/**
 * `runSetup` with its answers in a stream and its transcript in a string, asking the local fake
 * server (packages/fake-openai) for real, or a fetch of the test's own where a server would refuse.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fakeServerKeeper } from "@mm/fake-openai";
import { afterEach, describe, expect, it } from "vitest";
import { runSetup, type SetupIo } from "./run-setup.js";

const servers = fakeServerKeeper();
afterEach(servers.close);

const setup = async (answers: readonly string[], io: Partial<SetupIo> = {}) => {
  const home = mkdtempSync(join(tmpdir(), "mm-run-setup-"));
  let transcript = "";
  const code = await runSetup({
    input: Readable.from([answers.map((a) => `${a}\n`).join("")]),
    write: (text) => void (transcript += text),
    env: {},
    home,
    cwd: home,
    interactive: false,
    ...io,
  });
  const file = join(home, ".config/mm/config.json");
  const written = (): unknown => JSON.parse(readFileSync(file, "utf8"));
  return { code, transcript, written };
};

const answering = (status: number, body: unknown = {}): typeof fetch => (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

describe("mm-acp --setup asks the server", () => {
  it("offers the models a local server lists, without a key, and takes one by number", async () => {
    const server = await servers.start([], { models: ["qwen2.5-coder:14b", "llama3.1:8b"] });
    const { code, transcript, written } = await setup([server.url, "", "2"]);
    expect(code).toBe(0);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(transcript).toContain(`mm-acp: asking the server: GET ${server.url}/models`);
    expect(transcript).toContain("mm-acp: the server answered (without a key): 2 model(s)\n  1) llama3.1:8b\n  2) qwen2.5-coder:14b\n");
    // The first listed is the default: never gpt-4.1-mini for a server that does not list it.
    expect(transcript).toContain("Model [llama3.1:8b]: 2\n");
    expect(transcript).toContain("the server answered without a key: none is needed ($OPENAI_API_KEY is not set, which is fine)");
    expect(written()).toEqual({ model: { baseURL: server.url, name: "qwen2.5-coder:14b", apiKeyEnv: "OPENAI_API_KEY" } });
  });

  it("sends the key of the variable named, and asks twice before taking a model the server does not list", async () => {
    const server = await servers.start([], { models: ["m1"] });
    const { code, transcript, written } = await setup([server.url, "LOCAL_KEY", "m2", "m2"], { env: { LOCAL_KEY: "k-123" } });
    expect(code).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer k-123");
    expect(transcript).toContain("the server answered (with the key in $LOCAL_KEY): 1 model(s)");
    expect(transcript).toContain('the server does not list "m2": type it again to keep it');
    expect(transcript).not.toContain("k-123");
    expect(written()).toEqual({ model: { baseURL: server.url, name: "m2", apiKeyEnv: "LOCAL_KEY" } });
  });

  it("says when nothing answers, and offers no OpenAI model for another server", async () => {
    const server = await servers.start();
    const url = server.url;
    await servers.close();
    const { code, transcript, written } = await setup([url, "", "", "my-model"]);
    expect(code).toBe(0);
    expect(transcript).toContain(
      `mm-acp: the server did not answer: cannot reach the model server at ${url}: connection refused; the model's name cannot be checked`,
    );
    expect(transcript).toContain("Model: \n  type the model's name\nModel: my-model\n");
    expect(written()).toMatchObject({ model: { name: "my-model" } });
  });

  it("names the variable of a refused key", async () => {
    const { transcript } = await setup(["http://127.0.0.1:9/v1", "GROQ_API_KEY", "m"], { env: { GROQ_API_KEY: "gsk_secret" }, fetch: answering(401) });
    expect(transcript).toContain("mm-acp: the server refused the key in $GROQ_API_KEY (401): check that variable's value");
    expect(transcript).not.toContain("gsk_secret");
  });

  it("gives up on a silent server after the timeout", async () => {
    const silent = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)))) as typeof fetch;
    const { transcript } = await setup(["http://127.0.0.1:9/v1", "", "m"], { fetch: silent, timeoutMs: 50 });
    expect(transcript).toContain("mm-acp: the server did not answer: no answer within 0.05 s");
  });

  it("offers gpt-4.1-mini for OpenAI's own server when it lists it", async () => {
    const listed = answering(200, { data: [{ id: "gpt-4o" }, { id: "gpt-4.1-mini" }] });
    const { transcript, written } = await setup(["", "", ""], { env: { OPENAI_API_KEY: "sk-live-secret" }, fetch: listed });
    expect(transcript).toContain("Model [gpt-4.1-mini]: \n");
    expect(transcript).toContain("$OPENAI_API_KEY is set in this shell");
    expect(transcript).not.toContain("sk-live-secret");
    expect(written()).toEqual({ model: { baseURL: "https://api.openai.com/v1", name: "gpt-4.1-mini", apiKeyEnv: "OPENAI_API_KEY" } });
  });
});
