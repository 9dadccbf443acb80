import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadDiskSkillCatalogue, MAX_SKILL_FILES } from "./disk-skill-catalogue.js";
import { parseFrontMatter, splitFrontMatter } from "./skill-front-matter.js";

let root = "";
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mm-skills-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const put = async (path: string, text: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
};

const skillMd = (name: string, description: string, body = `# ${name}\n\nDo the thing.\n`) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

const load = async (...dirs: string[]) => {
  const warnings: string[] = [];
  const catalogue = await loadDiskSkillCatalogue(
    dirs.map((dir) => join(root, dir)),
    (line) => warnings.push(line),
  );
  return { catalogue, warnings };
};

describe("loadDiskSkillCatalogue", () => {
  it("lists the valid skills of every dir, sorted by name", async () => {
    await put("user/vulcan-salute/SKILL.md", skillMd("vulcan-salute", "Send a vulcan salute to somebody."));
    await put("user/greetings/SKILL.md", skillMd("greetings", "Greet somebody with a festive message."));
    await put("project/bg-jobs/SKILL.md", skillMd("bg-jobs", "Start, wait on and stop background jobs."));
    const { catalogue, warnings } = await load("user", "project", "missing");
    expect(catalogue.list()).toEqual([
      { name: "bg-jobs", description: "Start, wait on and stop background jobs." },
      { name: "greetings", description: "Greet somebody with a festive message." },
      { name: "vulcan-salute", description: "Send a vulcan salute to somebody." },
    ]);
    expect(warnings).toEqual([]);
  });

  it("reads a skill's instructions, folder and other files from disk", async () => {
    await put("skills/greetings/SKILL.md", skillMd("greetings", "Greet.", "\n# Greetings\n\nSay hello to $1.\n"));
    await put("skills/greetings/scripts/greet.sh", "echo hi");
    await put("skills/greetings/references/b.md", "b");
    await put("skills/greetings/references/a.md", "a");
    await put("skills/greetings/.hidden", "x");
    await put("skills/greetings/.git/config", "x");
    await put("skills/greetings/node_modules/dep/index.js", "x");
    await put("skills/greetings/templates/SKILL.md", "nested SKILL.md is an ordinary file");
    const { catalogue } = await load("skills");
    const content = (await catalogue.read("greetings"))._unsafeUnwrap();
    expect(content).toEqual({
      name: "greetings",
      dir: join(root, "skills", "greetings"),
      instructions: "# Greetings\n\nSay hello to $1.\n",
      files: ["references/a.md", "references/b.md", "scripts/greet.sh", "templates/SKILL.md"],
    });
    await put("skills/greetings/SKILL.md", skillMd("greetings", "Greet.", "Changed.\n"));
    expect((await catalogue.read("greetings"))._unsafeUnwrap().instructions).toBe("Changed.\n");
  });

  it(`lists at most ${MAX_SKILL_FILES} files`, async () => {
    await put("skills/many/SKILL.md", skillMd("many", "Many files."));
    await Promise.all(Array.from({ length: 250 }, (_, i) => put(`skills/many/data/f${String(i).padStart(3, "0")}.txt`, "x")));
    const files = (await (await load("skills")).catalogue.read("many"))._unsafeUnwrap().files;
    expect(files).toHaveLength(MAX_SKILL_FILES);
    expect(files[0]).toBe("data/f000.txt");
    expect([...files].sort()).toEqual(files);
  });

  it("fails unknown-skill for a name not in the catalogue", async () => {
    const { catalogue } = await load("skills");
    expect((await catalogue.read("nope"))._unsafeUnwrapErr()).toEqual({ kind: "unknown-skill", name: "nope" });
  });

  it("fails io when a listed skill has vanished from disk", async () => {
    await put("skills/gone/SKILL.md", skillMd("gone", "Soon gone."));
    const { catalogue } = await load("skills");
    await rm(join(root, "skills", "gone"), { recursive: true });
    expect((await catalogue.read("gone"))._unsafeUnwrapErr()).toMatchObject({ kind: "io", name: "gone" });
  });

  it("warns about malformed skills and skips them", async () => {
    await put("skills/no-skill-md/README.md", "hello");
    await put("skills/no-front-matter/SKILL.md", "# Just markdown\n");
    await put("skills/unclosed/SKILL.md", "---\nname: unclosed\ndescription: x\n");
    await put("skills/no-name/SKILL.md", "---\ndescription: Nameless.\n---\n");
    await put("skills/no-description/SKILL.md", "---\nname: no-description\n---\n");
    await put("skills/upper/SKILL.md", skillMd("Upper", "Capitals."));
    await put("skills/double-hyphen/SKILL.md", skillMd("double--hyphen", "Two hyphens."));
    await put("skills/long-name/SKILL.md", skillMd("a".repeat(65), "Long."));
    await put("skills/long-description/SKILL.md", skillMd("long-description", "d".repeat(1025)));
    await put("skills/bad-line/SKILL.md", "---\nname: bad-line\nthis is not yaml\ndescription: x\n---\n");
    await put("skills/good/SKILL.md", skillMd("good", "Fine."));
    await put("skills/loose-file.md", "not a folder: ignored");
    await put("skills/.hidden/SKILL.md", skillMd("hidden", "Dot folders are ignored."));
    const { catalogue, warnings } = await load("skills");
    expect(catalogue.list()).toEqual([{ name: "good", description: "Fine." }]);
    const at = (folder: string) => `mm-acp: skill ${join(root, "skills", folder)}: `;
    expect(warnings).toEqual([
      `${at("bad-line")}SKILL.md line 3: expected "key: value" in the front matter`,
      `${at("double-hyphen")}name "double--hyphen" is not lowercase letters, digits and single inner hyphens`,
      `${at("long-description")}description is longer than 1024 characters`,
      `${at("long-name")}name is longer than 64 characters`,
      `${at("no-description")}front matter has no description`,
      `${at("no-front-matter")}SKILL.md does not start with a --- front matter block`,
      `${at("no-name")}front matter has no name`,
      `${at("no-skill-md")}no SKILL.md`,
      `${at("unclosed")}SKILL.md does not start with a --- front matter block`,
      `${at("upper")}name "Upper" is not lowercase letters, digits and single inner hyphens`,
    ]);
  });

  it("lets a later dir's skill shadow an earlier one of the same name, and says so", async () => {
    await put("user/review/SKILL.md", skillMd("review", "User-level review."));
    await put("project/review/SKILL.md", skillMd("review", "Project review.", "Project body.\n"));
    const { catalogue, warnings } = await load("user", "project");
    expect(catalogue.list()).toEqual([{ name: "review", description: "Project review." }]);
    expect((await catalogue.read("review"))._unsafeUnwrap().instructions).toBe("Project body.\n");
    expect(warnings).toEqual([`mm-acp: skill ${join(root, "user", "review")}: shadowed by ${join(root, "project", "review")} (same name review)`]);
  });

  it("reads a dir listed twice only once", async () => {
    await put("skills/one/SKILL.md", skillMd("one", "One."));
    const { catalogue, warnings } = await load("skills", "skills/", "./skills");
    expect(catalogue.list()).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it("warns about a skills dir that is a file", async () => {
    await put("file", "x");
    const { catalogue, warnings } = await load("file");
    expect(catalogue.list()).toEqual([]);
    expect(warnings).toEqual([`mm-acp: skills dir ${join(root, "file")}: not a directory`]);
  });

  it("accepts the Agent Skills optional keys and a CRLF, BOM-prefixed file", async () => {
    const text = [
      "\uFEFF---",
      "name: pdf-processing",
      "description: >",
      "  Extract text and tables from PDF files.",
      "  Use when the user mentions PDFs.",
      "license: Apache-2.0",
      "allowed-tools: Bash(git:*) Read",
      "metadata:",
      "  author: example-org",
      '  version: "1.0"',
      "---",
      "Body.",
    ].join("\r\n");
    await put("skills/pdf-processing/SKILL.md", text);
    const { catalogue, warnings } = await load("skills");
    expect(warnings).toEqual([]);
    expect(catalogue.list()).toEqual([{ name: "pdf-processing", description: "Extract text and tables from PDF files. Use when the user mentions PDFs." }]);
    expect((await catalogue.read("pdf-processing"))._unsafeUnwrap().instructions).toBe("Body.");
  });
});

describe("skill front matter", () => {
  const fields = (...lines: string[]) => Object.fromEntries(parseFrontMatter(lines.join("\n"))._unsafeUnwrap());

  it("reads plain, quoted and commented values", () => {
    expect(
      fields(
        "# a comment",
        "name: plain # trailing comment",
        'double: "say \\"hi\\"\\t\\u00e9 # not a comment"',
        "single: 'it''s: fine'",
        "colon: a: b",
        "empty:",
        "url: https://example.com/#anchor",
      ),
    ).toEqual({
      name: "plain",
      double: 'say "hi"\té # not a comment',
      single: "it's: fine",
      colon: "a: b",
      empty: "",
      url: "https://example.com/#anchor",
    });
  });

  it("folds plain and quoted continuation lines", () => {
    expect(fields("description: first", "  second", "", "  third", 'q: "a', '  b"')).toEqual({
      description: "first second\nthird",
      q: "a b",
    });
  });

  it("reads | and > block scalars with their chomping", () => {
    expect(fields("lit: |", "  one", "    two", "", "  three", "", "fold: >-", "  one", "  two", "", "  three", "keep: |+", "  x", "", "next: y")).toEqual({
      lit: "one\n  two\n\nthree\n",
      fold: "one two\nthree",
      keep: "x\n\n",
      next: "y",
    });
  });

  it("fails on a line that is not key: value and on a bad quote", () => {
    expect(parseFrontMatter("name: x\n- item")._unsafeUnwrapErr()).toBe('SKILL.md line 3: expected "key: value" in the front matter');
    expect(parseFrontMatter('name: "open')._unsafeUnwrapErr()).toBe("SKILL.md line 2: unterminated double-quoted value");
    expect(parseFrontMatter('name: "\\q"')._unsafeUnwrapErr()).toBe("SKILL.md line 2: unknown escape \\q");
  });

  it("splits the front matter from the body", () => {
    expect(splitFrontMatter("---\nname: a\n---\n\n\nBody\n")).toEqual({ frontMatter: "name: a", body: "Body\n" });
    expect(splitFrontMatter("---\n---\n")).toEqual({ frontMatter: "", body: "" });
    expect(splitFrontMatter("text\n---\nname: a\n---\n")).toBeUndefined();
  });
});

// Issue 36: SKILL.md and the files listed go through the host's one boundary.
describe("loadDiskSkillCatalogue through the boundary", () => {
  it("refuses a SKILL.md swapped for a link out of the folder at read, and at start a hidden one", async () => {
    await put("skills/deploy/SKILL.md", skillMd("deploy", "Deploy."));
    await put("outside.md", skillMd("deploy", "Deploy.", "outside text\n"));
    await put("home/.ssh/id_rsa", skillMd("stolen", "Key.", "PRIVATE KEY\n"));
    await symlink(join(root, "home/.ssh/id_rsa"), join(root, "skills/stolen"));
    await mkdir(join(root, "skills/keyed"));
    await symlink(join(root, "home/.ssh/id_rsa"), join(root, "skills/keyed/SKILL.md"));
    const warnings: string[] = [];
    const catalogue = await loadDiskSkillCatalogue([join(root, "skills")], (line) => warnings.push(line), { home: join(root, "home"), hidden: [] });
    expect(catalogue.list().map((s) => s.name)).toEqual(["deploy"]);
    expect(warnings.join("\n")).toContain("keyed: cannot read SKILL.md (refused: a hidden path");
    await rm(join(root, "skills/deploy/SKILL.md"));
    await symlink("../../outside.md", join(root, "skills/deploy/SKILL.md"));
    const refused = (await catalogue.read("deploy"))._unsafeUnwrapErr();
    expect(refused).toMatchObject({ kind: "io", name: "deploy" });
    expect(JSON.stringify(refused)).toContain(`refused: it leads out of ${join(root, "skills/deploy")}`);
  });

  it("lists a link that stays in the folder, not one out of it nor into a hidden path, and enters no linked directory", async () => {
    await put("skills/deploy/SKILL.md", skillMd("deploy", "Deploy."));
    await put("skills/deploy/run.sh", "echo\n");
    await put("elsewhere/big/a.txt", "a\n");
    await put("skills/deploy/.env", "KEY=1\n");
    await symlink("run.sh", join(root, "skills/deploy/in.sh"));
    await symlink("../../elsewhere/big/a.txt", join(root, "skills/deploy/out.txt"));
    await symlink(join(root, "elsewhere/big"), join(root, "skills/deploy/dir-out"));
    await symlink(".env", join(root, "skills/deploy/env-link"));
    const catalogue = await loadDiskSkillCatalogue([join(root, "skills")], () => undefined, { home: join(root, "home"), hidden: [".env"] });
    expect((await catalogue.read("deploy"))._unsafeUnwrap().files).toEqual(["in.sh", "run.sh"]);
  });
});
