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

/**
 * Where a mention leads: an absolute or `~` one as written; a relative one inside the cwd when it is
 * there, else inside the first of the session's additional directories (`roots`) that has it.
 */
const mentionPath = async (mention: string, cwd: string, roots: readonly string[], fs: FileSystem, home?: string): Promise<string | undefined> => {
  const relative = !mention.startsWith("/") && !mention.startsWith("~");
  if (!relative) return resolvePath(cwd, mention, home);
  for (const base of [cwd, ...roots]) {
    const path = resolvePath(base, mention, home);
    if (!isInside(base, path)) continue;
    if ((await fs.stat(path)).isOk()) return path;
  }
  return undefined;
};

/**
 * The prompt's text with its `resource_link`s and `@path` mentions of existing files attached; a
 * relative mention resolves in the cwd, else in the session's additional directories (`roots`).
 */
export const flattenPrompt = async (
  blocks: readonly PromptBlock[],
  cwd: string,
  fs: FileSystem,
  home?: string,
  roots: readonly string[] = [],
): Promise<FlatPrompt> => {
  let text = blocksText(blocks);
  const seen = new Set<string>();
  const attached: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const mention = match[1]!;
    if (seen.has(mention)) continue;
    seen.add(mention);
    const path = await mentionPath(mention, cwd, roots, fs, home);
    if (path === undefined) continue;
    const stat = await fs.stat(path);
    if (stat.isErr()) continue;
    const what = stat.value.kind === "directory" ? "directory" : "file";
    text += `\n[attached ${what}: ${path}]`;
    attached.push(mention);
  }
  const images = blocks.flatMap((b) => (b.type === "image" ? [{ data: b.data, mimeType: b.mimeType }] : []));
  return { text, images, attached };
};
