import { describe, expect, it } from "vitest";
import type { History } from "../history/message.js";
import type { UndoFileState, UndoTurn } from "../ports/undo-store.js";
import { firstConflict, lastTurnsOf, tooFewTurnsLine, turnName } from "./undo-turns.js";

const blob = (hash: string): UndoFileState => ({ kind: "blob", hash, size: 1 });
const absent: UndoFileState = { kind: "absent" };

const history: History = [
  { role: "system", text: "sys" },
  { role: "user", text: "one" },
  { role: "assistant", text: "1", toolCalls: [] },
  { role: "user", text: "two" },
  { role: "assistant", text: "2", toolCalls: [] },
  { role: "user", text: "three" },
  { role: "assistant", text: "3", toolCalls: [] },
];
const first: UndoTurn = { at: 1, question: "one", files: [{ path: "/w/a", before: blob("a0"), after: blob("a1") }] };
const second: UndoTurn = { at: 3, question: "two", files: [{ path: "/w/a", before: blob("a1"), after: blob("a2") }] };
const third: UndoTurn = { at: 5, question: "three", files: [{ path: "/w/b", before: absent, after: blob("b1") }] };

describe("lastTurnsOf", () => {
  it("takes the last N turns latest first with their records, and the records before them", () => {
    const turns = lastTurnsOf({ turns: [first, second, third] }, history, 2);
    expect(turns?.back.map((t) => [t.at, t.question, t.turn?.question])).toEqual([
      [5, "three", "three"],
      [3, "two", "two"],
    ]);
    expect(turns?.earlier).toEqual([first]);
  });

  it("drops stale records and leaves a turn that changed nothing without one", () => {
    const stale = { ...second, question: "not two" };
    const turns = lastTurnsOf({ turns: [first, stale, third] }, history, 3);
    expect(turns?.back.map((t) => t.turn?.at)).toEqual([5, undefined, 1]);
    expect(turns?.earlier).toEqual([]);
  });

  it("answers nothing when the history has fewer turns than asked", () => {
    expect(lastTurnsOf({ turns: [] }, history, 4)).toBeUndefined();
    expect(lastTurnsOf({ turns: [] }, history, 0)).toBeUndefined();
    expect(tooFewTurnsLine(4, 3)).toBe("↩ nothing undone: the conversation has 3 turn(s), not 4; send /undo 3 to take them all back.");
  });
});

describe("firstConflict", () => {
  const back = lastTurnsOf({ turns: [first, second, third] }, history, 3)!.back;

  it("plans each turn against the files as the later turns leave them: none when each file is as its turn left it", () => {
    expect(
      firstConflict(
        back,
        new Map([
          ["/w/a", blob("a2")],
          ["/w/b", blob("b1")],
        ]),
      ),
    ).toBeUndefined();
  });

  it("names the turn whose file was changed after it, before the next turn (the user's edit in between)", () => {
    const edited: UndoTurn = { ...second, files: [{ path: "/w/a", before: blob("a1-edited"), after: blob("a2") }] };
    const turns = lastTurnsOf({ turns: [first, edited, third] }, history, 3)!.back;
    const conflict = firstConflict(
      turns,
      new Map([
        ["/w/a", blob("a2")],
        ["/w/b", blob("b1")],
      ]),
    );
    expect(conflict).toEqual({ nth: 3, question: "one", conflicts: [{ path: "/w/a", reason: "changed since the turn" }] });
    expect(turnName(conflict!.nth, conflict!.question)).toBe('the 3rd to last turn ("one")');
  });

  it("names the last turn when its file changed since", () => {
    expect(
      firstConflict(
        back,
        new Map([
          ["/w/a", blob("a2")],
          ["/w/b", blob("b2")],
        ]),
      )?.nth,
    ).toBe(1);
  });
});
