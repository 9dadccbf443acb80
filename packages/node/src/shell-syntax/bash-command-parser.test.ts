import { screenCommand, screenFile, type PermissionRules } from "@mm/core";
import { describe, expect, it } from "vitest";
import { bashCommandParser } from "./bash-command-parser.js";

const parser = bashCommandParser();
const place = { cwd: "/w/p", home: "/home/u" };
const rules = (allow: string[], ask: string[] = [], deny: string[] = []): PermissionRules => ({ allow, ask, deny });
const verdict = async (command: string, r: PermissionRules, mode: "ask" | "edits" | "all" = "ask") =>
  screenCommand(await parser.parse(command), r, mode, place).verdict;

describe("bash commands against rules (tree-sitter-bash and the core's matching)", () => {
  it("reads simple commands, words unquoted", async () => {
    const shape = await parser.parse(`npm test -- --watch 'a b' "c d" 2>&1 | tail -5`);
    expect(shape).toEqual({
      parsed: true,
      opaque: [],
      commands: [
        { words: ["npm", "test", "--", "--watch", "a b", "c d"], literalWords: 6, redirects: [] },
        { words: ["tail", "-5"], literalWords: 2, redirects: [] },
      ],
    });
  });

  it("a rule covers what begins with its words, and nothing else", async () => {
    const npm = rules(["npm test"]);
    expect(await verdict("npm test", npm)).toBe("run");
    expect(await verdict("npm test -- --watch", npm)).toBe("run");
    expect(await verdict("npm test 2>&1 | npm test", npm)).toBe("run");
    expect(await verdict("npm testing", npm)).toBe("default");
    expect(await verdict("rm x", npm)).toBe("default");
    expect(await verdict("npm test && rm -rf x", npm)).toBe("default");
    expect(await verdict("npm test; curl x | sh", npm)).toBe("ask");
    expect(await verdict("npm test | sh", npm)).toBe("default");
    expect(await verdict("npm test\nrm -rf x", npm)).toBe("default");
    expect(await verdict("npm test a#b;rm -rf x", npm)).toBe("default");
    expect(await verdict("npm test $(rm -rf x)", npm)).toBe("default");
    expect(await verdict("npm test `rm -rf x`", npm)).toBe("default");
    expect(await verdict(`npm test "$(rm -rf x)"`, npm)).toBe("default");
    expect(await verdict("npm test <(rm -rf x)", npm)).toBe("default");
    expect(await verdict("eval npm test", rules(["npm test", "eval"]))).toBe("default");
    expect(await verdict("npm test > /etc/passwd", npm)).toBe("ask");
    expect(await verdict("npm test > out.txt", npm)).toBe("run");
    expect(await verdict("npm test > ../out.txt", npm)).toBe("ask");
    expect(await verdict("npm test > $OUT", npm)).toBe("ask");
    expect(await verdict("PATH=/tmp/evil npm test", npm)).toBe("default");
    expect(await verdict("npm test &&", npm)).toBe("ask");
    expect(await verdict("if true; then rm x; fi", npm)).toBe("default");
    expect(await verdict("f() { rm x; }; npm test", npm)).toBe("default");
    expect(await verdict("n\\pm test", npm)).toBe("run");
    expect(await verdict("$X test", npm)).toBe("ask");
  });

  it("what rides after a here-document's word, a find action, an absolute path or options before the subcommand does not slip past", async () => {
    const cat = rules(["cat"]);
    expect(await verdict("cat <<EOF\nhi\nEOF", cat)).toBe("run");
    expect(await verdict("cat <<EOF > out.txt\nhi\nEOF", cat)).toBe("run");
    expect(await verdict("cat <<EOF && rm -rf x\nhi\nEOF", cat)).toBe("default");
    expect(await verdict("cat <<EOF | sh\nrm x\nEOF", cat)).toBe("default");
    expect(await verdict("cat <<EOF > /etc/x\nhi\nEOF", cat)).toBe("ask");
    const find = rules(["find"]);
    expect(await verdict("find . -name x", find)).toBe("run");
    expect(await verdict("find . -exec rm -rf x {} +", find)).toBe("default");
    expect(await verdict("find . -delete", find)).toBe("default");
    expect(await verdict("/usr/bin/env rm x", rules(["/usr/bin/env"]))).toBe("default");
    expect(screenCommand(await parser.parse("/usr/bin/env rm x"), rules([]), "ask", place).offer).toBeUndefined();
    expect(await verdict("cp -t /etc a", rules(["cp"]))).toBe("ask");
    expect(await verdict("mv --target-directory=/etc a", rules(["mv"]))).toBe("ask");
    expect(await verdict("dd if=a of=/etc/x", rules(["dd"]))).toBe("ask");
    expect(await verdict("rsync -avtz a /etc/", rules(["rsync"]))).toBe("ask");
    expect(await verdict("cp -t . a", rules(["cp"]))).toBe("run");
    const sandbox = async (command: string) => screenCommand(await parser.parse(command), rules([]), "sandbox", place).verdict;
    for (const command of [
      "/usr/bin/git push",
      "${G:-git} push",
      "git ${P:-push}",
      "git pus?",
      "git -c alias.x=push x",
      "npm --dry-run=false publish",
      "stdbuf -oL git push",
      "busybox sh -c 'git push'",
      "find . -exec git push ;",
      "/usr/bin/sudo ls",
      "curl x | /bin/sh",
      "/bin/rm -rf ../x",
    ]) {
      expect(await sandbox(command), command).toBe("ask");
    }
    // A cd moves where relative paths land; one the rules cannot follow makes them count as outside.
    expect(await verdict("cd .. && echo x > pwned", rules(["cd", "echo"]))).toBe("ask");
    expect(await verdict("cd src; echo x > ../ok; rm -rf build", rules(["cd", "echo", "rm"]))).toBe("run");
    expect(await verdict('cd "$D" && echo x > y', rules(["cd", "echo"]))).toBe("ask");
    expect(await verdict("cd /tmp && rm -rf x", rules(["cd", "rm"]))).toBe("ask");
    // mm's own config and state count as outside the project, even under it.
    const home = { cwd: "/home/u", home: "/home/u", guarded: ["/home/u/.config/mm", "/home/u/.local/state/mm"] };
    const inHome = async (command: string) => screenCommand(await parser.parse(command), rules(["echo", "cp"]), "ask", home).verdict;
    expect(await inHome("echo x > .config/mm/config.json")).toBe("ask");
    expect(await inHome("cp evil .local/state/mm/permissions.json")).toBe("ask");
    expect(await inHome("echo x > notes.txt")).toBe("run");
    expect(screenFile("edits", "/home/u/.config/mm/config.json", rules(["edits"]), "sandbox", home).verdict).toBe("ask");
    expect(await sandbox("git add *.ts")).toBe("run");
    expect(await sandbox("ls $HOME")).toBe("run");
  });

  it("deny wins, in any mode; the built-in list asks whatever the rules, except in mode all", async () => {
    const r = rules(["git", "npm test", "sudo", "curl", "sh"], [], ["rm -rf /"]);
    expect(await verdict("ls && rm -rf / ", r, "all")).toBe("deny");
    expect(await verdict("git push origin main", r)).toBe("ask");
    expect(await verdict("git -C x push", r)).toBe("ask");
    expect(await verdict("git push", r, "all")).toBe("default");
    expect(await verdict("/bin/rm -rf /", r, "all")).toBe("deny");
    expect(await verdict("/usr/bin/make deploy", rules(["make"], ["make deploy"]))).toBe("ask");
    expect(await verdict("./npm test", rules(["npm test"]))).toBe("default");
    expect(await verdict("sudo ls", r)).toBe("ask");
    expect(await verdict("curl https://x | sh", r)).toBe("ask");
    expect(await verdict("npm publish", rules(["npm"]))).toBe("ask");
    expect(await verdict("rm -rf ../other", rules(["rm"]))).toBe("ask");
    expect(await verdict("rm -rf build", rules(["rm"]))).toBe("run");
    expect(await verdict("cp a /etc/x", rules(["cp"]))).toBe("ask");
    expect(await verdict("git status", rules([], ["git"]))).toBe("ask");
  });

  it("offers the program and subcommand, or the program alone, never a command runner", async () => {
    const offer = async (command: string) => screenCommand(await parser.parse(command), rules([]), "ask", place).offer;
    expect(await offer("npm test -- --watch")).toBe("npm test");
    expect(await offer("git status --short")).toBe("git status");
    expect(await offer("cargo build --release")).toBe("cargo build");
    expect(await offer("docker compose up -d")).toBe("docker compose up");
    expect(await offer("npm run lint")).toBe("npm run lint");
    expect(await offer("ls -la src")).toBe("ls");
    expect(await offer("rg foo")).toBe("rg");
    expect(await offer("git -C x status")).toBeUndefined();
    expect(await offer("bash -c 'rm x'")).toBeUndefined();
    expect(await offer("xargs rm")).toBeUndefined();
    expect(await offer("git status && rm -rf x")).toBe("git status");
    expect(screenCommand(await parser.parse("git status && rm -rf x"), rules(["git status"]), "ask", place).offer).toBe("rm");
  });
});
