/**
 * Chat requests whose history goes out as kept bytes (chat-history-bytes.ts). The provider is given
 * the system prompt and, for the history, one user message holding a placeholder; the fetch it calls
 * finds that message in the body (the only place its pattern can be: inside JSON strings quotes are
 * escaped) and sends the body around it with the history's bytes in its place, without the history
 * ever being converted, serialised or encoded again. Every other request is sent as it is.
 */
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { fetchOn, ownRequest, type HttpSender } from "./node-http-fetch.js";

const OPEN = '{"role":"user","content":"';
const CLOSE = '"}';

/** The prompt the provider is given for a step whose history is `placeholder`. */
export const placeholderPrompt = (systemText: string, placeholder: string): LanguageModelV3Prompt => [
  ...(systemText !== "" ? [{ role: "system" as const, content: systemText }] : []),
  { role: "user", content: [{ type: "text", text: placeholder }] },
];

/** A fetch on `send` that splices held histories into their requests, and the way to hold one. */
export const historySplice = (send: HttpSender) => {
  const token = `mm-history-${Math.random().toString(36).slice(2, 10)}`;
  const held = new Map<string, Uint8Array>();
  let count = 0;
  const plain = fetchOn(send);

  const splicing = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const own = ownRequest(input, init);
    const body = own?.body;
    const at = body?.indexOf(OPEN + token) ?? -1;
    if (own === undefined || body === undefined || at < 0) return plain(input, init);
    const end = body.indexOf(CLOSE, at + OPEN.length);
    const bytes = held.get(body.slice(at + OPEN.length, end));
    if (end < 0 || bytes === undefined) throw new Error("a model request's history placeholder names no held history");
    let head = body.slice(0, at);
    if (bytes.length === 0 && head.endsWith(",")) head = head.slice(0, -1);
    return send({ ...own, body: [Buffer.from(head, "utf8"), bytes, Buffer.from(body.slice(end + CLOSE.length), "utf8")] });
  }) as typeof globalThis.fetch;

  /** Holds `bytes` for the requests of one step: the placeholder to give the provider, and `done` to let it go. */
  const hold = (bytes: Uint8Array): { readonly placeholder: string; readonly done: () => void } => {
    const placeholder = `${token}-${++count}`;
    held.set(placeholder, bytes);
    return { placeholder, done: () => void held.delete(placeholder) };
  };

  return { fetch: splicing, hold };
};
