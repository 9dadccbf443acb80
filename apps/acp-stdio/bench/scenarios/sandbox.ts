/**
 * (7) What `tools.sandbox: "workspace"` costs a bash call: the same `true` run through the agent's
 * `bashShell`, plain and wrapped in the bubblewrap sandbox (the cwd bound, a private /tmp, the hidden
 * paths masked, its own namespaces), alternated so load hits both alike. The figure is the median of
 * the per-pair differences; the baseline is the plain call. Also with `tools.network: true` (no
 * network namespace), to show what that namespace costs. Skipped, saying why, where bwrap cannot run.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bashShell, bwrapSandbox, type BashShell } from "@mm/node";
import { row, type Row } from "../lib/report.js";
import { median, now } from "../lib/stats.js";

const RUNS = 40;

const timeOne = async (shell: BashShell, cwd: string): Promise<number> => {
  const t0 = now();
  const result = await shell.run({ command: "true", cwd, timeoutMs: 10_000, maxOutputBytes: 30_000, signal: new AbortController().signal });
  if (result.isErr() || result.value.exitCode !== 0) throw new Error(`bash call failed: ${JSON.stringify(result)}`);
  return now() - t0;
};

export const sandbox = async (log: (line: string) => void): Promise<Row[]> => {
  const root = mkdtempSync(join(tmpdir(), "mm-bench-sandbox-"));
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(cwd);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  const offline = bwrapSandbox({ home, writable: [], network: false, hidden: [] });
  const online = bwrapSandbox({ home, writable: [], network: true, hidden: [] });
  try {
    const checked = await offline.ready;
    if (checked.isErr()) {
      log(`sandbox skipped: ${checked.error.reason}`);
      return [];
    }
    await online.ready;
    const plain = bashShell({ env });
    const shells = { offline: bashShell({ env, wrapper: offline.wrapper }), online: bashShell({ env, wrapper: online.wrapper }) };
    const samples = { plain: [] as number[], offline: [] as number[], online: [] as number[] };
    for (let i = 0; i < 3; i++) for (const shell of [plain, shells.offline, shells.online]) await timeOne(shell, cwd);
    for (let i = 0; i < RUNS; i++) {
      samples.plain.push(await timeOne(plain, cwd));
      samples.offline.push(await timeOne(shells.offline, cwd));
      samples.online.push(await timeOne(shells.online, cwd));
    }
    const costs = (wrapped: readonly number[]) => wrapped.map((t, i) => t - samples.plain[i]!);
    const baseline = { label: "the same bash call, unsandboxed", samples: samples.plain };
    return [
      row({
        id: "sandbox.offline",
        figure: "sandbox cost per bash call (bubblewrap, no network)",
        unit: "ms",
        samples: costs(samples.offline),
        baseline,
        noRatio: true,
        targets: [{ on: "value", max: 15 }],
        note: `sandboxed call ${median(samples.offline).toFixed(1)} ms in all (median of ${RUNS})`,
      }),
      row({
        id: "sandbox.online",
        figure: "sandbox cost per bash call, tools.network true",
        unit: "ms",
        samples: costs(samples.online),
        baseline,
        noRatio: true,
        targets: [{ on: "value", max: 15 }],
      }),
    ];
  } finally {
    offline.dispose();
    online.dispose();
    rmSync(root, { recursive: true, force: true });
  }
};
