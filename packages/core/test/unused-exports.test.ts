/**
 * Nothing goes stale unseen: knip (configured in `knip.json`) reads the whole workspace's imports and
 * fails on a file nothing reaches, an export or exported type nothing imports (one used only in its own
 * file is let be), a duplicate export, and on its own configuration naming what no longer exists.
 * The packages' public entries (`@mm/core`, `@mm/core/testing`, each adapter's index) are entries:
 * their exports are the embedding API, not checked here. `corepack pnpm knip` prints the same list.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const repo = join(import.meta.dirname, "../../..");
/** The root's dev dependency (`node_modules/knip`), its bin run with this Node. */
const knip = join(repo, "node_modules/knip/bin/knip.js");

describe("unused files and exports", () => {
  it("knip finds none, and its configuration names only what exists", { timeout: 120_000 }, () => {
    const run = spawnSync(process.execPath, [knip, "--no-progress", "--reporter", "compact", "--treat-config-hints-as-errors"], {
      cwd: repo,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    expect({ status: run.status, output: `${run.stdout}${run.stderr}`.trim() }).toEqual({ status: 0, output: "" });
  });
});
