import { describe, expect, it } from "vitest";
import { boundedOutput, dropPartialEnd, dropPartialStart } from "./output-buffer.js";

const pushAll = (max: number, chunks: readonly string[]): string => {
  const buffer = boundedOutput(max);
  for (const chunk of chunks) buffer.push(Buffer.from(chunk));
  return buffer.text();
};

describe("boundedOutput", () => {
  it("keeps everything within the budget", () => {
    expect(pushAll(10, ["abc", "def", "ghij"])).toBe("abcdefghij");
  });

  it("keeps head and tail with a marker counting the cut bytes", () => {
    expect(pushAll(6, ["abcdefghij"])).toBe("abc\n[… 4 bytes cut …]\nhij");
  });

  it("keeps the latest tail across many small pushes (ring wrap-around)", () => {
    const chunks = Array.from({ length: 100 }, (_, index) => `${index % 10}`);
    expect(pushAll(8, chunks)).toBe("0123\n[… 92 bytes cut …]\n6789");
  });

  it("keeps the latest tail when one push exceeds the ring", () => {
    expect(pushAll(4, ["ab", "cdefghijklmnop", "q"])).toBe("ab\n[… 13 bytes cut …]\npq");
  });

  it("counts every byte pushed", () => {
    const buffer = boundedOutput(4);
    buffer.push(Buffer.alloc(1000));
    expect(buffer.totalBytes()).toBe(1000);
  });

  it("never splits a multibyte character at the cut", () => {
    const text = pushAll(7, ["ééééééééé"]);
    expect(text).not.toContain("\uFFFD");
    expect(text).toBe("é\n[… 12 bytes cut …]\néé");
  });

  it("decodes a character split across pushes", () => {
    const euro = Buffer.from("€");
    const buffer = boundedOutput(100);
    buffer.push(euro.subarray(0, 1));
    buffer.push(euro.subarray(1));
    expect(buffer.text()).toBe("€");
  });
});

describe("UTF-8 trimming", () => {
  it("drops an incomplete trailing sequence only", () => {
    expect(dropPartialEnd(Buffer.from([0x61, 0xe2, 0x82])).toString()).toBe("a");
    expect(dropPartialEnd(Buffer.from("a€")).toString()).toBe("a€");
  });

  it("drops leading continuation bytes only", () => {
    expect(dropPartialStart(Buffer.from([0x82, 0xac, 0x61])).toString()).toBe("a");
    expect(dropPartialStart(Buffer.from("€a")).toString()).toBe("€a");
  });
});
