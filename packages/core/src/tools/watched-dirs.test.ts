import { describe, expect, it } from "vitest";
import { watchedDirs } from "./bash-tool.js";

describe("watchedDirs", () => {
  it("watches the cwd and each additional directory once, none inside another", () => {
    expect(watchedDirs("/p/app", [])).toEqual(["/p/app"]);
    expect(watchedDirs("/p/app", ["/p/lib", "/p/app/sub", "/p/lib/inner", "/p/lib"])).toEqual(["/p/app", "/p/lib"]);
    expect(watchedDirs("/p/app", ["/q/inner", "/q"])).toEqual(["/p/app", "/q"]);
    // One that holds the cwd is watched too (its changes outside the cwd; those inside come from the cwd's).
    expect(watchedDirs("/p/app", ["/p"])).toEqual(["/p/app", "/p"]);
  });
});
