/** Pure POSIX path arithmetic, so the core resolves tool paths without `node:path`. */

/** Collapses `.`, `..` and repeated slashes of an absolute path. */
export const normalizeAbsolute = (path: string): string => {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
};

/**
 * The absolute path a tool argument names: absolute as is, `~` and `~/x` under `home`, anything
 * else relative to `cwd`.
 */
export const resolvePath = (cwd: string, path: string, home?: string): string => {
  if (path.startsWith("/")) return normalizeAbsolute(path);
  if (home !== undefined && (path === "~" || path.startsWith("~/"))) {
    return normalizeAbsolute(`${home}/${path.slice(1)}`);
  }
  return normalizeAbsolute(`${cwd}/${path}`);
};

/** True when `path` is `dir` itself or lies under it (both absolute and normalised). */
export const isInside = (dir: string, path: string): boolean => path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
