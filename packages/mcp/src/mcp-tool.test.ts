import { describe, expect, it } from "vitest";
import { kindOf, locationsOf, type McpToolInfo } from "./mcp-tool.js";

const tool = (name: string, annotations?: McpToolInfo["annotations"]): McpToolInfo => ({ name, inputSchema: { type: "object" }, annotations });
const readOnly = { readOnlyHint: true, openWorldHint: false };
const writes = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };

describe("kindOf", () => {
  it("gives server-filesystem's tools the kinds a client shows them as", () => {
    expect(kindOf(tool("read_text_file", readOnly))).toBe("read");
    expect(kindOf(tool("search_files", readOnly))).toBe("search");
    expect(kindOf(tool("write_file", writes))).toBe("edit");
    expect(kindOf(tool("edit_file", writes))).toBe("edit");
    expect(kindOf(tool("create_directory", { readOnlyHint: false }))).toBe("edit");
    expect(kindOf(tool("move_file", writes))).toBe("move");
  });

  it("reads names in camelCase and kebab-case, fetches when read-only reaches outside, executes otherwise", () => {
    expect(kindOf(tool("deleteIssue"))).toBe("delete");
    expect(kindOf(tool("remove-label"))).toBe("delete");
    expect(kindOf(tool("get_weather", { readOnlyHint: true, openWorldHint: true }))).toBe("fetch");
    expect(kindOf(tool("run_query"))).toBe("execute");
    expect(kindOf(tool("rewrite"))).toBe("execute");
  });
});

describe("locationsOf", () => {
  it("takes the paths a call's arguments name, relative ones from the cwd", () => {
    const place = { cwd: "/w" };
    expect(locationsOf({ path: "/w/a.txt", content: "/not/a/path" }, place)).toEqual(["/w/a.txt"]);
    expect(locationsOf({ source: "a.txt", destination: "sub/../b.txt" }, place)).toEqual(["/w/a.txt", "/w/b.txt"]);
    expect(locationsOf({ paths: ["x", "/y", 3] }, place)).toEqual(["/w/x", "/y"]);
    expect(locationsOf({ uri: "file:///srv/a%20b.md" }, place)).toEqual(["/srv/a b.md"]);
    expect(locationsOf({ uri: "https://example.com/x" }, place)).toEqual([]);
    expect(locationsOf({ uri: "file:///bad%E0%A4%A" }, place)).toEqual([]);
  });
});
