import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rememberedRulesFile } from "./remembered-rules-file.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-rules-file-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the remembered rules file", () => {
  it("keeps rules by project, private to the user, and forgets a project emptied", async () => {
    const file = rememberedRulesFile(join(dir, "state/mm/permissions.json"));
    expect((await file.read("/p")).unwrapOr(undefined)).toEqual([]);
    expect((await file.update("/p", () => ["npm test"])).isOk()).toBe(true);
    expect((await file.update("/q", () => ["ls"])).isOk()).toBe(true);
    expect((await file.read("/p")).unwrapOr(undefined)).toEqual(["npm test"]);
    expect(statSync(join(dir, "state/mm/permissions.json")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "state/mm")).mode & 0o777).toBe(0o700);
    await file.update("/p", () => []);
    expect(JSON.parse(readFileSync(join(dir, "state/mm/permissions.json"), "utf8"))).toEqual({ version: 1, projects: { "/q": ["ls"] } });
  });

  it("refuses a link, a file others can write, and what is not its JSON", async () => {
    writeFileSync(join(dir, "elsewhere.json"), JSON.stringify({ projects: { "/p": ["rm"] } }));
    symlinkSync(join(dir, "elsewhere.json"), join(dir, "link.json"));
    expect((await rememberedRulesFile(join(dir, "link.json")).read("/p"))._unsafeUnwrapErr()).toContain("symbolic link");
    writeFileSync(join(dir, "open.json"), JSON.stringify({ projects: { "/p": ["rm"] } }));
    chmodSync(join(dir, "open.json"), 0o666);
    expect((await rememberedRulesFile(join(dir, "open.json")).read("/p"))._unsafeUnwrapErr()).toContain("can be written by others");
    writeFileSync(join(dir, "bad.json"), "[1,2]");
    expect((await rememberedRulesFile(join(dir, "bad.json")).read("/p"))._unsafeUnwrapErr()).toContain('no "projects"');
  });

  it("takes over a dead holder's lock and a planted link, and fails in bounded time while a live one holds it", async () => {
    const path = join(dir, "permissions.json");
    const file = rememberedRulesFile(path);
    writeFileSync(`${path}.lock`, "999999999\n", { mode: 0o600 });
    expect((await file.update("/p", () => ["ls"]))._unsafeUnwrap()).toEqual(["ls"]);
    writeFileSync(join(dir, "target"), "keep");
    symlinkSync(join(dir, "target"), `${path}.lock`);
    expect((await file.update("/p", (rules) => [...rules, "pwd"]))._unsafeUnwrap()).toEqual(["ls", "pwd"]);
    expect(readFileSync(join(dir, "target"), "utf8")).toBe("keep");
    writeFileSync(`${path}.lock`, `${process.pid}\n`, { mode: 0o600 });
    expect((await file.update("/p", () => []))._unsafeUnwrapErr()).toContain("held by another mm process");
    expect((await file.read("/p"))._unsafeUnwrap()).toEqual(["ls", "pwd"]);
  }, 30_000);
});
