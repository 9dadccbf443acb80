import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bannerLines } from "./banner.js";
import { loadConfig } from "../config/index.js";

const root = mkdtempSync(join(tmpdir(), "mm-banner-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const configWith = (sessions: unknown) => {
  const path = join(root, "mm.json");
  writeFileSync(path, JSON.stringify({ sessions }));
  return loadConfig({ argv: ["--config", path], env: {}, cwd: root, home: root })._unsafeUnwrap().config;
};

describe("bannerLines", () => {
  it("says where sessions are kept: under each session's cwd for a relative dir, the dir itself for an absolute one", () => {
    expect(bannerLines(configWith({ enabled: true }), [], null)[2]).toBe("mm-acp: 0 skill(s); sessions kept in <cwd>/.mm/sessions");
    expect(bannerLines(configWith({ enabled: true, dir: "/var/mm/sessions" }), [], null)[2]).toBe("mm-acp: 0 skill(s); sessions kept in /var/mm/sessions");
    expect(bannerLines(configWith({ enabled: false }), [], null)[2]).toBe("mm-acp: 0 skill(s)");
  });
});
