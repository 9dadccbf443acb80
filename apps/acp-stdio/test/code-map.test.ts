/**
 * `docs/code-map.md` cannot rot: every backticked path in it names a file of the repository, and every
 * backticked name right after a path (nothing but white space between them) is defined in that file
 * (a `const`, `function`, `type`, `interface` or `class` of that name, or a name it re-exports).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "../../..");
const MAP = "docs/code-map.md";

/** A path of the repository, as the map writes it. */
const PATH = /^[\w.-]+(?:\/[\w.-]+)+\.(?:ts|mjs|cjs|md|json)$/;
const NAME = /^[A-Za-z_$][\w$]*$/;

export type Claim = { readonly path: string; readonly names: readonly string[] };

/** The map's claims: each backticked path with the backticked names that follow it. */
export const claimsOf = (markdown: string): Claim[] => {
  const claims: { path: string; names: string[] }[] = [];
  let last: { path: string; names: string[] } | undefined;
  let end = 0;
  for (const match of markdown.matchAll(/`([^`\n]+)`/g)) {
    const token = match[1]!;
    const adjacent = /^\s*$/.test(markdown.slice(end, match.index));
    end = match.index + match[0].length;
    if (PATH.test(token)) {
      last = { path: token, names: [] };
      claims.push(last);
    } else if (NAME.test(token) && adjacent && last !== undefined) last.names.push(token);
    else last = undefined;
  }
  return claims;
};

const escaped = (name: string): string => name.replace(/\$/g, "\\$");

/** Whether `source` defines `name` (or re-exports it). */
export const defines = (source: string, name: string): boolean =>
  new RegExp(`\\b(?:const|let|var|function\\*?|type|interface|class|enum)\\s+${escaped(name)}\\b`).test(source) ||
  new RegExp(`export\\s+(?:type\\s+)?\\{[^}]*\\b${escaped(name)}\\b[^}]*\\}`).test(source);

/** What the map claims that the repository does not hold, one line each. */
export const staleClaims = (claims: readonly Claim[], read: (path: string) => string | undefined): string[] =>
  claims.flatMap(({ path, names }) => {
    const source = read(path);
    if (source === undefined) return [`${path}: no such file`];
    return names.filter((name) => !defines(source, name)).map((name) => `${path}: no ${name}`);
  });

const readRepo = (path: string): string | undefined => (existsSync(join(REPO, path)) ? readFileSync(join(REPO, path), "utf8") : undefined);

describe("docs/code-map.md", () => {
  const claims = claimsOf(readFileSync(join(REPO, MAP), "utf8"));

  it("names files and functions", () => {
    expect(claims.length).toBeGreaterThan(50);
    expect(claims.flatMap((claim) => claim.names).length).toBeGreaterThan(50);
  });

  it("names only files that exist and names they define", () => {
    expect(staleClaims(claims, readRepo)).toEqual([]);
  });

  it("catches a renamed function and a moved file", () => {
    const claims = claimsOf("The turn: `src/run.ts` `runTurn` `TurnEvent`; a step (one `doStream`), `src/gone.ts`.\n`src/run.ts`\n  `loop`");
    expect(claims).toEqual([
      { path: "src/run.ts", names: ["runTurn", "TurnEvent"] },
      { path: "src/gone.ts", names: [] },
      { path: "src/run.ts", names: ["loop"] },
    ]);
    const files: Record<string, string> = {
      "src/run.ts": "export const runTurns = () => loop();\nexport type { TurnEvent } from './events.js';\nfunction loop() {}",
    };
    expect(staleClaims(claims, (path) => files[path])).toEqual(["src/run.ts: no runTurn", "src/gone.ts: no such file"]);
  });
});
