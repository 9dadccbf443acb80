/**
 * Where a model step goes: the provider's models (`@ai-sdk/openai`, imported on the first step) on a
 * fetch, and the prompt the provider is given. For the chat API on our own HTTP client, the history is
 * written from bytes kept between steps (chat-history-bytes.ts) and spliced into the request in place
 * of a placeholder message (history-splice.ts); otherwise the prompt is converted whole
 * (to-provider-prompt.ts).
 */
import type { ModelRequest } from "@mm/core";
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { chatHistoryBytes, systemTextOf } from "./chat-history-bytes.js";
import { historySplice, placeholderPrompt } from "./history-splice.js";
import { fetchOn, type HttpSender } from "./node-http-fetch.js";
import { toProviderPrompt } from "./to-provider-prompt.js";

type ProviderModel = LanguageModelV3;
type ModelsOf = (id: string) => Promise<ProviderModel>;

/** The provider's models a step goes to, and how its history is written (kept bytes, for the chat API on our HTTP client). */
export type Route = {
  readonly modelsOf: ModelsOf;
  readonly kept?: { readonly history: ReturnType<typeof chatHistoryBytes>; readonly hold: ReturnType<typeof historySplice>["hold"] };
};

/** The server a route talks to, and how: a `fetch`, or our HTTP client's sender. */
export type RouteSettings = { readonly apiKey: string; readonly baseURL?: string | undefined } & ({ readonly fetch: typeof fetch } | { readonly send: HttpSender });

/** Routes for one API (and the extra headers of every request). */
export const providerRoutes = (options: { readonly api: "chat" | "responses"; readonly headers?: Readonly<Record<string, string>> | undefined }) => {
  /** The provider's model of each id asked for (a session may pick another than the default), on `fetch`. */
  const providerModels = (settings: { readonly apiKey: string; readonly baseURL?: string | undefined; readonly fetch: typeof fetch }): ModelsOf => {
    let created: Promise<(id: string) => ProviderModel> | undefined;
    const models = new Map<string, ProviderModel>();
    const load = async (): Promise<(id: string) => ProviderModel> => {
      const openai = await import("@ai-sdk/openai");
      const provider = openai.createOpenAI({
        apiKey: settings.apiKey,
        ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
        ...(options.headers ? { headers: { ...options.headers } } : {}),
        fetch: settings.fetch,
      });
      return (id) => {
        let model = models.get(id);
        if (model === undefined) {
          model = options.api === "chat" ? provider.chat(id) : provider.responses(id);
          models.set(id, model);
        }
        return model;
      };
    };
    return async (id) => {
      created ??= load().catch((error: unknown) => {
        created = undefined;
        throw error;
      });
      return (await created)(id);
    };
  };

  /** The route on `settings`: kept history bytes only for the chat API on our own HTTP client. */
  const routeOn = (settings: RouteSettings): Route => {
    const { apiKey, baseURL } = settings;
    if ("fetch" in settings) return { modelsOf: providerModels({ apiKey, baseURL, fetch: settings.fetch }) };
    if (options.api !== "chat") return { modelsOf: providerModels({ apiKey, baseURL, fetch: fetchOn(settings.send) }) };
    const splice = historySplice(settings.send);
    return { modelsOf: providerModels({ apiKey, baseURL, fetch: splice.fetch }), kept: { history: chatHistoryBytes(), hold: splice.hold } };
  };

  /** The provider's prompt of a step; with kept history bytes, a placeholder for them (held until `done`). */
  const promptOf = (route: Route, request: ModelRequest): { readonly prompt: LanguageModelV3Prompt; readonly done: () => void } => {
    if (route.kept === undefined) return { prompt: toProviderPrompt(request.system, request.messages, { imagesInToolResults: options.api === "responses" }), done: () => undefined };
    const history = route.kept.history.encode(request.messages);
    const held = route.kept.hold(history.bytes);
    return {
      prompt: placeholderPrompt(systemTextOf(request.system, request.messages), held.placeholder),
      done: () => {
        held.done();
        history.release();
      },
    };
  };

  return { routeOn, promptOf };
};
