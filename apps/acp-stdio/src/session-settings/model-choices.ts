/**
 * The models the "full" surface offers in its picker: the server's own list (`GET <baseURL>/models`,
 * asked once per process, with a short timeout), else `model.name` plus `model.choices` from the
 * configuration. Asked at `initialize`, so `session/new` rarely waits; it never waits more than
 * `waitMs` for it (the picker is then updated when the list arrives).
 */

/**
 * Where the list comes from: a function answering the server's ids (or its catalogue: the ids, and
 * those its entries say take a reasoning effort), or undefined on any failure.
 */
export type ModelLister = () => Promise<readonly string[] | { readonly ids: readonly string[]; readonly reasoning: readonly string[] } | undefined>;

export type ModelChoices = {
  /** Starts asking the server (once). */
  readonly warm: () => void;
  /** The list now, if the server answered or gave up; else the configured one and `pending: true`. */
  readonly now: (waitMs: number) => Promise<{ readonly models: readonly string[]; readonly pending: boolean }>;
  /** Settles with the final list. */
  readonly settled: () => Promise<readonly string[]>;
  /** The models the server's list says take a reasoning effort; empty until it answered, or when it did not say. */
  readonly reasoning: () => ReadonlySet<string>;
};

export const modelChoices = (lister: ModelLister | undefined, configured: readonly string[]): ModelChoices => {
  let asked: Promise<readonly string[]> | undefined;
  let reasoning: ReadonlySet<string> = new Set();
  const ask = (): Promise<readonly string[]> =>
    (asked ??= (lister?.() ?? Promise.resolve(undefined)).then(
      (listed) => {
        const ids = listed === undefined || !("ids" in listed) ? listed : listed.ids;
        if (listed !== undefined && "reasoning" in listed) reasoning = new Set(listed.reasoning);
        return ids !== undefined && ids.length > 0 ? ids : configured;
      },
      () => configured,
    ));
  let final: readonly string[] | undefined;
  return {
    warm: () => void ask().then((models) => (final = models)),
    now: async (waitMs) => {
      if (final !== undefined) return { models: final, pending: false };
      const timer = new Promise<undefined>((resolve) => {
        setTimeout(() => resolve(undefined), waitMs).unref?.();
      });
      const models = await Promise.race([ask(), timer]);
      if (models !== undefined) final = models;
      return models === undefined ? { models: configured, pending: true } : { models, pending: false };
    },
    settled: ask,
    reasoning: () => reasoning,
  };
};
