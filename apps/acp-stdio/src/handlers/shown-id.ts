/** An id from the editor as a log line may show it: quoted (no fake `[acp]` line), at most 80 characters. */
export const shownId = (id: unknown): string => {
  const text = typeof id === "string" ? id : (JSON.stringify(id) ?? String(id));
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
};
