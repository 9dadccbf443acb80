/**
 * What change tracking costs a bash call: generates a repository of N files (200 files a directory),
 * then times `begin` and `finish` of the agent's changeTracker around a "command" that changes some
 * of them. `npx tsx --conditions=mm-source apps/acp-stdio/bench/lib/measure-changes.ts [files] [runs]` prints the medians
 * for 0, 3 and 10 changes in a 20,000-file git repository and in a 5,000-file folder outside git;
 * `… measure-changes.ts --json '<options>'` prints one measurement as JSON.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { changeTracker, type ChangeTrackingOptions } from "@mm/node";

export type MeasureOptions = {
  /** Files in the generated tree. Default 20,000. */
  readonly files?: number;
  /** Files the timed "command" rewrites. Default 0. */
  readonly changes?: number;
  /** Timed calls; medians are reported of all but the first. Default 5. */
  readonly runs?: number;
  /** A git repository (default) or a plain folder, for the scan. */
  readonly git?: boolean;
  /** An existing tree made by {@link generateTree} with the same `files` and `git`: reused and kept. */
  readonly dir?: string;
  readonly tracking?: ChangeTrackingOptions;
};

export type Measurement = {
  readonly filesInRepo: number;
  /** begin + finish of the first call on a fresh tracker: the full snapshot and the watches. */
  readonly firstCallMs: number;
  readonly beginMs: number;
  readonly finishMs: number;
  readonly totalMs: number;
  readonly changes: number;
  /** Diffs the last run reported (the changes, unless tracking was unavailable: then -1). */
  readonly diffs: number;
};

const FILES_PER_DIRECTORY = 200;

/** git for the generated repository: no automatic gc in the background of the measurement. */
const runGit = (cwd: string, ...args: string[]): void => {
  execFileSync(
    "git",
    ["-c", "user.name=mm", "-c", "user.email=mm@example.invalid", "-c", "commit.gpgsign=false", "-c", "gc.auto=0", "-c", "maintenance.auto=false", ...args],
    {
      cwd,
      stdio: "ignore",
    },
  );
};

const fileName = (i: number): string => join(`d${Math.floor(i / FILES_PER_DIRECTORY)}`, `f${i % FILES_PER_DIRECTORY}.ts`);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `files` small source files under `dir`; as a committed git repository with a refreshed index when `git`. */
export const generateTree = async (dir: string, files: number, git: boolean): Promise<void> => {
  for (let i = 0; i < files; i += 1) {
    if (i % FILES_PER_DIRECTORY === 0) mkdirSync(join(dir, `d${i / FILES_PER_DIRECTORY}`), { recursive: true });
    writeFileSync(join(dir, fileName(i)), `export const value${i} = ${i};\n// ${"x".repeat(i % 120)}\n`);
  }
  if (!git) return;
  runGit(dir, "init", "-q");
  runGit(dir, "add", "-A");
  runGit(dir, "commit", "-q", "-m", "generated");
  await sleep(1100);
  runGit(dir, "update-index", "-q", "--refresh");
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

const round = (ms: number): number => Math.round(ms * 10) / 10;

/** Times begin and finish around a command rewriting `changes` files; medians over `runs`. */
export const measureChangeTracking = async (options: MeasureOptions = {}): Promise<Measurement> => {
  const files = options.files ?? 20_000;
  const changes = Math.min(options.changes ?? 0, files);
  const runs = Math.max(2, options.runs ?? 5);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "mm-measure-"));
  try {
    if (options.dir === undefined) await generateTree(dir, files, options.git ?? true);
    const tracker = changeTracker(options.tracking);
    const begins: number[] = [];
    const finishes: number[] = [];
    let diffs = -1;
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      const snapshot = await tracker.begin(dir);
      const begun = performance.now();
      if (snapshot.isErr())
        return {
          filesInRepo: files,
          firstCallMs: round(begun - started),
          beginMs: round(begun - started),
          finishMs: 0,
          totalMs: round(begun - started),
          changes,
          diffs,
        };
      for (let i = 0; i < changes; i += 1)
        writeFileSync(join(dir, fileName((run * 7919 + i * 104_729) % files)), `// run ${run} change ${i} of ${changes} by ${process.pid}\n`);
      const finishing = performance.now();
      const result = await snapshot.value.finish();
      const finished = performance.now();
      diffs = result.isOk() ? result.value.length : -1;
      begins.push(begun - started);
      finishes.push(finished - finishing);
    }
    // The first call sets up what later calls reuse: reported apart, left out of the medians.
    const firstCallMs = (begins.shift() ?? 0) + (finishes.shift() ?? 0);
    const beginMs = median(begins);
    const finishMs = median(finishes);
    return {
      filesInRepo: files,
      firstCallMs: round(firstCallMs),
      beginMs: round(beginMs),
      finishMs: round(finishMs),
      totalMs: round(beginMs + finishMs),
      changes,
      diffs,
    };
  } finally {
    if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
};

const line = (what: string, m: Measurement): string =>
  `${what}, ${m.filesInRepo.toLocaleString("en-US")} files, ${m.changes} changed: begin ${m.beginMs} ms + finish ${m.finishMs} ms = ${m.totalMs} ms per bash call (${m.diffs} diffs; first call ${m.firstCallMs} ms)`;

const main = async (): Promise<void> => {
  // `--json '<MeasureOptions>'`: one measurement, printed as JSON (the benchmark runs it in a process of its own).
  if (process.argv[2] === "--json") {
    const options = JSON.parse(process.argv[3] ?? "{}") as MeasureOptions;
    process.stdout.write(`${JSON.stringify(await measureChangeTracking(options))}\n`);
    return;
  }
  const files = Number(process.argv[2] ?? 20_000);
  const runs = Number(process.argv[3] ?? 7);
  const repo = mkdtempSync(join(tmpdir(), "mm-measure-"));
  const folder = mkdtempSync(join(tmpdir(), "mm-measure-"));
  try {
    await generateTree(repo, files, true);
    console.log(line("git work tree", await measureChangeTracking({ dir: repo, files, runs, changes: 0 })));
    console.log(line("git work tree", await measureChangeTracking({ dir: repo, files, runs, changes: 3 })));
    console.log(line("git work tree", await measureChangeTracking({ dir: repo, files, runs, changes: 10 })));
    await generateTree(folder, 5000, false);
    console.log(line("folder outside git", await measureChangeTracking({ dir: folder, files: 5000, runs, changes: 0, git: false })));
    console.log(line("folder outside git", await measureChangeTracking({ dir: folder, files: 5000, runs, changes: 3, git: false })));
    console.log(line("folder outside git", await measureChangeTracking({ dir: folder, files: 5000, runs, changes: 10, git: false })));
  } finally {
    rmSync(repo, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
