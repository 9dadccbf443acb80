/** Calls `onLine` with each complete line a child process writes (UTF-8 split across chunks kept whole). */
import type { Readable } from "node:stream";

export const onLines = (stream: Readable, onLine: (line: string) => void): void => {
  const decoder = new TextDecoder();
  let partial = "";
  stream.on("data", (chunk: Buffer) => {
    partial += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = partial.indexOf("\n")) !== -1) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      onLine(line);
    }
  });
};
