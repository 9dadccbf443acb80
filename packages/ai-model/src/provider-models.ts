/**
 * The AI SDK's language model for each model id a step asks for, made on the first step (the SDK is
 * imported then, not at start-up):
 * - the Responses API: `@ai-sdk/openai`'s responses model;
 * - chat-completions on OpenAI's own endpoint: `@ai-sdk/openai`'s chat model, which knows OpenAI's
 *   own options (reasoning models' parameters, `developer` messages);
 * - chat-completions on Moonshot's (api.moonshot.ai / .cn): `@ai-sdk/moonshotai` (imported then only),
 *   which reads Kimi's answers (usage inside the choice) and sends its reasoning back as Moonshot asks
 *   (ai-sdk-model.ts passes it);
 * - chat-completions anywhere else: `@ai-sdk/openai-compatible`, which reads what other servers stream
 *   (`reasoning_content` / `reasoning`, content as an array of parts, usage in a last chunk without
 *   choices) and fails a stream that ends without a finish reason;
 * - `model.provider` names one of these whatever the host (chat-provider.ts).
 * Chat-completions streams are mended first where those providers misread them (chat-stream-repairs.ts).
 * Each is wrapped with `extractReasoningMiddleware` when a reasoning tag is set, so a local reasoning
 * model served without a reasoning parser (`<think>…</think>` in its text) shows its thinking as
 * reasoning. Requests go through the environment's proxy when one is set (proxy.ts); redirects are
 * followed within the server's origin only, and every answer is bounded (model-fetch.ts).
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { chatProviderFor, type ChatProvider } from "./chat-provider.js";
import { modelFetch } from "./model-fetch.js";
import type { ProxySettings } from "./proxy.js";
import { withStableReasoningIds } from "./stable-reasoning-ids.js";
import { timedFetch } from "./timed-fetch.js";

/** Where and how the models talk. */
export type ProviderSettings = {
  readonly api: "chat" | "responses";
  readonly baseURL: string;
  readonly apiKey: string;
  /** Which provider speaks chat-completions (`auto`, the default: by the base URL's host). */
  readonly provider?: ChatProvider | undefined;
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

/** How the models of the provider `settings` name are made (Moonshot's imported only when it is that one). */
const maker = async (
  settings: ProviderSettings,
  common: { readonly apiKey: string; readonly baseURL: string; readonly fetch: typeof fetch; readonly headers?: Record<string, string> },
  sdk: typeof import("./sdk.js"),
): Promise<(id: string) => LanguageModelV3> => {
  if (settings.api === "responses") {
    const provider = sdk.createOpenAI(common);
    return (id) => provider.responses(id);
  }
  switch (chatProviderFor(settings.baseURL, settings.provider)) {
    case "openai": {
      const provider = sdk.createOpenAI(common);
      return (id) => provider.chat(id);
    }
    case "moonshotai": {
      const provider = (await import("./sdk-moonshot.js")).createMoonshotAI(common);
      return (id) => provider.chatModel(id);
    }
    case "openai-compatible": {
      const provider = sdk.createOpenAICompatible({ ...common, name: COMPATIBLE_PROVIDER, includeUsage: true });
      return (id) => provider.chatModel(id);
    }
  }
};

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
    else send = sdk.withChatStreamRepairs(send, settings.debug);
    const common = { apiKey: settings.apiKey, baseURL: settings.baseURL, fetch: send, ...(settings.headers ? { headers: { ...settings.headers } } : {}) };
    const make = await maker(settings, common, sdk);
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
