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
    expect((await file.write("/p", ["npm test"])).isOk()).toBe(true);
    expect((await file.write("/q", ["ls"])).isOk()).toBe(true);
    expect((await file.read("/p")).unwrapOr(undefined)).toEqual(["npm test"]);
    expect(statSync(join(dir, "state/mm/permissions.json")).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "state/mm")).mode & 0o777).toBe(0o700);
    await file.write("/p", []);
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
});
