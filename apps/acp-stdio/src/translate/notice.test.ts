import { describe, expect, it } from "vitest";
import { noticeOf, showsNotices } from "./notice.js";

describe("noticeOf", () => {
  it("titles a line by the words before its first colon, the rest the description", () => {
    expect(noticeOf("\n[session not saved: disk full]\n", "error")).toEqual({
      sessionUpdate: "notice",
      severity: "error",
      title: "Session not saved",
      description: "disk full",
    });
  });

  it("looks past colons in quotes and parentheses", () => {
    expect(noticeOf('[MCP server "a: b" stopped (stderr: boom): its tools are gone from this session]', "warning")).toMatchObject({
      title: 'MCP server "a: b" stopped (stderr: boom)',
      description: "its tools are gone from this session",
    });
  });

  it("keeps a line without a short title whole, and takes a given title", () => {
    expect(noticeOf("[answer stopped by the model server's content filter]", "warning")).toEqual({
      sessionUpdate: "notice",
      severity: "warning",
      title: "answer stopped by the model server's content filter",
    });
    expect(noticeOf("it runs in ask", "warning", "Session loaded in ask mode")).toMatchObject({
      title: "Session loaded in ask mode",
      description: "it runs in ask",
    });
  });

  it("is shown only to a client advertising session.notices", () => {
    expect(showsNotices({ session: { notices: {} } })).toBe(true);
    expect(showsNotices({ session: {} })).toBe(false);
    expect(showsNotices(undefined)).toBe(false);
  });
});
