import { describe, expect, it } from "vitest";
import { cliAction } from "./cli-args.js";

describe("cliAction", () => {
  it("serves with the options it knows, in either form", () => {
    expect(cliAction([])).toEqual({ kind: "serve", logLevel: undefined });
    expect(cliAction(["-acp", "--config", "x.json", "--log-level", "quiet"])).toEqual({ kind: "serve", logLevel: "quiet" });
    expect(cliAction(["--acp", "--config=x.json", "--log-level=debug"])).toEqual({ kind: "serve", logLevel: "debug" });
  });

  it("prints help and version, and runs the setup", () => {
    expect(cliAction(["--conifg", "--help"])).toMatchObject({ kind: "print", text: expect.stringContaining("--log-level") });
    expect(cliAction(["--version"])).toEqual({ kind: "print", text: "0.11.0\n" });
    expect(cliAction(["-v"])).toEqual({ kind: "print", text: "0.11.0\n" });
    expect(cliAction(["--setup"])).toEqual({ kind: "setup" });
  });

  it("refuses what it does not know, a missing value and an unknown level", () => {
    expect(cliAction(["--conifg", "x.json"])).toEqual({ kind: "usage-error", message: "mm-acp: unknown option --conifg" });
    expect(cliAction(["x.json"])).toEqual({ kind: "usage-error", message: 'mm-acp: unexpected argument "x.json"' });
    expect(cliAction(["--config"])).toEqual({ kind: "usage-error", message: "mm-acp: --config: expected a value after it" });
    expect(cliAction(["--log-level", "--acp"])).toEqual({ kind: "usage-error", message: "mm-acp: --log-level: expected a value after it" });
    expect(cliAction(["--log-level", "loud"])).toEqual({ kind: "usage-error", message: 'mm-acp: --log-level must be one of quiet, info, debug; got "loud"' });
  });
});
