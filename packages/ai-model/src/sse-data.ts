/**
 * The `data` of each server-sent event in a byte stream, as the AI SDK's parser (eventsource-parser)
 * reads it: lines end at LF, CR or CRLF; `data:` lines (one leading space dropped) join with LF; a
 * blank line dispatches an event that had data; other fields and comments are skipped; a BOM at the
 * very start is dropped; an event still open when the stream ends is not dispatched. Text is decoded
 * as UTF-8 across chunk boundaries (bad bytes become U+FFFD, as `TextDecoderStream` does).
 */

const LF = 10;
const CR = 13;

/** Feeds bytes, gets the data of the events they completed. */
export type SseData = { readonly push: (bytes: Uint8Array) => string[] };

/** `data:` at `start` (the field name is case-sensitive). */
const isData = (text: string, start: number): boolean =>
  text.charCodeAt(start) === 100 && text.startsWith("data:", start);

/** A reader of one event stream (see the module comment). */
export const sseData = (): SseData => {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
  /** The start of a line not ended yet: the text already scanned, and the chunks after it, not scanned (no line end in them). */
  let rest = "";
  let unscanned: string[] = [];
  /** The data lines of the event being read (joined with LF), and how many. */
  let data = "";
  let lines = 0;

  const line = (text: string, start: number, end: number, out: string[]): void => {
    if (start === end) {
      if (lines > 0) out.push(data);
      data = "";
      lines = 0;
      return;
    }
    if (isData(text, start)) {
      const from = text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
      const value = text.slice(from, end);
      data = lines === 0 ? value : `${data}\n${value}`;
      lines++;
      return;
    }
    // `data` without a colon is a data field with an empty value; anything else is not ours.
    if (end - start === 4 && text.startsWith("data", start)) {
      data = lines === 0 ? "" : `${data}\n`;
      lines++;
    }
  };

  const push = (bytes: Uint8Array): string[] => {
    const decoded = decoder.decode(bytes, { stream: true });
    // A chunk in the middle of a long line (a big tool call in one event) is only kept: joining and
    // scanning the whole line again at every chunk would cost its length squared.
    if (decoded.indexOf("\n") === -1 && decoded.indexOf("\r") === -1 && !rest.endsWith("\r")) {
      if (decoded !== "") unscanned.push(decoded);
      return [];
    }
    const head = unscanned.length === 0 ? rest : rest + unscanned.join("");
    unscanned = [];
    const text = head === "" ? decoded : head + decoded;
    const out: string[] = [];
    let start = 0;
    if (text.indexOf("\r") === -1) {
      for (let lf = text.indexOf("\n"); lf !== -1; lf = text.indexOf("\n", start)) {
        line(text, start, lf, out);
        start = lf + 1;
      }
    } else {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code !== LF && code !== CR) continue;
        // A CR last in the chunk may be the first half of a CRLF: wait for the next chunk.
        if (code === CR && i === text.length - 1) break;
        line(text, start, i, out);
        if (code === CR && text.charCodeAt(i + 1) === LF) i++;
        start = i + 1;
      }
    }
    rest = start === 0 ? text : text.slice(start);
    return out;
  };

  return { push };
};
