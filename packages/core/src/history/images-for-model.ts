/**
 * Images only for a model that reads them (`model.vision`). Elsewhere an image becomes a one-line
 * placeholder in the text, so a session that holds images (an MCP screenshot, a session begun with
 * vision on) never sends one to a text-only server, which would refuse this turn and every later one.
 */
import type { ImageData, Message } from "./message.js";

/** Bytes of base64 `data` once decoded. */
export const decodedBytes = (data: string): number => {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
};

const sizeOf = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`);

/** What the model reads instead of an image it cannot see. */
export const imagePlaceholder = (image: ImageData): string =>
  `[${image.mimeType}, ${sizeOf(decodedBytes(image.data))}, not shown: the model does not read images]`;

const withPlaceholders = (text: string, images: readonly ImageData[]): string => [text, ...images.map(imagePlaceholder)].filter((t) => t !== "").join("\n");

/** `messages` as a model that does not read images is sent them: the same array when none holds one. */
export const withoutImages = (messages: readonly Message[]): readonly Message[] => {
  if (!messages.some((m) => (m.role === "user" || m.role === "tool") && m.images !== undefined)) return messages;
  return messages.map((message): Message => {
    if (message.role === "user" && message.images !== undefined) {
      const { images, ...rest } = message;
      return { ...rest, text: withPlaceholders(message.text, images) };
    }
    if (message.role === "tool" && message.images !== undefined) {
      const { images, ...rest } = message;
      return { ...rest, output: withPlaceholders(message.output, images) };
    }
    return message;
  });
};
