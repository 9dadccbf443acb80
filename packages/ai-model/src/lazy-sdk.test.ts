import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("@mm/ai-model start-up cost", () => {
  it("imports the AI SDK only as types at module level (values are loaded on the first step)", () => {
    const dir = import.meta.dirname;
    const sources = readdirSync(dir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
    for (const name of sources) {
      const text = readFileSync(join(dir, name), "utf8");
      expect(text, name).not.toMatch(/^import\s+(?!type\b)[^;]*from\s+"(ai|@ai-sdk\/[^"]+)"/m);
      expect(text, name).not.toMatch(/^export\s+(?!type\b)[^;]*from\s+"(ai|@ai-sdk\/[^"]+)"/m);
    }
  });
});
