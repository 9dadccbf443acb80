/**
 * loadDiskSkillCatalogue: the SkillCatalogue port on skill folders (Agent Skills format: a folder
 * holding a `SKILL.md` whose YAML front matter names and describes it). The catalogue is read once
 * at start; a skill's instructions and file list are read from disk each time it is asked for.
 *
 * Skill folders are files others can write (a project's `.mm/skills`, a command with the sandbox off),
 * so `SKILL.md` is read through the host's one boundary (boundary/), at start and at every read: a
 * regular file inside the skill's folder as it was found at start, never through a link leaving it,
 * never a hidden path. The folder itself may be a link (a skill kept elsewhere): its target, taken at
 * start, is the folder a read is confined to. The files listed are those reached without a link
 * leaving the folder.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { readdir, realpath, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import type { SkillCatalogue, SkillContent, SkillError, SkillSummary } from "../core-types.js";
import { describeFsError } from "@mm/core";
import { errorCode, reasonOf } from "../errno.js";
import { hiddenFor, type ReadBoundary } from "../boundary/boundary-context-files.js";
import { confinedReadText, staysInside } from "../boundary/confined-read.js";
import { parseFrontMatter, splitFrontMatter } from "./skill-front-matter.js";

/** At most this many of a skill folder's files are listed by `read`. */
export const MAX_SKILL_FILES = 200;

const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A skill found at start: `root` is its folder with the links to it resolved then, the folder every read is confined to. */
type DiskSkill = SkillSummary & { readonly dir: string; readonly root: string };

/** What the boundary hides (the built-in credentials, `tools.hidden`); the built-in set alone when not given. */
type Hidden = ReadBoundary;

/** The text of a skill's SKILL.md, through the boundary, or why it cannot be read. */
const readSkillMd = async (dir: string, root: string, boundary: Hidden): Promise<Result<string, string>> =>
  (await confinedReadText({ root, path: join(dir, "SKILL.md"), hidden: hiddenFor(boundary, root) })).mapErr((e) =>
    e.kind === "not-found" ? "no SKILL.md" : `cannot read SKILL.md (${describeFsError(e)})`,
  );

/** What is wrong with a front matter's name and description, or the skill they make. */
const skillOf = (fields: ReadonlyMap<string, string>, dir: string, root: string): Result<DiskSkill, string> => {
  const name = fields.get("name")?.trim() ?? "";
  const description = fields.get("description")?.trim() ?? "";
  if (name === "") return err("front matter has no name");
  if (name.length > MAX_NAME) return err(`name is longer than ${MAX_NAME} characters`);
  if (!NAME.test(name)) return err(`name ${JSON.stringify(name)} is not lowercase letters, digits and single inner hyphens`);
  if (description === "") return err("front matter has no description");
  if (description.length > MAX_DESCRIPTION) return err(`description is longer than ${MAX_DESCRIPTION} characters`);
  return ok({ name, description, dir, root });
};

/** The skill of one folder, or the warning saying why it is skipped (undefined: not a skill folder at all). */
const loadSkill = async (dir: string, boundary: Hidden): Promise<Result<DiskSkill, string> | undefined> => {
  let root: string;
  try {
    if (!(await stat(dir)).isDirectory()) return undefined;
    root = await realpath(dir);
  } catch (error) {
    return err(`cannot read the folder (${reasonOf(error)})`);
  }
  const read = await readSkillMd(dir, root, boundary);
  if (read.isErr()) return err(read.error);
  const source = read.value;
  const split = splitFrontMatter(source);
  if (split === undefined) return err("SKILL.md does not start with a --- front matter block");
  return parseFrontMatter(split.frontMatter).andThen((fields) => skillOf(fields, dir, root));
};

/** The skills of one skills dir, folder names in order; a missing dir has none. */
const loadSkillsDir = async (root: string, warn: (line: string) => void, boundary: Hidden): Promise<readonly DiskSkill[]> => {
  // Most machines have no skills dir at all: a synchronous check spares start-up the async fs machinery.
  if (!existsSync(root)) return [];
  let entries: string[];
  try {
    entries = (await readdir(root)).filter((entry) => !entry.startsWith(".")).sort();
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ENOENT") warn(`mm-acp: skills dir ${root}: ${code === "ENOTDIR" ? "not a directory" : reasonOf(error)}`);
    return [];
  }
  const loaded = await Promise.all(entries.map((entry) => loadSkill(join(root, entry), boundary)));
  const skills: DiskSkill[] = [];
  loaded.forEach((result, i) => {
    if (result === undefined) return;
    if (result.isOk()) skills.push(result.value);
    else warn(`mm-acp: skill ${join(root, entries[i] ?? "")}: ${result.error}`);
  });
  return skills;
};

/**
 * Depth-first in name order, skipping dot-files and node_modules, up to `max` files (relative,
 * `/`-separated). Directories are entered only when they are no link; a link is listed only when,
 * link by link, it stays inside the skill's folder and out of the hidden paths.
 */
const listFiles = async (dir: string, root: string, hidden: readonly string[], max: number): Promise<string[]> => {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (files.length >= max) return;
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (folder === dir && entry.name === "SKILL.md") continue;
      else if (!entry.isSymbolicLink() || (await staysInside(root, path, hidden))) files.push(relative(dir, path).split(sep).join("/"));
    }
  };
  await walk(dir);
  return files.sort();
};

const readSkill = async (skill: DiskSkill, boundary: Hidden): Promise<Result<SkillContent, SkillError>> => {
  try {
    const read = await readSkillMd(skill.dir, skill.root, boundary);
    if (read.isErr()) return err({ kind: "io", name: skill.name, message: `skill ${skill.name} in ${skill.dir}: ${read.error}` });
    const source = read.value;
    const instructions = splitFrontMatter(source)?.body ?? source;
    // Listed from the folder found at start: a folder swapped for a link since lists nothing of where it leads.
    const files = (await staysInside(skill.root, skill.dir, []))
      ? await listFiles(skill.dir, skill.root, hiddenFor(boundary, skill.root), MAX_SKILL_FILES)
      : [];
    return ok({ name: skill.name, dir: skill.dir, instructions, files });
  } catch (error) {
    return err({ kind: "io", name: skill.name, message: `cannot read skill ${skill.name} in ${skill.dir}: ${reasonOf(error)}` });
  }
};

/**
 * The catalogue of the skill folders found in `dirs` (relative ones against the process cwd).
 * A missing dir is fine; a malformed skill is reported through `warn` as `mm-acp: skill <path>: <what>`
 * and skipped. When two dirs hold a skill of the same name, the LATER dir wins and the shadowed one
 * is warned about: the defaults list `~/.mm/skills` before `.mm/skills`, so a project's skill
 * overrides the user's. `boundary` says what is never read (the built-in hidden set, `tools.hidden`);
 * the built-in set under the process's home when absent. Never rejects.
 */
export const loadDiskSkillCatalogue = async (dirs: readonly string[], warn: (line: string) => void, boundary?: ReadBoundary): Promise<SkillCatalogue> => {
  const hidden: Hidden = boundary ?? { home: homedir(), hidden: [] };
  const roots = [...new Set(dirs.map((dir) => resolve(dir)))];
  const perDir = await Promise.all(roots.map((root) => loadSkillsDir(root, warn, hidden)));
  const byName = new Map<string, DiskSkill>();
  for (const skill of perDir.flat()) {
    const shadowed = byName.get(skill.name);
    if (shadowed !== undefined) warn(`mm-acp: skill ${shadowed.dir}: shadowed by ${skill.dir} (same name ${skill.name})`);
    byName.set(skill.name, skill);
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const summaries: readonly SkillSummary[] = skills.map(({ name, description }) => ({ name, description }));
  return {
    list: () => summaries,
    read: (name) => {
      const skill = byName.get(name);
      if (skill === undefined) return errAsync({ kind: "unknown-skill", name });
      return new ResultAsync(readSkill(skill, hidden));
    },
  };
};
