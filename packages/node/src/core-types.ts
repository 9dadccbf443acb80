/**
 * The @mm/core port types these adapters implement, re-exported from one place so every adapter
 * imports them the same way.
 */
export type {
  FileStat,
  FileSystem,
  FsError,
  Shell,
  ShellError,
  ShellRequest,
  ShellResult,
  SkillCatalogue,
  SkillContent,
  SkillError,
  SkillSummary,
} from "@mm/core";
