import { describe, expect, it } from "vitest";
import { userConfigPath, userStateDir } from "./config-file.js";

describe("the user's folders", () => {
  it("take an absolute XDG base directory, else the usual one under home", () => {
    expect(userConfigPath({ XDG_CONFIG_HOME: "/x/config" }, "/home/me")).toBe("/x/config/mm/config.json");
    expect(userConfigPath({ XDG_CONFIG_HOME: "relative" }, "/home/me")).toBe("/home/me/.config/mm/config.json");
    expect(userStateDir({ XDG_STATE_HOME: "/x/state" }, "/home/me")).toBe("/x/state/mm");
    expect(userStateDir({ XDG_STATE_HOME: "" }, "/home/me")).toBe("/home/me/.local/state/mm");
    expect(userStateDir({}, "/home/me")).toBe("/home/me/.local/state/mm");
  });
});
