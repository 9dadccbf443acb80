import { describe, expect, it } from "vitest";
import { parseBatch, parseBatchCheck, parseRawDiff } from "./git-objects.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const Z = "0".repeat(40);

describe("git output parsers", () => {
  it("reads raw diff entries with any bytes in their paths", () => {
    const output = Buffer.from(`:100644 100644 ${A} ${B} M\0dir/with space\nand newline.txt\0:000000 120000 ${Z} ${A} A\0link\0`);
    expect(parseRawDiff(output)).toEqual([
      { oldMode: "100644", newMode: "100644", oldId: A, newId: B, path: "dir/with space\nand newline.txt" },
      { oldMode: "000000", newMode: "120000", oldId: Z, newId: A, path: "link" },
    ]);
  });

  it("reads blob sizes and skips missing objects", () => {
    expect(parseBatchCheck(Buffer.from(`${A} blob 12\n${B} missing\n`))).toEqual(new Map([[A, 12]]));
  });

  it("reads contents holding newlines, and skips missing objects", () => {
    const output = Buffer.concat([Buffer.from(`${A} blob 5\nx\ny\n\n`), Buffer.from(`${Z} missing\n`), Buffer.from(`${B} blob 0\n\n`)]);
    expect(parseBatch(output)).toEqual(new Map([[A, Buffer.from("x\ny\n\n")], [B, Buffer.alloc(0)]]));
  });
});
