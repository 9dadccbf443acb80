export { ALWAYS_ASKED, alwaysAsked, movedBy, outside, type Place, UNKNOWN_DIR } from "./always-ask.js";
export type { CommandParser, CommandShape, Redirect, SimpleCommand } from "./command-shape.js";
export { matchesRule, programName, ruleFor, ruleText, ruleWords, RUNS_OTHER_COMMANDS, runsOtherCommand } from "./command-rule.js";
export { EDITS_RULE, READS_RULE, screenCommand, screenFile, screenTool, TOOL_RULE_PREFIX, type PermissionRules, type Screened } from "./screen-call.js";
