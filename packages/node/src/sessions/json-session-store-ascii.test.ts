/**
 * The store writes its files in ASCII (ascii-json.ts) and reads any UTF-8: text beyond ASCII survives
 * a save and a load, in the document and in the journal, and a document written as raw UTF-8 (as mm
 * did before) still loads.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantMessage, systemMessage, userMessage, type History, type StoredSession } from "@mm/core";
import { encodeSessionDocument } from "./json-session-document.js";
import { jsonSessionStore } from "./json-session-store.js";

const ID = "20260916-101530-4f2a9c1e";
const TEXT = "café — naïve → 漢字 😀 \u2028";

let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "mm-ascii-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const sessionOf = (history: History): StoredSession => ({ id: ID, cwd, createdAt: 1_000, updatedAt: 2_000, title: TEXT, history });
const isAscii = (bytes: Buffer): boolean => bytes.every((b) => b < 0x80);

describe("session files in ASCII", () => {
  it("keeps text beyond ASCII through the document and the journal, both written in ASCII", async () => {
    const first: History = [systemMessage("s"), userMessage(TEXT)];
    const next: History = [...first, assistantMessage(`${TEXT}!`)];
    expect((await jsonSessionStore({ dir: "sessions" }).save(sessionOf(first))).isOk()).toBe(true);
    const writer = jsonSessionStore({ dir: "sessions" });
    expect((await writer.load(cwd, ID)).isOk()).toBe(true);
    expect((await writer.save(sessionOf(next))).isOk()).toBe(true);
    const document = await readFile(join(cwd, "sessions", `${ID}.json`));
    const journal = await readFile(join(cwd, "sessions", `${ID}.journal`));
    expect(isAscii(document) && isAscii(journal)).toBe(true);
    const loaded = await jsonSessionStore({ dir: "sessions" }).load(cwd, ID);
    expect(loaded._unsafeUnwrap().history).toEqual(next);
    expect(loaded._unsafeUnwrap().title).toBe(TEXT);
  });

  it("loads a document written as raw UTF-8", async () => {
    const history: History = [systemMessage("s"), userMessage(TEXT), assistantMessage(TEXT)];
    const raw = JSON.stringify(JSON.parse(encodeSessionDocument(sessionOf(history), "0123456789ab")._unsafeUnwrap()));
    expect(raw).toContain("漢字");
    await mkdir(join(cwd, "sessions"), { mode: 0o700 });
    await writeFile(join(cwd, "sessions", `${ID}.json`), `${raw}\n`, { mode: 0o600 });
    const loaded = await jsonSessionStore({ dir: "sessions" }).load(cwd, ID);
    expect(loaded._unsafeUnwrap().history).toEqual(history);
  });
});
