/**
 * (6) What reporting a bash call's file changes costs: the agent's change tracker around a command in a
 * generated 20,000-file git repository (nothing changed, then 3 files changed), and in a 5,000-file
 * folder outside git (the bounded scan). Timed in this process through the same `changeTracker` the
 * agent uses; the baseline is `git status --porcelain` on the same repository, what a user would run
 * to see the same thing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateTree, measureChangeTracking } from "../../../../packages/node/src/change-tracking/measure.js";
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
    const idle = await measureChangeTracking({ dir: repo, files: 20_000, git: true, runs: RUNS });
    const three = await measureChangeTracking({ dir: repo, files: 20_000, git: true, runs: RUNS, changes: 3 });
    const scan = await measureChangeTracking({ dir: plain, files: 5_000, git: false, runs: RUNS, changes: 3 });
    return [
      row({ id: "changes.git.none", figure: "bash diffs, 20,000-file git repo, nothing changed (begin+finish)", unit: "ms", samples: [idle.totalMs], baseline }),
      row({ id: "changes.git.three", figure: "bash diffs, 20,000-file git repo, 3 files changed", unit: "ms", samples: [three.totalMs], baseline, note: `${three.diffs} diff(s) reported` }),
      row({ id: "changes.scan.three", figure: "bash diffs, 5,000-file folder outside git, 3 changed", unit: "ms", samples: [scan.totalMs], note: `${scan.diffs} diff(s) reported` }),
    ];
  } finally {
    rmSync(repo, { recursive: true, force: true });
    rmSync(plain, { recursive: true, force: true });
  }
};
