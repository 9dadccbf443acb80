/** Keeps a long text's head and tail within a byte budget, with a marker saying what was cut. */

const encoder = new TextEncoder();

export const truncateMiddle = (text: string, maxBytes: number): string => {
  const size = encoder.encode(text).length;
  if (size <= maxBytes) return text;
  const half = Math.floor(maxBytes / 2);
  const head = text.slice(0, half);
  const tail = text.slice(text.length - half);
  return `${head}\n[… ${size - 2 * half} bytes cut …]\n${tail}`;
};
