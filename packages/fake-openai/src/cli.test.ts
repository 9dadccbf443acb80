import { afterEach, describe, expect, it, vi } from "vitest";
import { main, USAGE } from "./cli.js";

afterEach(() => vi.restoreAllMocks());

describe("the fake server's command line", () => {
  it("prints its usage on --help (and -h) instead of starting a server", async () => {
    for (const flag of ["--help", "-h"]) {
      const written: string[] = [];
      vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
      const errors = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      await main([flag]);
      expect(written.join("")).toBe(USAGE);
      expect(USAGE).toMatch(/^Usage: fake-openai .*--port N/);
      // Nothing listens: the listening line is never printed.
      expect(errors).not.toHaveBeenCalled();
      vi.restoreAllMocks();
    }
  });
});
