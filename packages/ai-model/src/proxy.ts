/**
 * The proxy settings of an environment, as curl and most tools read them: `HTTPS_PROXY` /
 * `HTTP_PROXY` (either case, lower case first), and `NO_PROXY` for the hosts that go direct. Node's
 * own `fetch` ignores them; model requests go through undici's `EnvHttpProxyAgent` with these.
 * Loopback addresses always go direct: a model server on this machine (Ollama, LM Studio, vLLM) is
 * not behind the corporate proxy, and the proxy's own `localhost` is another machine.
 */

/** What undici's `EnvHttpProxyAgent` is given; undefined when no proxy is set at all. */
export type ProxySettings = { readonly httpProxy?: string; readonly httpsProxy?: string; readonly noProxy: string };

const LOOPBACK = ["localhost", "127.0.0.1", "::1", "[::1]"];

const pick = (env: Readonly<Record<string, string | undefined>>, name: string): string | undefined => {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
};

/** The proxy settings of `env`, or undefined when requests go direct. */
export const proxySettings = (env: Readonly<Record<string, string | undefined>>): ProxySettings | undefined => {
  const httpProxy = pick(env, "http_proxy");
  const httpsProxy = pick(env, "https_proxy") ?? httpProxy;
  if (httpProxy === undefined && httpsProxy === undefined) return undefined;
  const noProxy = [pick(env, "no_proxy"), ...LOOPBACK].filter((entry) => entry !== undefined).join(",");
  return { ...(httpProxy !== undefined ? { httpProxy } : {}), ...(httpsProxy !== undefined ? { httpsProxy } : {}), noProxy };
};

/** The proxy a request to `url` goes through under `settings`, for the banner and the debug log. */
export const describeProxy = (settings: ProxySettings | undefined, url: string): string | undefined => {
  if (settings === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const host = target.hostname.toLowerCase();
  const direct = settings.noProxy.split(/[,\s]+/).some((raw) => {
    const entry = raw.trim().toLowerCase().replace(/:\d+$/, "");
    if (entry === "") return false;
    if (entry === "*") return true;
    const bare = entry.replace(/^\*?\./, "");
    return host === bare || host.endsWith(`.${bare}`);
  });
  if (direct) return undefined;
  const proxy = target.protocol === "https:" ? settings.httpsProxy : settings.httpProxy;
  if (proxy === undefined) return undefined;
  try {
    const parsed = new URL(proxy);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return proxy.replace(/\/\/[^@/]*@/, "//");
  }
};
