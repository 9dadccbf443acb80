/** ACP prompt content blocks → the core's prompt blocks (text, resource_link, image; the rest `other`, which the core ignores). */
import type * as acp from "@agentclientprotocol/sdk";
import type { PromptBlock } from "@mm/core";

export const promptBlocksOf = (blocks: readonly acp.ContentBlock[]): readonly PromptBlock[] =>
  blocks.map((block): PromptBlock => {
    if (block.type === "text") return { type: "text", text: block.text };
    if (block.type === "resource_link") return { type: "resource_link", uri: block.uri };
    if (block.type === "image") return { type: "image", data: block.data, mimeType: block.mimeType };
    return { type: "other" };
  });
