/**
 * The SessionStore contract as runnable cases, free of any test framework: run each against an
 * adapter (the in-memory one, the JSON one, an embedder's own) with `it(c.name, () => c.run(world()))`.
 * A case throws an Error saying what differed.
 */
import { assistantMessage, summaryMessage, systemMessage, userMessage, type History } from "../history/message.js";
import type { SessionStore, StoreError, StoredSession } from "../ports/session-store.js";

/** What a case runs on: processes sharing one place where sessions are kept. */
export type StoreWorld = {
  /** The sessions' cwd. */
  readonly cwd: string;
  /** The store of process `name` (the same store each time for the same name). */
  readonly process: (name: string) => SessionStore;
  /** Process `name` ends without releasing anything (it is killed). */
  readonly kill: (name: string) => void;
};

/** One case of the contract. */
export type StoreContractCase = { readonly name: string; readonly run: (world: StoreWorld) => Promise<void> };

const ID = "20260916-101530-4f2a9c1e";
const OTHER_ID = "20260916-101530-00c0ffee";

const fail = (what: string, actual: unknown, expected: unknown): never => {
  throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
};

const same = (what: string, actual: unknown, expected: unknown): void => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) fail(what, actual, expected);
};

const errorKind = (what: string, error: StoreError | undefined, kind: StoreError["kind"]): StoreError => {
  if (error?.kind !== kind) fail(what, error, { kind });
  return error as StoreError;
};

const conversation: History = [
  systemMessage("You are Bob."),
  summaryMessage("Earlier: we fixed the build."),
  userMessage("rename foo to bar"),
  assistantMessage("Let me look.", [{ id: "call_7", name: "read_file", input: { path: "a.ts" } }]),
  { role: "tool", callId: "call_7", toolName: "read_file", status: "completed", output: "const foo = 1;\n" },
  {
    role: "tool",
    callId: "call_8",
    toolName: "edit_file",
    status: "completed",
    output: "edited",
    diffs: [
      { path: "/p/a.ts", oldText: "foo", newText: "bar" },
      { path: "/p/b.png", oldText: null, newText: null, note: "binary" },
    ],
  },
  assistantMessage("Done: ✓ «bar»\n\ttabs and \u0000 NULs survive."),
];

const sessionOf = (cwd: string, history: History, updatedAt = 2_000, id = ID): StoredSession => ({ id, cwd, createdAt: 1_000, updatedAt, history });

const loaded = async (store: SessionStore, cwd: string, id = ID): Promise<StoredSession> => {
  const result = await store.load(cwd, id);
  if (result.isErr()) throw new Error(`load failed: ${JSON.stringify(result.error)}`);
  return result.value;
};

const saved = async (store: SessionStore, session: StoredSession): Promise<void> => {
  const result = await store.save(session);
  if (result.isErr()) throw new Error(`save failed: ${JSON.stringify(result.error)}`);
};

/** Every case of the contract. */
export const sessionStoreContract: readonly StoreContractCase[] = [
  {
    name: "loads back what was saved, every kind of message verbatim",
    run: async ({ cwd, process }) => {
      await saved(process("a"), sessionOf(cwd, conversation));
      same("history", (await loaded(process("a"), cwd)).history, conversation);
      await process("a").release(cwd, ID);
      const again = await loaded(process("b"), cwd);
      same("session", again, sessionOf(cwd, conversation));
    },
  },
  {
    name: "keeps each save, whether it adds messages, replaces the system prompt or rewrites the history",
    run: async ({ cwd, process }) => {
      const a = process("a");
      const steps: History[] = [
        [conversation[0]],
        conversation.slice(0, 3) as unknown as History,
        conversation,
        [systemMessage("A new system prompt."), ...conversation.slice(1)],
        [systemMessage("After /new.")],
        [systemMessage("After /new."), userMessage("again")],
      ];
      for (const [i, history] of steps.entries()) {
        await saved(a, sessionOf(cwd, history, 2_000 + i));
        same(`history after save ${i}`, (await loaded(a, cwd)).history, history);
      }
      await a.release(cwd, ID);
      same("history seen by another process", (await loaded(process("b"), cwd)).history, steps.at(-1));
    },
  },
  {
    name: "what a killed process saved is there for the next one",
    run: async ({ cwd, process, kill }) => {
      const a = process("a");
      await saved(a, sessionOf(cwd, [conversation[0]]));
      await saved(a, sessionOf(cwd, conversation.slice(0, 4) as unknown as History));
      await saved(a, sessionOf(cwd, conversation));
      kill("a");
      same("history", (await loaded(process("b"), cwd)).history, conversation);
    },
  },
  {
    name: "a session held by a live process is refused to another one, busy, until released",
    run: async ({ cwd, process }) => {
      const a = process("a");
      const b = process("b");
      await saved(a, sessionOf(cwd, conversation));
      const refused = errorKind(
        "load by b",
        (await b.load(cwd, ID)).match(
          () => undefined,
          (e) => e,
        ),
        "busy",
      );
      if (refused.kind === "busy" && !/pid \d+/.test(refused.holder)) fail("holder", refused.holder, "pid N");
      errorKind(
        "hold by b",
        (await b.hold(cwd, ID)).match(
          () => undefined,
          (e) => e,
        ),
        "busy",
      );
      errorKind(
        "save by b",
        (await b.save(sessionOf(cwd, [conversation[0]]))).match(
          () => undefined,
          (e) => e,
        ),
        "busy",
      );
      same("a still holds it", (await a.hold(cwd, ID)).isOk(), true);
      await saved(a, sessionOf(cwd, [...conversation, userMessage("more")]));
      await a.release(cwd, ID);
      same("b, once released", (await loaded(b, cwd)).history.length, conversation.length + 1);
      errorKind(
        "a, now that b holds it",
        (await a.hold(cwd, ID)).match(
          () => undefined,
          (e) => e,
        ),
        "busy",
      );
    },
  },
  {
    name: "a killed holder's session is taken over",
    run: async ({ cwd, process, kill }) => {
      await saved(process("a"), sessionOf(cwd, conversation));
      kill("a");
      same("hold by b", (await process("b").hold(cwd, ID)).isOk(), true);
      await saved(process("b"), sessionOf(cwd, [...conversation, userMessage("b was here")]));
      same("history", (await loaded(process("b"), cwd)).history.length, conversation.length + 1);
    },
  },
  {
    name: "a process whose session was changed by another one meanwhile is told so (conflict), and can load it again",
    run: async ({ cwd, process, kill }) => {
      const a = process("a");
      await saved(a, sessionOf(cwd, conversation));
      kill("a");
      const b = process("b");
      await loaded(b, cwd);
      await saved(b, sessionOf(cwd, [...conversation, userMessage("from b")]));
      await b.release(cwd, ID);
      errorKind(
        "hold by a",
        (await a.hold(cwd, ID)).match(
          () => undefined,
          (e) => e,
        ),
        "conflict",
      );
      errorKind(
        "save by a",
        (await a.save(sessionOf(cwd, [...conversation, userMessage("from a")]))).match(
          () => undefined,
          (e) => e,
        ),
        "conflict",
      );
      same("a loads again", (await loaded(a, cwd)).history.at(-1), userMessage("from b"));
      await saved(a, sessionOf(cwd, [...conversation, userMessage("from b"), userMessage("from a")]));
      same("both kept", (await loaded(a, cwd)).history.length, conversation.length + 2);
    },
  },
  {
    name: "saves of one session are kept in the order they were called",
    run: async ({ cwd, process }) => {
      const a = process("a");
      const histories = Array.from(
        { length: 12 },
        (_, i): History => (i % 3 === 2 ? [systemMessage(`v${i}`)] : [systemMessage(`v${i}`), userMessage(`m${i}`)]),
      );
      const saves = histories.map((history, i) => a.save(sessionOf(cwd, history, 2_000 + i)));
      const load = a.load(cwd, ID);
      for (const result of await Promise.all(saves)) if (result.isErr()) fail("save", result.error, "ok");
      same("last save", (await load).map((s) => s.history).unwrapOr([]), histories.at(-1));
    },
  },
  {
    name: "sessions are apart: ids, and processes holding different ones",
    run: async ({ cwd, process }) => {
      await saved(process("a"), sessionOf(cwd, conversation));
      await saved(process("b"), sessionOf(cwd, [systemMessage("other")], 2_000, OTHER_ID));
      same("a's", (await loaded(process("a"), cwd)).history, conversation);
      same("b's", (await loaded(process("b"), cwd, OTHER_ID)).history, [systemMessage("other")]);
    },
  },
  {
    name: "refuses ids not of the session-id form, and reports sessions it does not have",
    run: async ({ cwd, process }) => {
      const a = process("a");
      for (const id of ["../x", "/etc/passwd", `${ID}\u0000`, "", "20260916-101530-4F2A9C1E"]) {
        errorKind(
          `load ${id}`,
          (await a.load(cwd, id)).match(
            () => undefined,
            (e) => e,
          ),
          "invalid-id",
        );
        errorKind(
          `save ${id}`,
          (await a.save(sessionOf(cwd, conversation, 2_000, id))).match(
            () => undefined,
            (e) => e,
          ),
          "invalid-id",
        );
        errorKind(
          `hold ${id}`,
          (await a.hold(cwd, id)).match(
            () => undefined,
            (e) => e,
          ),
          "invalid-id",
        );
        errorKind(
          `release ${id}`,
          (await a.release(cwd, id)).match(
            () => undefined,
            (e) => e,
          ),
          "invalid-id",
        );
      }
      errorKind(
        "load of a missing session",
        (await a.load(cwd, ID)).match(
          () => undefined,
          (e) => e,
        ),
        "not-found",
      );
    },
  },
];
