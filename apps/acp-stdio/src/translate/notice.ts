/**
 * Notices ("full" surface, a client advertising `session.notices`): a line of mm's own that is not
 * the model's answer (the session not saved, an answer cut off, images refused, an MCP server failed,
 * a session's file not trusted) as ACP's `notice` update instead of answer text.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { NoticeSeverity } from "@mm/core";

/** Whether the client shows notices (`clientCapabilities.session.notices`). */
export const showsNotices = (capabilities: acp.ClientCapabilities | undefined): boolean => capabilities?.session?.notices != null;

/** The line without the blank lines and brackets mm's text lines wear (`\n[session not saved: …]\n`). */
const bare = (line: string): string => {
  const trimmed = line.trim();
  return trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1).trim() : trimmed;
};

/** Where the line's title ends: its first `: ` outside quotes and parentheses, when the title is short; else -1. */
const titleEnd = (line: string): number => {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < line.length && i <= 80; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")") depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && c === ":" && line[i + 1] === " ") return i;
  }
  return -1;
};

/**
 * The `notice` update of one of mm's lines: `title` when given (the line is then the description),
 * else the words before the line's first `: ` (when short), the rest its description.
 */
export const noticeOf = (line: string, severity: NoticeSeverity, title?: string): acp.SessionUpdate => {
  const text = bare(line);
  if (title !== undefined) return { sessionUpdate: "notice", severity, title, ...(text !== "" ? { description: text } : {}) };
  const end = titleEnd(text);
  if (end <= 0) return { sessionUpdate: "notice", severity, title: text === "" ? "mm" : text };
  const head = text.slice(0, end);
  return { sessionUpdate: "notice", severity, title: head.charAt(0).toUpperCase() + head.slice(1), description: text.slice(end + 2).trim() };
};
