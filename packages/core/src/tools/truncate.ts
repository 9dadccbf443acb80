/** Keeps a long text's head and tail within a UTF-8 byte budget, with a marker saying what was cut. */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const inside = (bytes: Uint8Array, at: number): boolean => at > 0 && at < bytes.length && (bytes[at]! & 0xc0) === 0x80;

/** Moves a byte index to the start of a UTF-8 sequence: back for a head's end, forward for a tail's start. */
const boundary = (bytes: Uint8Array, index: number, step: -1 | 1): number => {
  let at = index;
  while (inside(bytes, at)) at += step;
  return at;
};

/** `text` within `maxBytes` UTF-8 bytes: head and tail with a marker saying how much was cut. */
export const truncateMiddle = (text: string, maxBytes: number): string => {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  const half = Math.floor(maxBytes / 2);
  const headEnd = boundary(bytes, half, -1);
  const tailStart = boundary(bytes, bytes.length - half, 1);
  return `${decoder.decode(bytes.subarray(0, headEnd))}\n[… ${tailStart - headEnd} bytes cut …]\n${decoder.decode(bytes.subarray(tailStart))}`;
};
