/**
 * Text collected within a UTF-8 byte budget, the way a command's final output is capped: the first
 * half of the budget and the latest half, with `[… N bytes cut …]` between; memory stays bounded
 * however much is appended.
 */

/** Text kept within a byte budget (head and tail). */
export type CappedText = {
  readonly append: (text: string) => void;
  /** Everything when within the budget, else head + cut marker + tail. */
  readonly text: () => string;
  /** Forgets everything (the budget starts again). */
  readonly clear: () => void;
};

/** The marker between head and tail, as the shell writes it. */
export const cutMarker = (bytes: number): string => `\n[… ${bytes} bytes cut …]\n`;

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** The first `bytes` bytes of `buffer`, never ending inside a character. */
const headOf = (buffer: Buffer, bytes: number): Buffer => {
  let end = Math.min(bytes, buffer.length);
  while (end > 0 && end < buffer.length && isContinuation(buffer[end])) end -= 1;
  return buffer.subarray(0, end);
};

/** The last `bytes` bytes of `buffer`, never starting inside a character. */
const tailOf = (buffer: Buffer, bytes: number): Buffer => {
  let start = Math.max(0, buffer.length - bytes);
  while (start < buffer.length && isContinuation(buffer[start])) start += 1;
  return buffer.subarray(start);
};

/** Collects text keeping at most `maxBytes` UTF-8 bytes of it (half head, half tail). */
export const cappedText = (maxBytes: number): CappedText => {
  const headBudget = Math.max(0, Math.floor(maxBytes / 2));
  const tailBudget = Math.max(0, Math.floor(maxBytes) - headBudget);
  let head = "";
  let headBytes = 0;
  let tail: string[] = [];
  let tailBytes = 0;
  let total = 0;

  const trimTail = (): void => {
    if (tailBytes <= tailBudget) return;
    const kept = tailOf(Buffer.from(tail.join(""), "utf8"), tailBudget);
    tail = kept.length > 0 ? [kept.toString("utf8")] : [];
    tailBytes = kept.length;
  };

  const pushTail = (text: string, bytes: number): void => {
    if (bytes === 0) return;
    tail.push(text);
    tailBytes += bytes;
    if (tailBytes > 2 * tailBudget + 4096) trimTail();
  };

  return {
    append: (text) => {
      const bytes = Buffer.byteLength(text, "utf8");
      total += bytes;
      const room = headBudget - headBytes;
      if (room <= 0) return pushTail(text, bytes);
      if (bytes <= room) {
        head += text;
        headBytes += bytes;
        return;
      }
      const buffer = Buffer.from(text, "utf8");
      const taken = headOf(buffer, room);
      head += taken.toString("utf8");
      headBytes += taken.length;
      headBytes = headBudget; // what did not fit (part of a character at most) no longer goes to the head
      const rest = buffer.subarray(taken.length);
      pushTail(rest.toString("utf8"), rest.length);
    },
    text: () => {
      trimTail();
      const headLength = Buffer.byteLength(head, "utf8");
      const kept = tail.join("");
      const cut = total - headLength - tailBytes;
      return cut > 0 ? `${head}${cutMarker(cut)}${kept}` : `${head}${kept}`;
    },
    clear: () => {
      head = "";
      headBytes = 0;
      tail = [];
      tailBytes = 0;
      total = 0;
    },
  };
};
