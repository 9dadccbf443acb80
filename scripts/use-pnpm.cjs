// mm's workspace installs with pnpm alone. npm runs this as the root's preinstall (it stops before
// anything is built; the package-lock.json it still writes is in .gitignore: `package-lock=false` in
// .npmrc would stop it, but pnpm reads that setting too and then refuses its own lockfile); yarn 1
// (.yarnrc's yarn-path) and yarn 2+ (.yarnrc.yml's yarnPath) run it in place of themselves, so they
// leave no yarn.lock, .yarn/ or .pnp.* behind.
if (!(process.env.npm_config_user_agent || "").startsWith("pnpm/")) {
  console.error("mm installs with pnpm: run 'corepack pnpm install' (npm and yarn cannot install this workspace).");
  process.exit(1);
}
