/**
 * (6) What reporting a bash call's file changes costs: the agent's change tracker around a command in a
 * generated 20,000-file git repository and in a 5,000-file folder outside git (nothing changed, 3 and
 * 10 files changed), through the same `changeTracker` the agent uses, one tracker per figure as one
 * agent keeps one: the median over 5 calls after its first (reported apart: the full snapshot and the
 * watches it sets up). Timed in a node process of its own. The baseline is `git status --porcelain` on the same
 * repository, what a user would run to see the same thing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateTree, type Measurement } from "../lib/measure-changes.js";
import { REPO_DIR } from "../lib/workspace.js";

const MEASURE = join(REPO_DIR, "apps/acp-stdio/bench/lib/measure-changes.ts");
import { row, type Row } from "../lib/report.js";
import { now } from "../lib/stats.js";

const RUNS = 5;

export const changes = async (): Promise<Row[]> => {
  const repo = mkdtempSync(join(tmpdir(), "mm-bench-repo-"));
  const plain = mkdtempSync(join(tmpdir(), "mm-bench-plain-"));
  try {
    await generateTree(repo, 20_000, true);
    await generateTree(plain, 5_000, false);
    const status: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = now();
      execFileSync("git", ["status", "--porcelain"], { cwd: repo, stdio: "ignore" });
      status.push(now() - t0);
    }
    const baseline = { label: "git status --porcelain", samples: status };
    // In a node process of its own, as the agent is: a fork from this one, grown by the scenarios
    // before, costs more than one from the agent, and each git command is a fork.
    const measure = (git: boolean, changes: number): Measurement =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            "--conditions=mm-source",
            "--import",
            "tsx",
            MEASURE,
            "--json",
            JSON.stringify({ dir: git ? repo : plain, files: git ? 20_000 : 5_000, git, runs: RUNS + 1, changes }),
          ],
          {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "inherit"],
          },
        ),
      ) as Measurement;
    const rowOf = (id: string, figure: string, m: Measurement, max: number, withBaseline: boolean): Row =>
      row({
        id,
        figure,
        unit: "ms",
        samples: [m.totalMs],
        ...(withBaseline ? { baseline } : {}),
        targets: [{ on: "value", max }],
        note: `begin ${m.beginMs} ms + finish ${m.finishMs} ms, ${m.diffs} diff(s) reported; the first call on a fresh tracker (full snapshot, watches) ${m.firstCallMs} ms`,
      });
    const gitNone = measure(true, 0);
    const gitThree = measure(true, 3);
    const gitTen = measure(true, 10);
    const scanNone = measure(false, 0);
    const scanThree = measure(false, 3);
    const scanTen = measure(false, 10);
    return [
      rowOf("changes.git.none", "bash diffs, 20,000-file git repo, nothing changed (begin+finish)", gitNone, 30, true),
      rowOf("changes.git.three", "bash diffs, 20,000-file git repo, 3 files changed", gitThree, 60, true),
      rowOf("changes.git.ten", "bash diffs, 20,000-file git repo, 10 files changed", gitTen, 60, true),
      rowOf("changes.scan.none", "bash diffs, 5,000-file folder outside git, nothing changed", scanNone, 30, false),
      rowOf("changes.scan.three", "bash diffs, 5,000-file folder outside git, 3 changed", scanThree, 60, false),
      rowOf("changes.scan.ten", "bash diffs, 5,000-file folder outside git, 10 changed", scanTen, 60, false),
    ];
  } finally {
    rmSync(repo, { recursive: true, force: true });
    rmSync(plain, { recursive: true, force: true });
  }
};
