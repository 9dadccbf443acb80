/** The part of a tree-sitter node the walk reads (web-tree-sitter's `Node`), so the walk is tested on plain values. */
export type SyntaxNode = {
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly children: readonly (SyntaxNode | null)[];
  readonly namedChildren: readonly (SyntaxNode | null)[];
  childForFieldName(name: string): SyntaxNode | null;
};
