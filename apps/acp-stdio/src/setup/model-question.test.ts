import { describe, expect, it } from "vitest";
import { answerLines, type ServerAnswer } from "./ask-server.js";
import { defaultModel, modelAnswerCheck } from "./model-question.js";

const OPENAI = "https://api.openai.com/v1";
const LOCAL = "http://127.0.0.1:11434/v1";

describe("the model offered by default", () => {
  it("is among the server's models: the file's, else OpenAI's default on OpenAI, else the first", () => {
    expect(defaultModel(["a", "qwen"], "qwen", LOCAL)).toBe("qwen");
    expect(defaultModel(["a", "qwen"], "gone", LOCAL)).toBe("a");
    expect(defaultModel(["gpt-4o", "gpt-4.1-mini"], undefined, OPENAI)).toBe("gpt-4.1-mini");
    expect(defaultModel(["gpt-4.1-mini", "llama"], undefined, LOCAL)).toBe("gpt-4.1-mini");
  });

  it("without a list, is never OpenAI's for another server", () => {
    expect(defaultModel(undefined, undefined, LOCAL)).toBe("");
    expect(defaultModel([], undefined, LOCAL)).toBe("");
    expect(defaultModel(undefined, undefined, OPENAI)).toBe("gpt-4.1-mini");
    expect(defaultModel(undefined, "mine", LOCAL)).toBe("mine");
  });
});

describe("the model answer", () => {
  it("takes a number of the list, or a listed name", () => {
    const check = modelAnswerCheck(["a", "b", "c"]);
    expect(check("2")._unsafeUnwrap()).toBe("b");
    expect(check("c")._unsafeUnwrap()).toBe("c");
    expect(check("4")._unsafeUnwrapErr()).toBe("choose 1 to 3, or type a name");
    expect(check("")._unsafeUnwrapErr()).toBe("type the model's name");
  });

  it("takes a name the server does not list only when typed twice in a row", () => {
    const check = modelAnswerCheck(["a"]);
    expect(check("gtp-4")._unsafeUnwrapErr()).toContain('the server does not list "gtp-4": type it again to keep it');
    expect(check("gtp-4")._unsafeUnwrap()).toBe("gtp-4");
    expect(modelAnswerCheck(undefined)("anything")._unsafeUnwrap()).toBe("anything");
  });
});

describe("what the setup says of the server's answer", () => {
  const lines = (answer: ServerAnswer, keySet: boolean) => answerLines(answer, "GROQ_API_KEY", keySet);

  it("lists the models, saying whether the key was sent", () => {
    expect(lines({ kind: "models", ids: ["a", "b"] }, false)).toEqual(["mm-acp: the server answered (without a key): 2 model(s)", "  1) a", "  2) b"]);
    expect(lines({ kind: "models", ids: ["a"] }, true)[0]).toBe("mm-acp: the server answered (with the key in $GROQ_API_KEY): 1 model(s)");
    const many = lines({ kind: "models", ids: Array.from({ length: 35 }, (_, i) => `m${i}`) }, true);
    expect(many).toHaveLength(32);
    expect(many.at(-1)).toBe("  … and 5 more (type a name)");
  });

  it("names the variable of a refused key, and says when it is not set", () => {
    expect(lines({ kind: "refused", status: 401 }, true)).toEqual([
      "mm-acp: the server refused the key in $GROQ_API_KEY (401): check that variable's value; the model's name cannot be checked",
    ]);
    expect(lines({ kind: "refused", status: 401 }, false)[0]).toContain("the server wants a key (401) and $GROQ_API_KEY is not set in this shell");
    expect(lines({ kind: "failed", reason: "no answer within 5 s" }, false)).toEqual([
      "mm-acp: the server did not answer: no answer within 5 s; the model's name cannot be checked",
    ]);
  });
});
