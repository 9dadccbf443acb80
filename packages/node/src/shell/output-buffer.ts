/**
 * A bounded byte sink for command output: keeps the first half of the budget and a ring of the
 * last half, so memory stays fixed however much is written; renders head, cut marker and tail.
 */

/** Collects bytes within a fixed budget. */
export type OutputBuffer = {
  /** Appends bytes; beyond the budget only the head and the latest tail are kept. */
  readonly push: (chunk: Uint8Array) => void;
  /** Bytes pushed so far, kept or not. */
  readonly totalBytes: () => number;
  /** UTF-8 text: everything when within budget, else head + `\n[… N bytes cut …]\n` + tail. */
  readonly text: () => string;
};

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;

const sequenceLength = (lead: number): number => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);

/** `bytes` without a multibyte character cut short at its end. */
export const dropPartialEnd = (bytes: Buffer): Buffer => {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if (isContinuation(byte)) continue;
    return byte >= 0xc0 && sequenceLength(byte) > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
};

/** `bytes` without the continuation bytes of a character whose start was cut off. */
export const dropPartialStart = (bytes: Buffer): Buffer => {
  let start = 0;
  while (start < Math.min(3, bytes.length) && isContinuation(bytes[start] ?? 0)) start += 1;
  return bytes.subarray(start);
};

/** The marker put where output was cut. */
export const cutMarker = (bytes: number): string => `\n[… ${bytes} bytes cut …]\n`;

/** A buffer keeping at most `maxBytes` of output (half head, half tail). */
export const boundedOutput = (maxBytes: number): OutputBuffer => {
  const headCapacity = Math.max(0, Math.floor(maxBytes / 2));
  const tailCapacity = Math.max(0, Math.floor(maxBytes) - headCapacity);
  const head: Buffer[] = [];
  let headLength = 0;
  let ring: Buffer | null = null;
  let ringStart = 0;
  let ringLength = 0;
  let total = 0;

  const pushTail = (bytes: Uint8Array): void => {
    if (tailCapacity === 0 || bytes.length === 0) return;
    ring ??= Buffer.allocUnsafe(tailCapacity);
    const kept = bytes.length > tailCapacity ? bytes.subarray(bytes.length - tailCapacity) : bytes;
    let writeAt = (ringStart + ringLength) % tailCapacity;
    const first = Math.min(kept.length, tailCapacity - writeAt);
    ring.set(kept.subarray(0, first), writeAt);
    ring.set(kept.subarray(first), 0);
    writeAt = (writeAt + kept.length) % tailCapacity;
    const overflow = Math.max(0, ringLength + kept.length - tailCapacity);
    ringLength = Math.min(tailCapacity, ringLength + kept.length);
    ringStart = overflow > 0 ? writeAt : ringStart;
  };

  const tailBytes = (): Buffer => {
    if (ring === null) return Buffer.alloc(0);
    if (ringStart + ringLength <= tailCapacity) return ring.subarray(ringStart, ringStart + ringLength);
    return Buffer.concat([ring.subarray(ringStart), ring.subarray(0, (ringStart + ringLength) % tailCapacity)]);
  };

  return {
    push: (chunk) => {
      total += chunk.length;
      const room = headCapacity - headLength;
      if (room > 0) {
        const taken = chunk.subarray(0, room);
        head.push(Buffer.from(taken));
        headLength += taken.length;
        pushTail(chunk.subarray(taken.length));
      } else {
        pushTail(chunk);
      }
    },
    totalBytes: () => total,
    text: () => {
      const headBuffer = Buffer.concat(head, headLength);
      const tailBuffer = tailBytes();
      if (total <= headLength + tailBuffer.length) return Buffer.concat([headBuffer, tailBuffer]).toString("utf8");
      const keptHead = dropPartialEnd(headBuffer);
      const keptTail = dropPartialStart(tailBuffer);
      const cut = total - keptHead.length - keptTail.length;
      return `${keptHead.toString("utf8")}${cutMarker(cut)}${keptTail.toString("utf8")}`;
    },
  };
};
