/**
 * The ACP registry entry kept in registry/mm-acp/: agent.json valid against the registry's own JSON
 * Schema (test/fixtures/acp-registry, Apache-2.0), plus the rules its CI checks beyond the schema
 * (.github/workflows/build_registry.py, CONTRIBUTING.md, AUTHENTICATION.md of agentclientprotocol/registry),
 * each restated below, and in step with this package: same version, `<name>@<version>` to npx.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config/index.js";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { AGENT_INFO } from "../src/editor/agent-info.js";
import { BIN } from "./spawned-agent.js";

const APP = join(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = join(APP, "../..");
const ENTRY_DIR = join(REPO, "registry/mm-acp");
const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

type Entry = {
  id: string;
  version: string;
  license?: string;
  repository?: string;
  distribution: { npx: { package: string; args?: string[]; env?: Record<string, string> } };
};
const entry = readJson(join(ENTRY_DIR, "agent.json")) as unknown as Entry;
const pkg = readJson(join(APP, "package.json")) as { name: string; version: string; license: string; repository?: { url: string } | string };
const icon = readFileSync(join(ENTRY_DIR, "icon.svg"), "utf8");

describe("registry/mm-acp/agent.json", () => {
  it("is valid against the registry's agent.schema.json", () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    ajv.addFormat("uri", (value: string) => URL.canParse(value) && /^[a-z][a-z0-9+.-]*:/i.test(value));
    const validate = ajv.compile(readJson(join(APP, "test/fixtures/acp-registry/agent.schema.json")));
    expect(validate(entry), ajv.errorsText(validate.errors)).toBe(true);
  });

  it("has the id of its directory: lowercase letters, digits and hyphens, starting with a letter", () => {
    expect(entry.id).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(entry.id).toBe(basename(ENTRY_DIR));
  });

  it("carries the package's version, which initialize reports too", () => {
    expect(entry.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(entry.version).toBe(pkg.version);
    expect(AGENT_INFO.version).toBe(pkg.version);
  });

  it("launches npx with this exact package and version, never @latest", () => {
    expect(entry.distribution.npx.package).toBe(`${pkg.name}@${pkg.version}`);
    expect(entry.distribution.npx.package.toLowerCase()).not.toContain("@latest");
    expect(Object.keys(entry.distribution)).toEqual(["npx"]);
  });

  it("shares its exact version with the READMEs' npx commands", () => {
    for (const readme of [join(REPO, "README.md"), join(APP, "README.md")]) {
      const named = [...readFileSync(readme, "utf8").matchAll(/\bmm-acp@(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
      expect(named.length, readme).toBeGreaterThan(0);
      expect(new Set(named), readme).toEqual(new Set([pkg.version]));
    }
  });

  it("has the package's licence and repository", () => {
    expect(entry.license).toBe(pkg.license);
    expect(existsSync(join(REPO, "LICENSE"))).toBe(true);
    const repository = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url.replace(/^git\+/, "").replace(/\.git$/, "");
    expect(entry.repository).toBe(repository);
  });

  it("starts with the full surface, through an environment the config accepts", () => {
    const env = entry.distribution.npx.env ?? {};
    expect(env).toEqual({ MM_ACP_SURFACE: "full" });
    const loaded = loadConfig({ argv: entry.distribution.npx.args ?? [], env, cwd: "/nonexistent", home: "/nonexistent" });
    expect(loaded._unsafeUnwrap().config.acp.surface).toBe("full");
  });
});

describe("registry/mm-acp/icon.svg", () => {
  const attribute = (name: string) => [...icon.matchAll(new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, "gi"))].map((m) => m[1]!.trim().toLowerCase());

  it("is 16×16 and square", () => {
    expect(/<svg[^>]*\swidth=["'](\d+)/.exec(icon)?.[1]).toBe("16");
    expect(/<svg[^>]*\sheight=["'](\d+)/.exec(icon)?.[1]).toBe("16");
    expect(/viewBox=["']([^"']+)["']/.exec(icon)?.[1]).toBe("0 0 16 16");
  });

  it("is monochrome: every fill and stroke currentColor, none or inherit, and currentColor used", () => {
    const allowed = ["currentcolor", "none", "inherit"];
    expect([...attribute("fill"), ...attribute("stroke")].filter((value) => !allowed.includes(value))).toEqual([]);
    expect(attribute("style")).toEqual([]);
    expect(icon).toMatch(/currentColor/);
  });
});

describe("the registry's auth check", () => {
  it("finds a terminal method when the agent starts as the entry says (raw JSON-RPC, as its client.py sends it)", async () => {
    const child = spawn(process.execPath, [BIN, ...(entry.distribution.npx.args ?? [])], {
      env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", TERM: "dumb", ...entry.distribution.npx.env },
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: 1,
        clientInfo: { name: "ACP Registry Validator", version: "1.0.0" },
        clientCapabilities: { terminal: true, fs: { readTextFile: true, writeTextFile: true }, _meta: { terminal_output: true, "terminal-auth": true } },
      },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const line = await new Promise<string>((resolve) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
    });
    child.stdin.end();
    const response = JSON.parse(line) as { result: { authMethods: { type?: string; id: string; args?: string[] }[] } };
    expect(response.result.authMethods.filter((m) => m.type === "terminal" || m.type === "agent")).toEqual([
      expect.objectContaining({ type: "terminal", id: "mm-setup", args: ["--setup"] }),
    ]);
  });
});
