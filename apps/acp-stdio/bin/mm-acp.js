#!/usr/bin/env node
// mm-acp: Bob, a bash-first coding agent, over ACP on stdio. Runs the bundle the build made
// (dist/mm-acp.js); Node's compile cache, where this Node has one (22.1 and later), keeps its compiled
// code between starts.
"use strict";
require("node:module").enableCompileCache?.();
import("../dist/mm-acp.js");
