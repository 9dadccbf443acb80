import { describe, expect, it } from "vitest";
import { madeReadOnlyFor, readOnlyPathsFor } from "./sandbox-settings.js";

describe("readOnlyPathsFor", () => {
  const settings = { home: "/home/u", writable: [], network: false, hidden: [] };

  it("always holds the cwd's .mm, then the settings' paths, each once", () => {
    expect(readOnlyPathsFor(settings, "/w/p")).toEqual(["/w/p/.mm"]);
    expect(readOnlyPathsFor({ ...settings, readOnly: [".mm/sessions", "~/.mm", "/abs/s", ".mm"] }, "/w/p")).toEqual([
      "/w/p/.mm",
      "/w/p/.mm/sessions",
      "/home/u/.mm",
      "/abs/s",
    ]);
  });

  it("makes only the cwd's .mm before a command", () => {
    expect(madeReadOnlyFor("/w/p")).toEqual(["/w/p/.mm"]);
  });
});
