/** The FileSystem port on Node's `fs`: regular files only, opened without blocking; fs errors as values. */
export { nodeFileSystem, DEFAULT_MAX_READ_BYTES, type NodeFileSystemOptions } from "./node-file-system.js";
export { fsErrorOf, type FsOperation } from "./fs-error.js";
