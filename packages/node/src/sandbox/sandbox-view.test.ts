import { describe, expect, it } from "vitest";
import { hostPathOf, isWithin, type SandboxView } from "./sandbox-view.js";

const view: SandboxView = { cwd: "/tmp/t/project", writable: ["/tmp/cache", "/srv/out"], home: "/tmp/t/home", privateTmp: "/tmp/mm-sandbox-x/tmp" };

describe("isWithin", () => {
  it("is true for the root itself and below it, not for a sibling sharing a prefix", () => {
    expect(isWithin("/a/b", "/a/b")).toBe(true);
    expect(isWithin("/a/b/c", "/a/b")).toBe(true);
    expect(isWithin("/a/bc", "/a/b")).toBe(false);
    expect(isWithin("/anything", "/")).toBe(true);
  });
});

describe("hostPathOf", () => {
  it("leaves paths outside /tmp alone", () => {
    expect(hostPathOf(view, "/etc/hosts")).toBe("/etc/hosts");
    expect(hostPathOf(view, "/srv/out/x")).toBe("/srv/out/x");
  });

  it("leaves the cwd, writable dirs and the home under /tmp at their own path", () => {
    expect(hostPathOf(view, "/tmp/t/project/a.txt")).toBe("/tmp/t/project/a.txt");
    expect(hostPathOf(view, "/tmp/cache/k")).toBe("/tmp/cache/k");
    expect(hostPathOf(view, "/tmp/t/home/.bashrc")).toBe("/tmp/t/home/.bashrc");
  });

  it("sends the rest of /tmp to the private directory", () => {
    expect(hostPathOf(view, "/tmp/out.log")).toBe("/tmp/mm-sandbox-x/tmp/out.log");
    expect(hostPathOf(view, "/tmp/t/other")).toBe("/tmp/mm-sandbox-x/tmp/t/other");
    expect(hostPathOf(view, "/tmp")).toBe("/tmp/mm-sandbox-x/tmp");
    expect(hostPathOf(view, "/tmp/t/project/../../x")).toBe("/tmp/mm-sandbox-x/tmp/x");
  });

  it("gives a session opened in /tmp itself the real /tmp", () => {
    expect(hostPathOf({ ...view, cwd: "/tmp" }, "/tmp/x")).toBe("/tmp/x");
  });
});
