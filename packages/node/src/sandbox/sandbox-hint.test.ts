import { describe, expect, it } from "vitest";
import { hiddenHint, NO_NETWORK_HINT, READ_ONLY_HINT, sandboxHints, withSandboxHints, type HintFacts } from "./sandbox-hint.js";

const facts: HintFacts = { network: false, hidden: ["/home/u/.ssh", "/home/u/.netrc", "/work/p/.env"], cwd: "/work/p", home: "/home/u" };

describe("sandboxHints", () => {
  it("explains a write refused by the read-only file system", () => {
    expect(sandboxHints("touch: cannot touch '/home/u/x': Read-only file system\n", facts)).toEqual([READ_ONLY_HINT]);
    expect(sandboxHints("Error: EROFS: read-only file system, open '/usr/x'", facts)).toEqual([READ_ONLY_HINT]);
    expect(sandboxHints("mv: cannot move '.mm' to '.mm-x': Device or resource busy\n", facts)).toEqual([READ_ONLY_HINT]);
    expect(sandboxHints("umount: /mnt: Device or resource busy\n", facts)).toEqual([]);
  });

  it("explains a connection the missing network refused, only when the network is off", () => {
    for (const output of [
      "bash: connect: Connection refused\nbash: /dev/tcp/127.0.0.1/4000: Connection refused\n",
      "curl: (6) Could not resolve host: example.com\n",
      "ping: connect: Network is unreachable\n",
      "Error: getaddrinfo EAI_AGAIN registry.npmjs.org",
    ]) {
      expect(sandboxHints(output, facts), output).toEqual([NO_NETWORK_HINT]);
      expect(sandboxHints(output, { ...facts, network: true }), output).toEqual([]);
    }
  });

  it("names a hidden path the command was refused", () => {
    expect(sandboxHints("cat: /home/u/.ssh/id_rsa: Permission denied\n", facts)).toEqual([hiddenHint("/home/u/.ssh")]);
    expect(sandboxHints("cat: /home/u/.ssh/id_rsa: No such file or directory\n", facts)).toEqual([]);
    expect(sandboxHints("cat: /etc/shadow: Permission denied\n", facts)).toEqual([]);
  });

  it("recognises a hidden path written relative to the cwd or under ~, not inside a longer name", () => {
    expect(sandboxHints("cat: .env: Permission denied\n", facts)).toEqual([hiddenHint("/work/p/.env")]);
    expect(sandboxHints("cat: ./.env: Permission denied\n", facts)).toEqual([hiddenHint("/work/p/.env")]);
    expect(sandboxHints("ls: cannot open directory '~/.ssh': Permission denied\n", facts)).toEqual([hiddenHint("/home/u/.ssh")]);
    expect(sandboxHints("cat: .envrc: Permission denied\n", facts)).toEqual([]);
    expect(sandboxHints("cat: /home/u/.sshd/x: Permission denied\n", facts)).toEqual([]);
  });

  it("says nothing about ordinary failures", () => {
    expect(sandboxHints("grep: pattern not found\n", facts)).toEqual([]);
    expect(sandboxHints("", facts)).toEqual([]);
  });
});

describe("withSandboxHints", () => {
  it("appends the hints on their own lines, or leaves the output as it was", () => {
    expect(withSandboxHints("x: Read-only file system", facts)).toBe(`x: Read-only file system\n${READ_ONLY_HINT}\n`);
    expect(withSandboxHints("x: Read-only file system\n", facts)).toBe(`x: Read-only file system\n${READ_ONLY_HINT}\n`);
    expect(withSandboxHints("fine\n", facts)).toBe("fine\n");
  });
});
