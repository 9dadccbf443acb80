/**
 * A bash syntax tree (tree-sitter-bash) as the permission rules see it (`CommandShape` of @mm/core):
 * the simple commands with their words and redirections, and what can never ride on a rule. Only
 * the node types listed here are understood; any other construct (`if`, `for`, a function…) is named
 * in `opaque`, so a command holding one is asked about, never guessed at.
 */
import type { CommandShape, Redirect, SimpleCommand } from "@mm/core";
import type { SyntaxNode } from "./syntax-node.js";

/** Anywhere in the tree, these make a command opaque: they run commands the rules cannot see. */
const HIDDEN_COMMANDS: ReadonlyMap<string, string> = new Map([
  ["command_substitution", "a command substitution"],
  ["process_substitution", "a process substitution"],
  ["arithmetic_expansion", "an arithmetic expansion"],
]);

const children = (node: SyntaxNode): SyntaxNode[] => node.namedChildren.filter((c): c is SyntaxNode => c !== null);

/** A word's text and whether it is plain (no expansion, glob, brace or tilde for the shell to expand). */
type Word = { readonly text: string; readonly literal: boolean };

const unquoted = (text: string): string => text.replace(/\\(.)/gs, "$1");

const wordOf = (node: SyntaxNode): Word => {
  switch (node.type) {
    case "word": {
      const literal = !/(^~)|(^|[^\\])[*?[\]{}]/.test(node.text);
      return { text: unquoted(node.text.replace(/\\\n/g, "")), literal };
    }
    case "number":
      return { text: node.text, literal: true };
    case "raw_string":
      return { text: node.text.slice(1, -1), literal: true };
    case "string": {
      const parts = children(node);
      if (parts.every((p) => p.type === "string_content")) {
        return { text: node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, "$1"), literal: true };
      }
      return { text: node.text, literal: false };
    }
    case "concatenation": {
      const parts = children(node).map(wordOf);
      return { text: parts.map((p) => p.text).join(""), literal: parts.every((p) => p.literal) };
    }
    default:
      return { text: node.text, literal: false };
  }
};

const WORD_TYPES = new Set([
  "word",
  "number",
  "raw_string",
  "string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "ansi_c_string",
  "translated_string",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "brace_expression",
]);

const operatorOf = (node: SyntaxNode): string =>
  node.children
    .filter((c): c is SyntaxNode => c !== null && !c.isNamed)
    .map((c) => c.type)
    .join("");

/** A redirection, or undefined for a descriptor copy (`2>&1`, `>&-`) and here-documents, which write nothing. */
const redirectOf = (node: SyntaxNode): Redirect | undefined => {
  if (node.type !== "file_redirect") return undefined;
  const op = operatorOf(node);
  const destination = node.childForFieldName("destination") ?? children(node).find((c) => c.type !== "file_descriptor") ?? null;
  if (destination === null) return undefined;
  const target = wordOf(destination);
  if ((op === ">&" || op === "<&") && (/^\d+-?$/.test(target.text) || target.text === "-")) return undefined;
  return { target: target.text, literal: target.literal, writes: op !== "<" };
};

const REDIRECT_TYPES = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);

const HEREDOC_PARTS = new Set(["heredoc_start", "heredoc_body", "heredoc_end"]);

/**
 * A redirection node's redirections into `own`; what else runs in it into `tails`. tree-sitter-bash
 * puts the rest of a here-document's first line inside its redirect (`cat <<EOF > /etc/x`, `cat <<EOF
 * && rm -rf x`, `cat <<EOF | sh`): those redirections and commands count like any other.
 */
const collectRedirect = (node: SyntaxNode, own: Redirect[], tails: SyntaxNode[]): void => {
  if (node.type !== "heredoc_redirect") {
    const r = redirectOf(node);
    if (r !== undefined) own.push(r);
    return;
  }
  for (const child of children(node)) {
    if (HEREDOC_PARTS.has(child.type)) continue;
    if (REDIRECT_TYPES.has(child.type)) collectRedirect(child, own, tails);
    else tails.push(child);
  }
};

type Walk = { readonly commands: SimpleCommand[]; readonly opaque: Set<string> };

const walkCommand = (node: SyntaxNode, redirects: readonly Redirect[], into: Walk): void => {
  const words: Word[] = [];
  const own: Redirect[] = [...redirects];
  const tails: SyntaxNode[] = [];
  for (const child of children(node)) {
    if (child.type === "variable_assignment") into.opaque.add("a variable assignment");
    else if (child.type === "command_name") words.push(...children(child).map(wordOf));
    else if (REDIRECT_TYPES.has(child.type)) collectRedirect(child, own, tails);
    else if (WORD_TYPES.has(child.type)) words.push(wordOf(child));
    else into.opaque.add(`a ${child.type.replace(/_/g, " ")}`);
  }
  const firstNotLiteral = words.findIndex((w) => !w.literal);
  into.commands.push({ words: words.map((w) => w.text), literalWords: firstNotLiteral === -1 ? words.length : firstNotLiteral, redirects: own });
  for (const tail of tails) walk(tail, redirects, into);
};

const walk = (node: SyntaxNode, redirects: readonly Redirect[], into: Walk): void => {
  switch (node.type) {
    case "program":
    case "list":
    case "pipeline":
    case "subshell":
    case "compound_statement":
    case "negated_command":
      for (const child of children(node)) walk(child, redirects, into);
      return;
    case "redirected_statement": {
      const own: Redirect[] = [...redirects];
      const tails: SyntaxNode[] = [];
      for (const child of children(node)) {
        if (REDIRECT_TYPES.has(child.type)) collectRedirect(child, own, tails);
      }
      const body = node.childForFieldName("body");
      if (body !== null) walk(body, own, into);
      else if (own.length > 0) into.opaque.add("a redirection without a command");
      for (const tail of tails) walk(tail, redirects, into);
      return;
    }
    case "command":
      walkCommand(node, redirects, into);
      return;
    case "comment":
      return;
    case "variable_assignment":
    case "variable_assignments":
      into.opaque.add("a variable assignment");
      return;
    default:
      into.opaque.add(`a ${node.type.replace(/_/g, " ")}`);
  }
};

const scanHidden = (node: SyntaxNode, into: Set<string>): void => {
  const named = HIDDEN_COMMANDS.get(node.type);
  if (named !== undefined) into.add(named);
  for (const child of children(node)) scanHidden(child, into);
};

/** The shape of a parsed tree whose root has no error. */
export const shapeOfTree = (root: SyntaxNode): CommandShape => {
  const into: Walk = { commands: [], opaque: new Set() };
  scanHidden(root, into.opaque);
  walk(root, [], into);
  return { parsed: true, commands: into.commands, opaque: [...into.opaque] };
};
