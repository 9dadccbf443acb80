/**
 * `mm-acp --setup`, spawned from the built binary with its answers piped into stdin: it writes the
 * user's config file (never the key), changes an existing one only after a yes, and exits 0 only
 * once written.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/index.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN } from "./spawned-agent.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "mm-setup-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

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
    const result = await setup(["http://127.0.0.1:11434/v1", "qwen2.5-coder:14b", "OLLAMA_KEY"]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(JSON.parse(readFileSync(userFile(), "utf8"))).toEqual({
      model: { baseURL: "http://127.0.0.1:11434/v1", name: "qwen2.5-coder:14b", apiKeyEnv: "OLLAMA_KEY" },
    });
    expect(result.stderr).toContain(`mm-acp: wrote ${userFile()}: model qwen2.5-coder:14b at http://127.0.0.1:11434/v1, key read from $OLLAMA_KEY`);
    expect(result.stderr).toContain("$OLLAMA_KEY is not set in this shell");
    const loaded = loadConfig({ argv: [], env: { OLLAMA_KEY: "k" }, cwd: home, home })._unsafeUnwrap();
    expect(loaded).toMatchObject({ source: userFile(), config: { model: { name: "qwen2.5-coder:14b", apiKey: "k" } } });
  });

  it("takes the defaults on empty answers and writes under $XDG_CONFIG_HOME", async () => {
    const xdg = join(home, "xdg");
    const result = await setup(["", "", ""], { XDG_CONFIG_HOME: xdg, OPENAI_API_KEY: "sk-live-secret" });
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(xdg, "mm/config.json"), "utf8"))).toEqual({
      model: { baseURL: "https://api.openai.com/v1", name: "gpt-4.1-mini", apiKeyEnv: "OPENAI_API_KEY" },
    });
    expect(result.stderr).toContain("$OPENAI_API_KEY is set in this shell");
    expect(result.stderr).not.toContain("sk-live-secret");
  });

  it("never writes nor repeats a key typed where its variable's name belongs", async () => {
    const key = "sk-proj-0123456789abcdef";
    const result = await setup(["", "", key, "MY_KEY"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("that looks like a key itself");
    expect(result.stderr).not.toContain(key);
    expect(readFileSync(userFile(), "utf8")).not.toContain(key);
    expect(JSON.parse(readFileSync(userFile(), "utf8")).model.apiKeyEnv).toBe("MY_KEY");
  });

  it("asks again after a refused answer", async () => {
    const result = await setup(["ftp://nope", "http://h:8000/v1", "m", ""]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('expected an http(s) URL, got "ftp://nope"');
    expect(JSON.parse(readFileSync(userFile(), "utf8")).model.baseURL).toBe("http://h:8000/v1");
  });

  it("leaves an existing file alone without a yes, and keeps its other keys with one", async () => {
    mkdirSync(join(home, ".config/mm"), { recursive: true });
    const before = '{"model":{"name":"old","contextWindow":32000},"sessions":{"enabled":true}}';
    writeFileSync(userFile(), before);
    const refused = await setup(["", "", "", ""]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("left unchanged");
    expect(readFileSync(userFile(), "utf8")).toBe(before);
    const accepted = await setup(["y", "", "new-model", ""]);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain("Model [old]: new-model");
    expect(JSON.parse(readFileSync(userFile(), "utf8"))).toEqual({
      model: { name: "new-model", contextWindow: 32000, baseURL: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY" },
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
