/**
 * npm and yarn in the clone stop with one line naming the command that installs mm, and leave nothing:
 * the root's preinstall (npm), .yarnrc's yarn-path (yarn 1) and .yarnrc.yml's yarnPath (yarn 2+) all run
 * scripts/use-pnpm.cjs; the package-lock.json npm still writes is ignored by git (`package-lock=false` in
 * .npmrc would make pnpm refuse its own lockfile).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "..", "..", "..");
const GUARD = "scripts/use-pnpm.cjs";
const LINE = "mm installs with pnpm: run 'corepack pnpm install' (npm and yarn cannot install this workspace).\n";

const guard = (userAgent: string) =>
  spawnSync(process.execPath, [join(REPO, GUARD)], { env: { PATH: process.env.PATH ?? "", npm_config_user_agent: userAgent }, encoding: "utf8" });

describe("installing the clone with another package manager", () => {
  it("is refused in one line for npm and yarn, and let through for pnpm", () => {
    for (const agent of ["npm/10.8.2 node/v20.20.2 linux x64", "yarn/1.22.22 npm/? node/v20.20.2", ""]) {
      const run = guard(agent);
      expect([run.status, run.stderr, run.stdout]).toEqual([1, LINE, ""]);
    }
    expect(guard("pnpm/10.34.8 npm/? node/v20.20.2 linux x64").status).toBe(0);
  });

  it("is wired for each of them, what they leave is ignored, and pnpm keeps its lockfile", () => {
    const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(manifest.scripts.preinstall).toBe(`node ${GUARD}`);
    expect(readFileSync(join(REPO, ".yarnrc"), "utf8")).toContain(`yarn-path "${GUARD}"`);
    expect(readFileSync(join(REPO, ".yarnrc.yml"), "utf8")).toContain(`yarnPath: ${GUARD}`);
    expect(readFileSync(join(REPO, ".npmrc"), "utf8")).not.toMatch(/^\s*(package-lock|lockfile)\s*=\s*false/m);
    const ignored = readFileSync(join(REPO, ".gitignore"), "utf8").split("\n");
    for (const entry of ["package-lock.json", "yarn.lock", ".yarn/", ".pnp.*"]) expect(ignored).toContain(entry);
  });
});
