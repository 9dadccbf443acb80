#!/usr/bin/env node
// mm-acp: Bob, a bash-first coding agent, over ACP on stdio. Loads the bundle the build made, with V8's
// code cache (see load-bundle.cjs), and starts it. CommonJS (bin/package.json): no ES module loader to
// start before the agent.
"use strict";
require("./load-bundle.cjs").loadBundle().start();
