/**
 * An MCP server writing one endless line (issue 28): the old transport buffered it without limit and
 * joined and scanned it again on every chunk (the agent reached 2.9 GB, and other sessions' prompts
 * slowed from 0.5 s to 9 s). Now the line is cut at MAX_LINE_CHARS: the server is stopped and told
 * once, like a crash, and lines before it still arrive.
 */
import { describe, expect, it } from "vitest";
import { GroupStdioTransport, MAX_LINE_CHARS } from "./group-stdio-transport.js";

describe("GroupStdioTransport", () => {
  it("stops a server whose line passes the limit, telling why once", async () => {
    const script = `process.stdout.write('{"jsonrpc":"2.0","method":"hello"}\\n'); const chunk = "x".repeat(1 << 20); const go = () => { while (process.stdout.write(chunk)); process.stdout.once("drain", go); }; go();`;
    const transport = new GroupStdioTransport({ command: process.execPath, args: ["-e", script], cwd: process.cwd(), env: { PATH: process.env.PATH } });
    const messages: unknown[] = [];
    const errors: string[] = [];
    transport.onmessage = (message) => void messages.push(message);
    transport.onerror = (error) => void errors.push(error.message);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    const rssBefore = process.memoryUsage().rss;
    await transport.start();
    await closed;
    expect(messages).toEqual([{ jsonrpc: "2.0", method: "hello" }]);
    expect(errors).toEqual([`the server wrote a line of over ${MAX_LINE_CHARS} characters and was stopped`]);
    expect(transport.exitReason()).toBe(`wrote a line of over ${MAX_LINE_CHARS} characters and was stopped`);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  }, 30_000);
});
