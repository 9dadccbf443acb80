/**
 * Images are bounded like text: a tool result keeps images up to `perResult` bytes (decoded), and a
 * session up to `perSession` bytes of them in all (what its history holds: prompts' and tools'); past
 * either, an image becomes a one-line placeholder in the result's text, as for a model that does not
 * read images. So a server answering screenshot after screenshot can neither grow the agent's memory
 * without end nor make the session too large to save (docs/decisions.md, issue 37).
 */
import { decodedBytes } from "./images-for-model.js";
import type { History, ImageData, Message } from "./message.js";

/** The bounds, in bytes of decoded image data. */
export type ImageBudget = {
  /** What one tool result may keep. */
  readonly perResult: number;
  /** What a session's history may hold in all. */
  readonly perSession: number;
};

/** 5 MiB per result (the most model APIs take in one image), 20 MiB per session. */
export const DEFAULT_IMAGE_BUDGET: ImageBudget = { perResult: 5 * 1024 * 1024, perSession: 20 * 1024 * 1024 };

const sizeOf = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

const imagesOf = (message: Message): readonly ImageData[] | undefined => (message.role === "user" || message.role === "tool" ? message.images : undefined);

/** Bytes of the images `messages` hold (decoded). */
export const imageBytesOf = (messages: readonly Message[] | History): number => {
  let total = 0;
  for (const message of messages) for (const image of imagesOf(message) ?? []) total += decodedBytes(image.data);
  return total;
};

/** What an image left out says instead, and why. */
const leftOut = (image: ImageData, bytes: number, why: string): string => `[${image.mimeType}, ${sizeOf(bytes)}, not kept: ${why}]`;

/**
 * The images of a result within the budget, given `used` bytes already in the session, and a
 * placeholder line for each left out. Pure and the same for the same input: the view the editor is
 * shown and the result the session keeps agree.
 */
export const boundImages = (
  images: readonly ImageData[],
  budget: ImageBudget,
  used: number,
): { readonly kept: readonly ImageData[]; readonly lines: readonly string[]; readonly bytes: number } => {
  const kept: ImageData[] = [];
  const lines: string[] = [];
  let result = 0;
  for (const image of images) {
    const bytes = decodedBytes(image.data);
    if (result + bytes > budget.perResult)
      lines.push(leftOut(image, bytes, `over the ${sizeOf(budget.perResult)} of images one tool result keeps (tools.maxImageBytes)`));
    else if (used + result + bytes > budget.perSession)
      lines.push(leftOut(image, bytes, `the session already holds the ${sizeOf(budget.perSession)} of images it keeps (tools.maxSessionImageBytes)`));
    else {
      kept.push(image);
      result += bytes;
    }
  }
  return { kept, lines, bytes: result };
};

/** An outcome-like value (`output`, `images`) with its images bounded: the same value when all fit. */
export const withBoundedImages = <T extends { readonly output: string; readonly images?: readonly ImageData[] | undefined }>(
  value: T,
  budget: ImageBudget,
  used: number,
): T => {
  if (value.images === undefined || value.images.length === 0) return value;
  const { kept, lines } = boundImages(value.images, budget, used);
  if (lines.length === 0) return value;
  const { images: _all, ...rest } = value;
  const output = [value.output, ...lines].filter((t) => t !== "").join("\n");
  return { ...rest, output, ...(kept.length > 0 ? { images: kept } : {}) } as unknown as T;
};
