export { bashCommandParser } from "./bash-command-parser.js";
export { shapeOfTree } from "./shape-of-tree.js";
