import { describe, expect, it } from "vitest";
import { chosenLogLevel, leveledLog } from "./log.js";

describe("the log", () => {
  it("keeps warnings only when quiet, adds info lines by default and debug lines at debug", () => {
    const lines: string[] = [];
    const write = (line: string) => lines.push(line);
    for (const level of ["quiet", "info", "debug"] as const) {
      const log = leveledLog(level, write);
      log.warn(`${level} warn`);
      log.info(`${level} info`);
      log.debug?.(`${level} debug`);
    }
    expect(lines).toEqual(["quiet warn", "info warn", "info info", "debug warn", "debug info", "debug debug"]);
  });

  it("takes the command line's level, else $MM_LOG_LEVEL's, else info", () => {
    expect(chosenLogLevel("debug", { MM_LOG_LEVEL: "quiet" })._unsafeUnwrap()).toBe("debug");
    expect(chosenLogLevel(undefined, { MM_LOG_LEVEL: "quiet" })._unsafeUnwrap()).toBe("quiet");
    expect(chosenLogLevel(undefined, { MM_LOG_LEVEL: "" })._unsafeUnwrap()).toBe("info");
    expect(chosenLogLevel(undefined, { MM_LOG_LEVEL: "verbose" })._unsafeUnwrapErr()).toBe(
      'mm-acp: MM_LOG_LEVEL must be one of quiet, info, debug; got "verbose"',
    );
  });
});
