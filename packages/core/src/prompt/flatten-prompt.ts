/**
 * Flattens a prompt into the user message text: text blocks concatenated, `resource_link`s and
 * `@path` mentions of existing files or directories appended as attachment lines.
 */
import { isInside, resolvePath } from "../paths/path.js";
import type { ImageData } from "../history/message.js";
import type { FileSystem } from "../ports/file-system.js";
import type { PromptBlock } from "./prompt-blocks.js";

/** A prompt as one user message text, and the mentions attached. */
export type FlatPrompt = {
  readonly text: string;
  /** The prompt's images, in order. */
  readonly images: readonly ImageData[];
  /** The `@path` mentions that were attached, as typed. */
  readonly attached: readonly string[];
};

const stripFileScheme = (uri: string): string => {
  if (!uri.startsWith("file://")) return uri;
  const path = uri.slice("file://".length);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/** The text of the blocks alone, before `@path` attachments. */
export const blocksText = (blocks: readonly PromptBlock[]): string => {
  let text = "";
  for (const block of blocks) {
    if (block.type === "text") text += block.text;
    else if (block.type === "resource_link") text += `\n[attached file: ${stripFileScheme(block.uri)}]`;
  }
  return text;
};

const MENTION = /(?:^|\s)@(\S+)/g;

/** The prompt's text with its `resource_link`s and `@path` mentions of existing files attached. */
export const flattenPrompt = async (blocks: readonly PromptBlock[], cwd: string, fs: FileSystem, home?: string): Promise<FlatPrompt> => {
  let text = blocksText(blocks);
  const seen = new Set<string>();
  const attached: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const mention = match[1]!;
    if (seen.has(mention)) continue;
    seen.add(mention);
    const path = resolvePath(cwd, mention, home);
    const relative = !mention.startsWith("/") && !mention.startsWith("~");
    if (relative && !isInside(cwd, path)) continue;
    const stat = await fs.stat(path);
    if (stat.isErr()) continue;
    const what = stat.value.kind === "directory" ? "directory" : "file";
    text += `\n[attached ${what}: ${path}]`;
    attached.push(mention);
  }
  const images = blocks.flatMap((b) => (b.type === "image" ? [{ data: b.data, mimeType: b.mimeType }] : []));
  return { text, images, attached };
};
