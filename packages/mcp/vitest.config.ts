import { defineConfig } from "vitest/config";
import { projectConfig } from "../../vitest.source.js";

export default defineConfig(projectConfig({ test: { name: "mcp", testTimeout: 20_000 } }));
