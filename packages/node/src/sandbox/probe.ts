/**
 * Whether bubblewrap can confine commands here, checked once at start-up by running `true` in the
 * very sandbox commands get; and, when it cannot, why and what to do, in words for the user.
 */
import { execFile } from "node:child_process";
import { ok, err, type Result } from "neverthrow";

/** Why the sandbox cannot run, and what would fix it. */
export type SandboxUnavailable = { readonly reason: string; readonly remedy: string };

/** How a probe run ended, when it did not succeed. */
export type ProbeFailure = {
  /** The spawn error code (`ENOENT` when bwrap is not installed), if bwrap did not start. */
  readonly errno?: string;
  readonly exitCode?: number | null;
  readonly stderr: string;
  readonly timedOut?: boolean;
};

const OFF = 'or set tools.sandbox to "off"';
const INSTALL = `install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), ${OFF}`;
const USERNS =
  "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 23.10 and later " +
  "kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap; in a container, one allowed to create " +
  `user namespaces), ${OFF}`;
const USERNS_SIGNS = /namespace|uid map|uid_map|setgroups|unshare|Operation not permitted|No permissions/i;

const firstLine = (text: string): string =>
  text
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim()
    .slice(0, 300) ?? "";

/** Words for a failed probe. */
export const explainProbeFailure = (failure: ProbeFailure): SandboxUnavailable => {
  if (failure.errno === "ENOENT") return { reason: "bwrap (bubblewrap) is not on the PATH", remedy: INSTALL };
  if (failure.timedOut === true) return { reason: "bwrap did not finish a trial run within 5 s", remedy: `check that bubblewrap works here, ${OFF}` };
  const said = firstLine(failure.stderr);
  if (failure.errno !== undefined) return { reason: `bwrap could not be started (${failure.errno})`, remedy: INSTALL };
  if (USERNS_SIGNS.test(said)) return { reason: `user namespaces are not available to bwrap (${said})`, remedy: USERNS };
  return {
    reason: `bwrap failed a trial run (${said === "" ? `exit code ${failure.exitCode ?? "none"}` : said})`,
    remedy: `check that bubblewrap works here (bwrap --ro-bind / / --unshare-user true), ${OFF}`,
  };
};

/** One line for every bash call while the sandbox cannot run. */
export const unavailableMessage = (why: SandboxUnavailable): string =>
  `the sandbox cannot run, so the command was not run (tools.sandbox is "workspace", never unconfined): ${why.reason}. To fix: ${why.remedy}.`;

const PROBE_TIMEOUT_MS = 5000;

/** Runs `bwrap <args> -- true`; ok when it exits 0. Never rejects. */
export const probeBwrap = (bwrapPath: string, args: readonly string[]): Promise<Result<void, SandboxUnavailable>> =>
  new Promise((resolve) => {
    execFile(
      bwrapPath,
      [...args, "--", "true"],
      { timeout: PROBE_TIMEOUT_MS, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
      (error, _stdout, stderr) => {
        if (error === null) {
          resolve(ok(undefined));
          return;
        }
        const errno = typeof error.code === "string" ? error.code : undefined;
        const exitCode = typeof error.code === "number" ? error.code : null;
        resolve(
          err(
            explainProbeFailure({
              ...(errno !== undefined ? { errno } : {}),
              exitCode,
              stderr: String(stderr),
              timedOut: error.killed === true && errno === undefined,
            }),
          ),
        );
      },
    );
  });
