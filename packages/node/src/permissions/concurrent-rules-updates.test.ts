/**
 * Several mm processes changing the remembered rules file at once: each change is read, applied and
 * written under the lock, so none is lost and a rule forgotten by one is never brought back by another.
 * Real child processes (through tsx), started together behind a barrier so their updates overlap.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const TSX = fileURLToPath(new URL("../../../../node_modules/.bin/tsx", import.meta.url));
const STORE = pathToFileURL(fileURLToPath(new URL("./remembered-rules-file.ts", import.meta.url))).href;

/** The child: waits for the go file, then adds (or forgets) each rule, one update each. */
const CHILD = `
import { existsSync } from "node:fs";
const [store, file, go, project, action, ...rules] = process.argv.slice(2);
const { rememberedRulesFile } = await import(store);
const book = rememberedRulesFile(file);
process.stdout.write("ready\\n");
while (!existsSync(go)) await new Promise((resolve) => setTimeout(resolve, 2));
for (const rule of rules) {
  const done = await book.update(project, (kept) =>
    action === "add" ? (kept.includes(rule) ? kept : [...kept, rule]) : kept.filter((k) => k !== rule),
  );
  if (done.isErr()) {
    process.stderr.write(done.error + "\\n");
    process.exit(1);
  }
}
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-rules-race-"));
  writeFileSync(join(dir, "child.mts"), CHILD);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Job = { readonly project: string; readonly action: "add" | "forget"; readonly rules: readonly string[] };

/** Runs every job in its own process, all released at once; resolves with each one's exit code and stderr. */
const race = async (file: string, jobs: readonly Job[]): Promise<readonly { code: number | null; stderr: string }[]> => {
  const go = join(dir, "go");
  let ready = 0;
  let release: () => void = () => undefined;
  const allReady = new Promise<void>((resolve) => {
    release = resolve;
  });
  const runs = jobs.map(
    (job) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(TSX, [join(dir, "child.mts"), STORE, file, go, job.project, job.action, ...job.rules], { stdio: ["ignore", "pipe", "pipe"] });
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("ready") && ++ready === jobs.length) release();
        });
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on("close", (code) => {
          if (++ready === jobs.length) release();
          resolve({ code, stderr });
        });
      }),
  );
  await allReady;
  writeFileSync(go, "");
  return Promise.all(runs);
};

const projectsIn = (file: string): Record<string, string[]> => (JSON.parse(readFileSync(file, "utf8")) as { projects: Record<string, string[]> }).projects;

describe("the remembered rules file changed by several processes at once", () => {
  it("keeps every rule that 4 processes each add, 10 apiece", async () => {
    const file = join(dir, "state", "permissions.json");
    const jobs = [0, 1, 2, 3].map(
      (p): Job => ({ project: p % 2 === 0 ? "/p" : "/q", action: "add", rules: Array.from({ length: 10 }, (_, i) => `rule-${p}-${i}`) }),
    );
    const results = await race(file, jobs);
    expect(results.map((r) => r.stderr)).toEqual(["", "", "", ""]);
    const projects = projectsIn(file);
    const kept = [...(projects["/p"] ?? []), ...(projects["/q"] ?? [])];
    expect(kept.sort()).toEqual(jobs.flatMap((job) => job.rules).sort());
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 120_000);

  it("never brings back a rule forgotten while others add rules", async () => {
    const file = join(dir, "permissions.json");
    const doomed = Array.from({ length: 10 }, (_, i) => `doomed-${i}`);
    writeFileSync(file, JSON.stringify({ version: 1, projects: { "/p": ["keep", ...doomed] } }), { mode: 0o600 });
    const adders = [0, 1, 2].map((p): Job => ({ project: "/p", action: "add", rules: Array.from({ length: 10 }, (_, i) => `rule-${p}-${i}`) }));
    const results = await race(file, [...adders, { project: "/p", action: "forget", rules: doomed }]);
    expect(results.map((r) => r.stderr)).toEqual(["", "", "", ""]);
    const kept = projectsIn(file)["/p"] ?? [];
    expect(kept.filter((rule) => rule.startsWith("doomed-"))).toEqual([]);
    expect([...kept].sort()).toEqual(["keep", ...adders.flatMap((job) => job.rules)].sort());
  }, 120_000);
});
