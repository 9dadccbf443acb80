import { describe, expect, it } from "vitest";
import { checkAnswer, defaultAnswers, documentWith, existingFileOf, looksLikeKey } from "./setup-document.js";

const answers = { baseURL: "http://127.0.0.1:11434/v1", name: "qwen", apiKeyEnv: "OLLAMA_KEY" };

describe("the existing file", () => {
  it("is absent, an object to update, or something to replace", () => {
    expect(existingFileOf(undefined)).toEqual({ kind: "none" });
    expect(existingFileOf('\uFEFF{"sessions":{"enabled":true}}')).toEqual({ kind: "object", document: { sessions: { enabled: true } } });
    expect(existingFileOf("[1]")).toEqual({ kind: "other", reason: "it is not a JSON object" });
    expect(existingFileOf("{ nope")).toEqual({ kind: "other", reason: "it is not valid JSON" });
  });

  it("gives its model settings as defaults, mm's own for the rest", () => {
    expect(defaultAnswers({ kind: "none" })).toEqual({ baseURL: "https://api.openai.com/v1", name: "gpt-4.1-mini", apiKeyEnv: "OPENAI_API_KEY" });
    expect(defaultAnswers(existingFileOf('{"model":{"name":"llama3","baseURL":7}}'))).toEqual({
      baseURL: "https://api.openai.com/v1",
      name: "llama3",
      apiKeyEnv: "OPENAI_API_KEY",
    });
  });
});

describe("answers", () => {
  it("are checked by the config file's rules", () => {
    expect(checkAnswer("baseURL", "http://h:1/v1")._unsafeUnwrap()).toBe("http://h:1/v1");
    expect(checkAnswer("baseURL", "localhost:1")._unsafeUnwrapErr()).toBe('expected an http(s) URL, got "localhost:1"');
    expect(checkAnswer("apiKeyEnv", "GROQ_API_KEY").isOk()).toBe(true);
  });

  it("refuse a key where the name of its variable belongs, without repeating it", () => {
    for (const key of ["sk-proj-abc", "gsk_abcdef", "xai-123", "AbCdEfGh1234567890AbCdEfGh123456"]) {
      expect(looksLikeKey(key)).toBe(true);
      expect(checkAnswer("apiKeyEnv", key)._unsafeUnwrapErr()).not.toContain(key);
    }
    expect(checkAnswer("apiKeyEnv", "not-a-name")._unsafeUnwrapErr()).not.toContain("not-a-name");
    expect(looksLikeKey("OPENAI_API_KEY")).toBe(false);
    expect(looksLikeKey("MY_COMPANY_GATEWAY_TOKEN_FOR_MODELS")).toBe(false);
  });
});

describe("the document written", () => {
  it("is the model section alone for a new file", () => {
    expect(documentWith({ kind: "none" }, answers)._unsafeUnwrap()).toEqual({ model: answers });
  });

  it("keeps every other key of an existing file", () => {
    const existing = existingFileOf('{"model":{"contextWindow":32000,"name":"old"},"sessions":{"enabled":true}}');
    expect(documentWith(existing, answers)._unsafeUnwrap()).toEqual({
      model: { contextWindow: 32000, ...answers },
      sessions: { enabled: true },
    });
  });

  it("replaces a file that was not an object", () => {
    expect(documentWith(existingFileOf("[]"), answers)._unsafeUnwrap()).toEqual({ model: answers });
  });

  it("is refused when the file would not load", () => {
    expect(documentWith(existingFileOf('{"sessions":{"enabled":"yes"}}'), answers)._unsafeUnwrapErr()).toBe(
      'sessions.enabled: expected true or false, got "yes"',
    );
  });
});
