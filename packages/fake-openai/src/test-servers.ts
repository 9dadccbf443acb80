/**
 * Helpers for tests that start servers on 127.0.0.1: one kept per test and closed after it, and a
 * plain TCP listener standing for "something outside" (e.g. to check a sandbox blocks the network).
 */
import { createServer } from "node:net";
import { startFakeOpenAI, type FakeOpenAI } from "./server.js";

/** Starts a fake server per call and closes the last one on `close` (give it to `afterEach`). */
export const fakeServerKeeper = () => {
  let server: FakeOpenAI | undefined;
  return {
    start: async (...args: Parameters<typeof startFakeOpenAI>): Promise<FakeOpenAI> => {
      server = await startFakeOpenAI(...args);
      return server;
    },
    close: async (): Promise<void> => {
      await server?.close();
      server = undefined;
    },
  };
};

/** A TCP listener on 127.0.0.1 that answers every connection with `greeting`; `close` stops it. */
export const tcpGreeter = async (greeting: string): Promise<{ readonly port: number; readonly close: () => void }> => {
  const listener = createServer((socket) => socket.end(greeting));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return { port: (listener.address() as { port: number }).port, close: () => void listener.close() };
};
