/**
 * "Did you mean": the known name closest to a mistyped one (`model.baseUrl` → `baseURL`), by a
 * case-blind match first, then the edit distance, within a third of the name's length (at least 1).
 */

/**
 * The edit distance between `a` and `b`: Levenshtein's (insertions, deletions, substitutions) with a
 * swap of two neighbouring letters counting as one edit too (`modle` → `model`), as typos go.
 */
export const editDistance = (a: string, b: string): number => {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i]!;
      const above = rows[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
};

/** The name of `known` that `typed` most likely meant, or undefined when none is close. */
export const closestName = (typed: string, known: readonly string[]): string | undefined => {
  const lower = typed.toLowerCase();
  const sameLetters = known.find((name) => name.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
};
