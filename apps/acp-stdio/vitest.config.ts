import { defineConfig } from "vitest/config";

export default defineConfig({ test: { name: "acp-stdio", testTimeout: 20_000 } });
