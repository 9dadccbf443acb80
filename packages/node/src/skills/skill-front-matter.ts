/**
 * The YAML front matter of a `SKILL.md`, read just far enough for a catalogue: top-level `key: value`
 * lines with plain, single- or double-quoted values, `|` / `>` block scalars and indented continuation
 * lines. Nested mappings and lists (`metadata:`, `allowed-tools:`) are accepted and come out as text.
 */
import { err, ok, type Result } from "neverthrow";

/** The front matter block (between the opening and closing `---` lines) and the Markdown after it. */
export type FrontMatterSplit = { readonly frontMatter: string; readonly body: string };

const FENCE = /^---[ \t]*$/;
const CLOSING = /^(---|\.\.\.)[ \t]*$/;

/** Splits `source` at its front matter; undefined when it does not start with a `---` line closed by another. */
export const splitFrontMatter = (source: string): FrontMatterSplit | undefined => {
  const lines = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? "")) return undefined;
  const end = lines.findIndex((line, i) => i > 0 && CLOSING.test(line));
  if (end < 0) return undefined;
  const body = lines
    .slice(end + 1)
    .join("\n")
    .replace(/^(?:[ \t]*\n)+/, "");
  return { frontMatter: lines.slice(1, end).join("\n"), body };
};

const KEY_LINE = /^([^\s#:'"][^:]*?)[ \t]*:(?:[ \t]+(.*))?$/;
const BLOCK_HEADER = /^([|>])([1-9]?)([+-]?)([1-9]?)[ \t]*(?:#.*)?$/;
const ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

const indentOf = (line: string): number => line.length - line.trimStart().length;
const isBlank = (line: string): boolean => line.trim() === "";

/** Plain and quoted multi-line scalars: line breaks fold into spaces, blank lines into newlines. */
const foldFlow = (lines: readonly string[]): string => {
  let out = "";
  let blanks = 0;
  for (const line of lines.map((l) => l.trim())) {
    if (line === "") {
      blanks++;
      continue;
    }
    out += out === "" ? line : blanks > 0 ? "\n".repeat(blanks) + line : ` ${line}`;
    blanks = 0;
  }
  return out;
};

const doubleQuoted = (text: string): Result<string, string> => {
  let out = "";
  for (let i = 1; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c === '"') return /^\s*(#.*)?$/.test(text.slice(i + 1)) ? ok(out) : err("text after a closing quote");
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = text[i + 1] ?? "";
    const hex = HEX_LENGTH[e];
    if (hex !== undefined) {
      const digits = text.slice(i + 2, i + 2 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) return err(`bad \\${e} escape`);
      out += String.fromCodePoint(Number.parseInt(digits, 16));
      i += 1 + hex;
    } else if (ESCAPES[e] !== undefined) {
      out += ESCAPES[e];
      i += 1;
    } else return err(`unknown escape \\${e}`);
  }
  return err("unterminated double-quoted value");
};

const singleQuoted = (text: string): Result<string, string> => {
  const match = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(text);
  return match === null ? err("unterminated single-quoted value") : ok((match[1] ?? "").replaceAll("''", "'"));
};

const blockScalar = (style: string, chomp: string, explicitIndent: number, lines: readonly string[]): string => {
  const last = lines.reduce((at, line, i) => (isBlank(line) ? at : i), -1);
  const firstText = lines.find((line) => !isBlank(line)) ?? "";
  const indent = explicitIndent > 0 ? explicitIndent : indentOf(firstText);
  const content = lines.slice(0, last + 1).map((line) => line.slice(Math.min(indent, indentOf(line))));
  const trailing = lines.length - 1 - last;
  return chomped(style === "|" ? content.join("\n") : foldBlock(content), chomp, last < 0 ? -1 : trailing);
};

const isMoreIndented = (line: string): boolean => line.startsWith(" ") || line.startsWith("\t");

/** `>` scalars: a break between two plain lines is a space, blank lines are newlines, more-indented lines keep their breaks. */
const foldBlock = (content: readonly string[]): string => {
  let text = "";
  let blanks = 0;
  let previous: string | undefined;
  for (const line of content) {
    if (isBlank(line)) {
      blanks++;
      continue;
    }
    if (previous === undefined) text = "\n".repeat(blanks) + line;
    else if (isMoreIndented(line) || isMoreIndented(previous)) text += "\n".repeat(blanks + 1) + line;
    else text += blanks > 0 ? "\n".repeat(blanks) + line : ` ${line}`;
    previous = line;
    blanks = 0;
  }
  return text;
};

/** Block scalar chomping: `-` strips the final break, clip keeps one, `+` keeps every trailing blank line. */
const chomped = (text: string, chomp: string, trailingBlanks: number): string => {
  if (trailingBlanks < 0 || chomp === "-") return text;
  return chomp === "+" ? `${text}\n${"\n".repeat(trailingBlanks)}` : `${text}\n`;
};

const scalarValue = (rest: string, continuation: readonly string[]): Result<string, string> => {
  const header = BLOCK_HEADER.exec(rest);
  if (header !== null) {
    const [, style = "|", indentA = "", chomp = "", indentB = ""] = header;
    return ok(blockScalar(style, chomp, Number(indentA || indentB || 0), continuation));
  }
  if (rest.startsWith('"')) return doubleQuoted(foldFlow([rest, ...continuation]));
  if (rest.startsWith("'")) return singleQuoted(foldFlow([rest, ...continuation]));
  return ok(foldFlow([rest, ...continuation].map((line) => line.replace(/(^|[ \t])#.*$/, ""))));
};

/** The top-level keys of a front matter and their values as text; fails on a line that is not `key: value`. */
export const parseFrontMatter = (frontMatter: string): Result<ReadonlyMap<string, string>, string> => {
  const lines = frontMatter.split("\n");
  const fields = new Map<string, string>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const lineNumber = i + 2;
    i++;
    if (isBlank(line) || line.startsWith("#")) continue;
    const match = indentOf(line) === 0 ? KEY_LINE.exec(line) : null;
    if (match === null) return err(`SKILL.md line ${lineNumber}: expected "key: value" in the front matter`);
    const start = i;
    while (i < lines.length && (isBlank(lines[i] ?? "") || indentOf(lines[i] ?? "") > 0)) i++;
    const value = scalarValue((match[2] ?? "").trim(), lines.slice(start, i));
    if (value.isErr()) return err(`SKILL.md line ${lineNumber}: ${value.error}`);
    fields.set((match[1] ?? "").trim(), value.value);
  }
  return ok(fields);
};
