/**
 * The AI SDK's language model for each model id a step asks for, made on the first step (the SDK is
 * imported then, not at start-up):
 * - the Responses API: `@ai-sdk/openai`'s responses model;
 * - chat-completions on OpenAI's own endpoint: `@ai-sdk/openai`'s chat model, which knows OpenAI's
 *   own options (reasoning models' parameters, `developer` messages);
 * - chat-completions anywhere else: `@ai-sdk/openai-compatible`, which reads what other servers stream
 *   (`reasoning_content` / `reasoning`, content as an array of parts, tool calls without `index`,
 *   usage in a last chunk without choices) and fails a stream that ends without a finish reason.
 * Each is wrapped with `extractReasoningMiddleware` when a reasoning tag is set, so a local reasoning
 * model served without a reasoning parser (`<think>…</think>` in its text) shows its thinking as
 * reasoning. Requests go through the environment's proxy when one is set (proxy.ts); redirects are
 * followed within the server's origin only, and every answer is bounded (model-fetch.ts).
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { modelFetch } from "./model-fetch.js";
import { isOpenAIHost } from "./openai-host.js";
import type { ProxySettings } from "./proxy.js";
import { withStableReasoningIds } from "./stable-reasoning-ids.js";
import { timedFetch } from "./timed-fetch.js";

/** Where and how the models talk. */
export type ProviderSettings = {
  readonly api: "chat" | "responses";
  readonly baseURL: string;
  readonly apiKey: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** An embedder's own fetch; the global one (through the proxy when set) otherwise. */
  readonly fetch?: typeof fetch | undefined;
  readonly proxy?: ProxySettings | undefined;
  /** The tag whose contents at the start of a text are reasoning (`think`); empty: none. */
  readonly reasoningTag: string;
  readonly debug?: ((line: string) => void) | undefined;
};

/** The settings name the compatible provider keys its options and metadata by. */
export const COMPATIBLE_PROVIDER = "openaiCompatible";

/**
 * `send` with a string body (the SDK's JSON of the request) given as its UTF-8 bytes: a string body is
 * measured then encoded by fetch (two passes, the encoding through a TextEncoder), bytes are taken as
 * they are; with a long history the body is megabytes, on every step.
 */
const asBytes =
  (send: typeof fetch): typeof fetch =>
  (input, init) =>
    send(input, typeof init?.body === "string" ? { ...init, body: Buffer.from(init.body, "utf8") } : init);

/** The model of each id, made once (the SDK imported on the first call). Rejects only if the SDK cannot load. */
export const providerModels = (settings: ProviderSettings): ((id: string) => Promise<LanguageModelV3>) => {
  let made: Promise<(id: string) => LanguageModelV3> | undefined;
  const models = new Map<string, LanguageModelV3>();
  const load = async (): Promise<(id: string) => LanguageModelV3> => {
    const sdk = await import("./sdk.js");
    let send: typeof fetch = settings.fetch ?? asBytes(globalThis.fetch);
    if (settings.fetch === undefined && settings.proxy !== undefined) {
      const loaded = await import("undici");
      // undici is CommonJS: Node gives its exports by name and as `default`, an ES module bundle as `default` only.
      const undici = (loaded as unknown as { default?: typeof loaded }).default ?? loaded;
      const dispatcher = new undici.EnvHttpProxyAgent({ ...settings.proxy });
      // undici's fetch with its own dispatcher: Node's built-in fetch ignores the proxy variables.
      send = asBytes(((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
        undici.fetch(
          input as Parameters<typeof undici.fetch>[0],
          { ...(init as object), dispatcher } as Parameters<typeof undici.fetch>[1],
        )) as unknown as typeof fetch);
    }
    // Redirects within the server's origin only, every answer bounded (model-fetch.ts), an embedder's fetch too.
    send = modelFetch(send);
    if (settings.debug !== undefined) send = timedFetch(send, settings.debug);
    if (settings.api === "responses") send = withStableReasoningIds(send, sdk.EventSourceParserStream);
    const common = { apiKey: settings.apiKey, baseURL: settings.baseURL, fetch: send, ...(settings.headers ? { headers: { ...settings.headers } } : {}) };
    const make: (id: string) => LanguageModelV3 =
      settings.api === "responses"
        ? (
            (provider) => (id) =>
              provider.responses(id)
          )(sdk.createOpenAI(common))
        : isOpenAIHost(settings.baseURL)
          ? (
              (provider) => (id) =>
                provider.chat(id)
            )(sdk.createOpenAI(common))
          : (
              (provider) => (id) =>
                provider.chatModel(id)
            )(sdk.createOpenAICompatible({ ...common, name: COMPATIBLE_PROVIDER, includeUsage: true }));
    const wrap = (model: LanguageModelV3): LanguageModelV3 =>
      settings.reasoningTag === "" ? model : sdk.wrapLanguageModel({ model, middleware: sdk.extractReasoningMiddleware({ tagName: settings.reasoningTag }) });
    return (id) => {
      let model = models.get(id);
      if (model === undefined) {
        model = wrap(make(id));
        models.set(id, model);
      }
      return model;
    };
  };
  return async (id) => {
    made ??= load().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return (await made)(id);
  };
};
