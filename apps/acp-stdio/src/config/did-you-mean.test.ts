import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "./did-you-mean.js";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and swaps of neighbours", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("modle", "model")).toBe(1);
    expect(editDistance("ab", "ba")).toBe(1);
    expect(editDistance("same", "same")).toBe(0);
  });
});

describe("closestName", () => {
  const model = ["name", "baseURL", "apiKeyEnv", "api", "contextWindow", "choices", "vision", "reasoningTag"];

  it("prefers the same letters in another case", () => {
    expect(closestName("baseUrl", model)).toBe("baseURL");
    expect(closestName("APIKEYENV", model)).toBe("apiKeyEnv");
  });

  it("takes the nearest name within a third of the length", () => {
    expect(closestName("contextWindw", model)).toBe("contextWindow");
    expect(closestName("modle", ["model", "sessions", "tools"])).toBe("model");
    expect(closestName("vison", model)).toBe("vision");
  });

  it("suggests nothing when no name is close", () => {
    expect(closestName("timeout", ["bashTimeoutSeconds", "maxOutputBytes", "sandbox"])).toBeUndefined();
    expect(closestName("x", ["name", "api"])).toBeUndefined();
  });
});
