/** Shared by this package's tests. */
import type { ModelEvent } from "@mm/core";

/** Every event a model stream yields, in order. */
export const collect = async (events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> => {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
};
