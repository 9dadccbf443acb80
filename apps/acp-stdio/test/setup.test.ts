/**
 * `mm-acp --setup`, spawned from the built binary with its answers piped into stdin, asking the local
 * fake server (never a real one) for its models: it writes the user's config file (never the key),
 * changes an existing one only after a yes, and exits 0 only once written.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAI } from "@mm/fake-openai";
import { loadConfig } from "../src/config/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN } from "./spawned-agent.js";

let home: string;
let server: FakeOpenAI;
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), "mm-setup-"));
  server = await startFakeOpenAI([], { models: ["fake-model", "qwen2.5-coder:14b"] });
});
afterEach(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

const setup = (answers: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, "--setup"], { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(answers.map((a) => `${a}\n`).join(""));
  });

const userFile = () => join(home, ".config/mm/config.json");

describe("mm-acp --setup", () => {
  it("writes base URL, model and the key's variable to ~/.config/mm/config.json, which then loads", async () => {
    const result = await setup([server.url, "OLLAMA_KEY", "qwen2.5-coder:14b"]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(JSON.parse(readFileSync(userFile(), "utf8"))).toEqual({
      model: { baseURL: server.url, name: "qwen2.5-coder:14b", apiKeyEnv: "OLLAMA_KEY" },
    });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
    expect(result.stderr).toContain("mm-acp: the server answered (without a key): 2 model(s)\n  1) fake-model\n  2) qwen2.5-coder:14b\n");
    expect(result.stderr).toContain(`mm-acp: wrote ${userFile()}: model qwen2.5-coder:14b at ${server.url}, key read from $OLLAMA_KEY`);
    expect(result.stderr).toContain("the server answered without a key: none is needed ($OLLAMA_KEY is not set, which is fine)");
    const loaded = loadConfig({ argv: [], env: { OLLAMA_KEY: "k" }, cwd: home, home })._unsafeUnwrap();
    expect(loaded).toMatchObject({ source: userFile(), config: { model: { name: "qwen2.5-coder:14b", apiKey: "k" } } });
  });

  it("takes the defaults on empty answers (the file's server, the first model it lists) and writes under $XDG_CONFIG_HOME", async () => {
    const xdg = join(home, "xdg");
    mkdirSync(join(xdg, "mm"), { recursive: true });
    writeFileSync(join(xdg, "mm/config.json"), JSON.stringify({ model: { baseURL: server.url } }));
    const result = await setup(["y", "", "", ""], { XDG_CONFIG_HOME: xdg, OPENAI_API_KEY: "sk-live-secret" });
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(xdg, "mm/config.json"), "utf8"))).toEqual({
      model: { baseURL: server.url, name: "fake-model", apiKeyEnv: "OPENAI_API_KEY" },
    });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-live-secret");
    expect(result.stderr).toContain("the server answered (with the key in $OPENAI_API_KEY): 2 model(s)");
    expect(result.stderr).toContain("$OPENAI_API_KEY is set in this shell");
    expect(result.stderr).not.toContain("sk-live-secret");
  });

  it("never writes nor repeats a key typed where its variable's name belongs", async () => {
    const key = "sk-proj-0123456789abcdef";
    const result = await setup([server.url, key, "MY_KEY", ""]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("that looks like a key itself");
    expect(result.stderr).not.toContain(key);
    expect(readFileSync(userFile(), "utf8")).not.toContain(key);
    expect(JSON.parse(readFileSync(userFile(), "utf8")).model.apiKeyEnv).toBe("MY_KEY");
  });

  it("asks again after a refused answer", async () => {
    const result = await setup(["ftp://nope", server.url, "", "fake-model"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('expected an http(s) URL, got "ftp://nope"');
    expect(JSON.parse(readFileSync(userFile(), "utf8")).model.baseURL).toBe(server.url);
  });

  it("leaves an existing file alone without a yes, and keeps its other keys with one", async () => {
    mkdirSync(join(home, ".config/mm"), { recursive: true });
    const before = JSON.stringify({ model: { name: "qwen2.5-coder:14b", contextWindow: 32000, baseURL: server.url }, sessions: { enabled: true } });
    writeFileSync(userFile(), before);
    const refused = await setup(["", "", "", ""]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("left unchanged");
    expect(readFileSync(userFile(), "utf8")).toBe(before);
    const accepted = await setup(["y", "", "", "fake-model"]);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain("Model [qwen2.5-coder:14b]: fake-model");
    expect(JSON.parse(readFileSync(userFile(), "utf8"))).toEqual({
      model: { name: "fake-model", contextWindow: 32000, baseURL: server.url, apiKeyEnv: "OPENAI_API_KEY" },
      sessions: { enabled: true },
    });
  });

  it("writes nothing when the answers run out", async () => {
    const result = await setup(["http://h/v1"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("setup cancelled (end of input): nothing written");
    expect(existsSync(userFile())).toBe(false);
  });
});
