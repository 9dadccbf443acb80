/** An MCP server as an editor names it in `session/new` (ACP's `McpServer`), in mm's own terms. */

/** How to reach one MCP server. */
export type McpServerSpec =
  | {
      readonly kind: "stdio";
      readonly name: string;
      readonly command: string;
      readonly args: readonly string[];
      /** Variables added to the server's environment. */
      readonly env: Readonly<Record<string, string>>;
    }
  | {
      readonly kind: "http" | "sse";
      readonly name: string;
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
    };

/** A server name as part of a tool name: letters, digits, `_` and `-` only. */
export const nameSlug = (name: string): string => name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "server";
