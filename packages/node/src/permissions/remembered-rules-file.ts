/**
 * The permission rules a user chose ("Always allow `npm test` in this project"), kept in the user's
 * own state directory (`$XDG_STATE_HOME/mm/permissions.json`, else `~/.local/state/mm/…`), never in a
 * project: a repository cannot grant itself anything. One JSON object, rules keyed by the project's
 * real path. Read without following a link, only when the user's own and private; written whole
 * through a temporary file and a rename, 0600 in a 0700 directory. Each change is one
 * read-modify-write under `permissions.json.lock` (rules-file-lock.ts), so two mm processes never
 * lose each other's change nor bring back a rule the other just forgot.
 */
import { randomBytes } from "node:crypto";
import { chmod, lstat, open, rename, rm, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { errorCode, reasonOf } from "../errno.js";
import { makeDirectories } from "../files/make-directories.js";
import { SAFE_READ_FLAGS } from "../files/safe-read-flags.js";
import { withRulesFileLock } from "./rules-file-lock.js";

/** Rules by project real path. */
type Projects = Readonly<Record<string, readonly string[]>>;

const MAX_BYTES = 1024 * 1024;

export type RememberedRules = {
  /** The rules remembered for `project` (a real path); none when the file does not exist. */
  readonly read: (project: string) => Promise<Result<readonly string[], string>>;
  /**
   * Changes the rules of `project` as they are in the file now (read again under the lock, so another
   * process's change since is kept); an empty result forgets the project. Returns the rules now kept.
   */
  readonly update: (project: string, change: (rules: readonly string[]) => readonly string[]) => Promise<Result<readonly string[], string>>;
  readonly file: string;
};

const projectsOf = (value: unknown): Projects | undefined => {
  if (typeof value !== "object" || value === null) return undefined;
  const projects = (value as { projects?: unknown }).projects;
  if (typeof projects !== "object" || projects === null || Array.isArray(projects)) return undefined;
  const out: Record<string, readonly string[]> = {};
  for (const [key, rules] of Object.entries(projects)) {
    if (!Array.isArray(rules)) continue;
    out[key] = rules.filter((r): r is string => typeof r === "string" && r.trim() !== "" && r.length < 1000);
  }
  return out;
};

const readAll = async (file: string): Promise<Result<Projects, string>> => {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, SAFE_READ_FLAGS);
    const info = await handle.stat();
    if (!info.isFile()) return err(`${file} is not a regular file`);
    if (process.getuid !== undefined && info.uid !== process.getuid()) return err(`${file} is not the user's own`);
    if ((info.mode & 0o022) !== 0) return err(`${file} can be written by others (mode ${(info.mode & 0o777).toString(8)})`);
    if (info.size > MAX_BYTES) return err(`${file} is larger than ${MAX_BYTES} bytes`);
    const text = (await handle.readFile()).toString("utf8");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return err(`${file} is not JSON`);
    }
    const projects = projectsOf(parsed);
    return projects === undefined ? err(`${file} holds no "projects" object`) : ok(projects);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return ok({});
    return err(errorCode(error) === "ELOOP" ? `${file} is a symbolic link` : `cannot read ${file}: ${reasonOf(error)}`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
};

const ensureDirectory = async (dir: string): Promise<void> => {
  if ((await lstat(dir).catch(() => undefined)) === undefined) {
    await makeDirectories(dir, 0o700);
    await chmod(dir, 0o700);
  }
};

const writeAll = async (file: string, projects: Projects): Promise<Result<void, string>> => {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ version: 1, projects }, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    return ok(undefined);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    return err(`cannot write ${file}: ${reasonOf(error)}`);
  }
};

/** The rules file at `file`. Each change is read, applied and written under a lock shared by every mm process. */
export const rememberedRulesFile = (file: string): RememberedRules => ({
  file,
  read: async (project) => (await readAll(file)).map((projects) => projects[project] ?? []),
  update: async (project, change) => {
    try {
      await ensureDirectory(dirname(file));
    } catch (error) {
      return err(`cannot write ${file}: ${reasonOf(error)}`);
    }
    return withRulesFileLock(`${file}.lock`, async (): Promise<Result<readonly string[], string>> => {
      const all = await readAll(file);
      if (all.isErr()) return err(all.error);
      const { [project]: old, ...others } = all.value;
      const rules = [...change(old ?? [])];
      const written = await writeAll(file, rules.length === 0 ? others : { ...others, [project]: rules });
      return written.map(() => rules);
    });
  },
});
