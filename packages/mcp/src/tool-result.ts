/**
 * An MCP `CallToolResult` as a core tool outcome: its text blocks joined, its images kept as images,
 * resources and links named, audio said; `isError` makes it `failed`. The text is capped like every
 * tool's output. Images a model cannot read become placeholders later, as the model is sent them
 * (`withoutImages` in core), so the editor still shows them.
 */
import { completed, failed, truncateMiddle, type ImageData, type ToolOutcome } from "@mm/core";

type Block = { readonly type: string; readonly [key: string]: unknown };

const textOf = (block: Block): string | undefined => {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : undefined;
    case "resource": {
      const resource = block.resource as { uri?: unknown; text?: unknown; mimeType?: unknown } | undefined;
      if (typeof resource?.text === "string") return `[resource ${String(resource.uri)}]\n${resource.text}`;
      return `[resource ${String(resource?.uri)} (${String(resource?.mimeType ?? "binary")}), not shown]`;
    }
    case "resource_link":
      return `[link: ${String(block.name ?? "")} ${String(block.uri)}]`;
    case "audio":
      return `[audio (${String(block.mimeType)}), not shown]`;
    case "image":
      return undefined;
    default:
      return `[${block.type} content, not shown]`;
  }
};

/** The outcome of a call from what the server answered. */
export const outcomeOf = (
  result: { readonly content?: unknown; readonly isError?: unknown; readonly structuredContent?: unknown },
  maxOutputBytes: number,
): ToolOutcome => {
  const blocks: readonly Block[] = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const images: ImageData[] = blocks.flatMap((b) =>
    b.type === "image" && typeof b.data === "string" && typeof b.mimeType === "string" ? [{ data: b.data, mimeType: b.mimeType }] : [],
  );
  const texts = blocks.map(textOf).filter((t): t is string => t !== undefined);
  // Structured content repeats `content` (server-filesystem's read_media_file puts the image there
  // too): it is the answer only when `content` holds nothing.
  if (blocks.length === 0 && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent));
  const output = truncateMiddle(texts.join("\n") || (images.length > 0 ? `[${images.length} image(s)]` : "[no output]"), maxOutputBytes);
  return result.isError === true ? failed(output) : completed(output, [], images);
};
