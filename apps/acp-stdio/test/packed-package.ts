/**
 * mm-acp as a user gets it: packed by `pnpm pack` (its prepack builds), then installed from the tarball
 * by plain npm, globally into a temporary prefix outside the workspace, with an empty HOME, offline.
 * Used by the packed-install test and by the benchmark's start-up figures.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const APP = join(dirname(fileURLToPath(import.meta.url)), "..");

export type PackedInstall = {
  /** The temporary directory holding all of it; `remove` deletes it. */
  readonly root: string;
  readonly tarball: string;
  /** `<prefix>/bin/mm-acp`, linked by npm. */
  readonly bin: string;
  /** `<prefix>/lib/node_modules/mm-acp`. */
  readonly packageDir: string;
  /** The installed bin's directory first, then node's and npm's, nothing of the workspace. */
  readonly path: string;
  /** A new, empty directory, for a HOME. */
  readonly emptyDir: (name: string) => string;
  readonly remove: () => void;
};

/** The package's name and version, from its package.json. */
export const packageId = (): { readonly name: string; readonly version: string } => {
  const { name, version } = JSON.parse(readFileSync(join(APP, "package.json"), "utf8")) as { name: string; version: string };
  return { name, version };
};

export const packAndInstall = async (): Promise<PackedInstall> => {
  const root = mkdtempSync(join(tmpdir(), "mm-packed-"));
  try {
    const { name, version } = packageId();
    await run("corepack", ["pnpm", "pack", "--pack-destination", root], { cwd: APP, env: { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: "0" } });
    const tarball = join(root, `${name}-${version}.tgz`);
    const prefix = join(root, "prefix");
    const path = [join(prefix, "bin"), dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
    const emptyDir = (dir: string): string => {
      const full = join(root, dir);
      mkdirSync(full, { recursive: true });
      return full;
    };
    await run("npm", ["install", "--global", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, tarball], {
      cwd: root,
      env: { PATH: path, HOME: emptyDir("install-home"), npm_config_cache: join(root, "npm-cache"), npm_config_update_notifier: "false" },
    });
    return {
      root,
      tarball,
      bin: join(prefix, "bin", name),
      packageDir: join(prefix, "lib", "node_modules", name),
      path,
      emptyDir,
      remove: () => rmSync(root, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
};
