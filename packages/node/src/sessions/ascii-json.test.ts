import { describe, expect, it } from "vitest";
import { asciiJson, asciiOnly } from "./ascii-json.js";

describe("asciiJson", () => {
  const samples: unknown[] = [
    "plain",
    "café — naïve → ok",
    "漢字テキスト",
    "emoji 😀 and 𝄞",
    "line\u2028separator\u2029too",
    "lone \ud800 and \udfff surrogates",
    "\u007f\u0080\u00ff\u0100\uffff",
    { key: "é", nested: ["→", { ключ: "значение" }] },
  ];

  it("writes pure ASCII that parses back to the same value", () => {
    for (const value of samples) {
      const text = asciiJson(value);
      expect(/^[\x00-\x7f]*$/.test(text), text).toBe(true);
      expect(JSON.parse(text)).toEqual(value);
    }
  });

  it("escapes keys too, and leaves ASCII text as JSON.stringify wrote it", () => {
    expect(asciiJson({ é: 1 })).toBe('{"\\u00e9":1}');
    expect(asciiJson({ a: 'b"\\\n' })).toBe(JSON.stringify({ a: 'b"\\\n' }));
    const ascii = JSON.stringify({ a: "plain" });
    expect(asciiOnly(ascii)).toBe(ascii);
  });
});
