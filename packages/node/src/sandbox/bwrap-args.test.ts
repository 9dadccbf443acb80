import { describe, expect, it } from "vitest";
import { bwrapArgs, type BwrapLayout } from "./bwrap-args.js";

const layout = (overrides: Partial<BwrapLayout> = {}): BwrapLayout => ({
  cwd: "/work/project",
  writable: [],
  readOnly: [],
  privateTmp: "/tmp/mm-sandbox-x/tmp",
  network: false,
  hidden: [],
  masks: { dir: "/tmp/mm-sandbox-x/mask-dir", file: "/tmp/mm-sandbox-x/mask-file" },
  ...overrides,
});

/** The `[op, source, destination]` mount triples, in order. */
const mounts = (args: readonly string[]): string[][] => {
  const found: string[][] = [];
  args.forEach((arg, i) => {
    if (arg === "--ro-bind" || arg === "--bind") found.push([arg, args[i + 1]!, args[i + 2]!]);
    if (arg === "--dev" || arg === "--proc") found.push([arg, args[i + 1]!]);
  });
  return found;
};

describe("bwrapArgs", () => {
  it("mounts the host read-only, the cwd read-write, fresh /dev and /proc, the private /tmp, and confines the rest", () => {
    const args = bwrapArgs(layout());
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/work/project", "/work/project"],
      ["--dev", "/dev"],
      ["--proc", "/proc"],
      ["--bind", "/tmp/mm-sandbox-x/tmp", "/tmp"],
    ]);
    for (const flag of ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-net"]) expect(args).toContain(flag);
    expect(args.join(" ")).toContain("--cap-drop ALL");
    expect(args.join(" ")).toContain("--chdir /work/project");
    expect(args).not.toContain("--new-session");
    expect(args).not.toContain("--die-with-parent");
  });

  it("keeps the network namespace when the network is allowed", () => {
    expect(bwrapArgs(layout({ network: true }))).not.toContain("--unshare-net");
  });

  it("binds a cwd, writable dirs and the home under /tmp after the private /tmp, shallowest first", () => {
    const args = bwrapArgs(layout({ cwd: "/tmp/t/project", writable: ["/tmp/cache", "/var/cache/x"], readOnly: ["/tmp/t/home"] }));
    expect(mounts(args)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/var/cache/x", "/var/cache/x"],
      ["--dev", "/dev"],
      ["--proc", "/proc"],
      ["--bind", "/tmp/mm-sandbox-x/tmp", "/tmp"],
      ["--bind", "/tmp/cache", "/tmp/cache"],
      ["--ro-bind", "/tmp/t/home", "/tmp/t/home"],
      ["--bind", "/tmp/t/project", "/tmp/t/project"],
    ]);
  });

  it("lets a read-write bind win over a read-only one at the same place or inside it", () => {
    expect(mounts(bwrapArgs(layout({ cwd: "/tmp/h", readOnly: ["/tmp/h"] }))).slice(-1)).toEqual([["--bind", "/tmp/h", "/tmp/h"]]);
    expect(mounts(bwrapArgs(layout({ cwd: "/tmp/h", readOnly: ["/tmp/h/home"] }))).some(([, , d]) => d === "/tmp/h/home")).toBe(false);
    expect(mounts(bwrapArgs(layout({ cwd: "/tmp/h/project", readOnly: ["/tmp/h"] }))).slice(-2)).toEqual([
      ["--ro-bind", "/tmp/h", "/tmp/h"],
      ["--bind", "/tmp/h/project", "/tmp/h/project"],
    ]);
  });

  it("binds a cwd at / before /dev, /proc and /tmp, so they stay the sandbox's own", () => {
    expect(mounts(bwrapArgs(layout({ cwd: "/" }))).slice(0, 3)).toEqual([
      ["--ro-bind", "/", "/"],
      ["--bind", "/", "/"],
      ["--dev", "/dev"],
    ]);
  });

  it("masks hidden directories and files last, with the matching stand-in, skipping what the private /tmp hides anyway", () => {
    const args = bwrapArgs(
      layout({
        cwd: "/tmp/p",
        readOnly: ["/tmp/home"],
        hidden: [
          { path: "/tmp/home/.ssh", kind: "dir" },
          { path: "/tmp/home/.netrc", kind: "file" },
          { path: "/tmp/elsewhere/.aws", kind: "dir" },
          { path: "/tmp/p/.env", kind: "file" },
          { path: "/run/docker.sock", kind: "file" },
        ],
      }),
    );
    expect(mounts(args).slice(-4)).toEqual([
      ["--ro-bind", "/tmp/mm-sandbox-x/mask-dir", "/tmp/home/.ssh"],
      ["--ro-bind", "/tmp/mm-sandbox-x/mask-file", "/tmp/home/.netrc"],
      ["--ro-bind", "/tmp/mm-sandbox-x/mask-file", "/tmp/p/.env"],
      ["--ro-bind", "/tmp/mm-sandbox-x/mask-file", "/run/docker.sock"],
    ]);
  });
});
