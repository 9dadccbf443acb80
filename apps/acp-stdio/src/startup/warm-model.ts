/**
 * The model warmed up once the first session exists, in the idle time before the first prompt: one
 * step run through the model's request path (the chat API's own, or for the Responses API the AI
 * provider file, dist/cjs/ai-provider-*.cjs) and the HTTP client against a canned answer served in
 * this process (@mm/ai-model's `warmUp`), so the first turn does not compile them. The first real step stops a warm-up still running rather than wait for it.
 */
import type * as acp from "@agentclientprotocol/sdk";

const isSessionResult = (message: acp.AnyMessage): boolean => {
  const result = "result" in message ? (message.result as { sessionId?: unknown } | null | undefined) : undefined;
  return typeof result === "object" && result !== null && typeof result.sessionId === "string";
};

/**
 * Watches written messages; after the first response that names a session (`session/new`), calls
 * `load` once, on the next event-loop turn (after the response is flushed). A failure is left to the
 * first model step to meet again.
 */
export const warmAfterFirstSession = (load: () => Promise<unknown>): ((message: acp.AnyMessage) => void) => {
  let started = false;
  return (message) => {
    if (started || !isSessionResult(message)) return;
    started = true;
    setImmediate(() => void load().catch(() => undefined));
  };
};
