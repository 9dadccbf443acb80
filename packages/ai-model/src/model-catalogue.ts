/**
 * The models an OpenAI-compatible server offers (`GET <baseURL>/models`), for a model picker: asked
 * once, with a short timeout and a bounded answer (model-fetch.ts); any failure (no such route, a
 * refusal, a slow server, a body of another shape or too large) is a one-line reason, and the caller
 * falls back on its configured names.
 */
import { answerTooLargeIn } from "@mm/core";
import { errAsync, ResultAsync } from "neverthrow";
import { modelFetch } from "./model-fetch.js";

export type ModelCatalogueOptions = {
  readonly baseURL: string;
  readonly apiKey?: string | undefined;
  /** How long to wait for the answer; 1,500 ms by default. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
};

const DEFAULT_TIMEOUT_MS = 1500;

/**
 * What the server's list says: its model ids, sorted, and those whose entry says they take a reasoning
 * effort (`supported_parameters` holding `reasoning` or `reasoning_effort`, as OpenRouter's list does).
 */
export type ModelCatalogue = { readonly ids: readonly string[]; readonly reasoning: readonly string[] };

type Entry = { readonly id?: unknown; readonly supported_parameters?: unknown };

const REASONING_PARAMETERS: readonly string[] = ["reasoning", "reasoning_effort"];

const takesReasoning = (entry: Entry): boolean =>
  Array.isArray(entry.supported_parameters) && entry.supported_parameters.some((p) => typeof p === "string" && REASONING_PARAMETERS.includes(p));

/** The model ids the server lists, sorted; never throws. */
export const listModelIds = (options: ModelCatalogueOptions): ResultAsync<readonly string[], string> => listModelCatalogue(options).map((c) => c.ids);

/** The server's model list (see {@link ModelCatalogue}); never throws. */
export const listModelCatalogue = (options: ModelCatalogueOptions): ResultAsync<ModelCatalogue, string> => {
  let url: string;
  try {
    url = new URL(`${options.baseURL.replace(/\/+$/, "")}/models`).toString();
  } catch {
    return errAsync(`not a URL: ${options.baseURL}`);
  }
  // Same-origin redirects only, the answer bounded (model-fetch.ts): a flood stops at MAX_ANSWER_BYTES.
  const request = modelFetch(options.fetch ?? fetch, { whole: true })(url, {
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  }).then(async (response) => {
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const body: unknown = await response.json();
    const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
    if (!Array.isArray(data)) throw new Error("the answer holds no model list");
    const entries = data.flatMap((m: unknown): { id: string; entry: Entry }[] =>
      typeof m === "object" && m !== null && typeof (m as Entry).id === "string" ? [{ id: (m as { id: string }).id, entry: m as Entry }] : [],
    );
    const ids = [...new Set(entries.map((e) => e.id))].sort();
    const reasoning = [...new Set(entries.filter((e) => takesReasoning(e.entry)).map((e) => e.id))].sort();
    return { ids, reasoning };
  });
  return ResultAsync.fromPromise(request, (error) =>
    error instanceof Error && error.name === "TimeoutError"
      ? `no answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
      : answerTooLargeIn(error) !== undefined
        ? `the server ${answerTooLargeIn(error)!.message} to GET ${url}; stopped`
        : error instanceof Error
          ? error.message
          : String(error),
  );
};
