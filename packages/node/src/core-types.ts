/**
 * The @mm/core port types these adapters implement, re-exported from one place so every adapter
 * imports them the same way.
 */
export type {
  Clock,
  FileStat,
  FileSystem,
  FsError,
  RandomHex,
  Shell,
  ShellError,
  ShellRequest,
  ShellResult,
  SkillCatalogue,
  SkillContent,
  SkillError,
  SkillSummary,
} from "@mm/core";
