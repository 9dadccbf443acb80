import { describe, expect, it } from "vitest";
import type { ModelEvent } from "../ports/model.js";
import { scriptedModel } from "../testing/scripted-model.js";
import { runModelStep } from "./model-step.js";

const stepOf = (events: readonly ModelEvent[]) =>
  runModelStep(
    scriptedModel({ kind: "events", events: [...events, { type: "finish", usage: {} }] }),
    { system: "", messages: [], tools: [], signal: new AbortController().signal },
    () => undefined,
  );

describe("runModelStep's reasoning", () => {
  it("keeps one part per item, in order, with its encrypted content", async () => {
    const { reasoning } = await stepOf([
      { type: "reasoning", text: "a", item: "rs_1" },
      { type: "reasoning", text: "b", item: "rs_1" },
      { type: "reasoning-end", item: "rs_1", encrypted: "enc-1" },
      { type: "reasoning", text: "c", item: "rs_2" },
    ]);
    expect(reasoning).toEqual([
      { text: "ab", item: "rs_1", encrypted: "enc-1" },
      { text: "c", item: "rs_2" },
    ]);
  });

  it("joins the deltas without an item that follow one another into one part, also after an item's part", async () => {
    const { reasoning } = await stepOf([
      { type: "reasoning", text: "x" },
      { type: "reasoning", text: "y" },
      { type: "reasoning", text: "r", item: "rs_1" },
      { type: "reasoning", text: "p" },
      { type: "reasoning", text: "q" },
    ]);
    expect(reasoning).toEqual([{ text: "xy" }, { text: "r", item: "rs_1" }, { text: "pq" }]);
  });
});
