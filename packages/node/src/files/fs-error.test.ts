import { describe, expect, it } from "vitest";
import { fsErrorOf } from "./fs-error.js";

const errno = (code: string, syscall = "open"): Error => Object.assign(new Error(`${code}: boom`), { code, syscall });

describe("fsErrorOf", () => {
  it("maps ENOENT and ENOTDIR to not-found on reads", () => {
    expect(fsErrorOf("/a", errno("ENOENT"))).toEqual({ kind: "not-found", path: "/a" });
    expect(fsErrorOf("/a", errno("ENOTDIR"))).toEqual({ kind: "not-found", path: "/a" });
  });

  it("maps ENOTDIR to io on writes: a parent is a file", () => {
    expect(fsErrorOf("/a/b", errno("ENOTDIR"), "write")).toEqual({ kind: "io", path: "/a/b", message: "a parent is not a directory" });
  });

  it("maps EACCES and EPERM to denied", () => {
    expect(fsErrorOf("/a", errno("EACCES"))).toEqual({ kind: "denied", path: "/a" });
    expect(fsErrorOf("/a", errno("EPERM"))).toEqual({ kind: "denied", path: "/a" });
  });

  it("maps EISDIR to is-directory", () => {
    expect(fsErrorOf("/a", errno("EISDIR"))).toEqual({ kind: "is-directory", path: "/a" });
  });

  it("keeps anything else as io with the syscall and code", () => {
    expect(fsErrorOf("/a", errno("EIO", "read"))).toEqual({ kind: "io", path: "/a", message: "read failed (EIO)" });
    expect(fsErrorOf("/a", "weird")).toEqual({ kind: "io", path: "/a", message: "weird" });
  });
});
