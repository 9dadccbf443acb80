/**
 * How every request to the model server is sent (a step, `GET /models` at start-up and in the setup):
 * - redirects are followed only within the server's origin (scheme, host and port), at most
 *   {@link MAX_REDIRECTS}, and only when they keep the method (any for a GET; 307 and 308 for a POST:
 *   a 301/302/303 would turn the request into a GET without its body), to an address without a user
 *   or password. Any other redirect fails the
 *   request with {@link RedirectRefused}, naming where it pointed; the key and the configured headers
 *   never go to another origin.
 * - every answer's body is bounded (@mm/core's `boundedFetch`): one event of an event stream, a whole
 *   answer otherwise; past it the read fails with `AnswerTooLarge`, never retried.
 */
import { boundedFetch } from "@mm/core";

/** The most redirects followed for one request. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A redirect not followed; `to` is where it pointed (without credentials, query or fragment). */
export class RedirectRefused extends Error {
  override readonly name = "RedirectRefused";
  constructor(
    readonly status: number,
    readonly to: string,
    readonly why: "other-origin" | "credentials" | "method" | "too-many",
  ) {
    super(
      why === "other-origin"
        ? `redirected (${status}) to ${to}, another origin: not followed, so the key goes nowhere else`
        : why === "credentials"
          ? `redirected (${status}) to ${to} with a user and password in the address: not followed`
          : why === "method"
            ? `redirected (${status}) to ${to} in a way that would turn the request into a GET: not followed`
            : `redirected more than ${MAX_REDIRECTS} times (last to ${to}): not followed`,
    );
  }
}

const urlOf = (input: Parameters<typeof fetch>[0]): string => (typeof input === "string" ? input : input instanceof URL ? input.href : input.url);

/** `url` as shown: no credentials, query or fragment (where a token may sit). */
const shown = (url: URL): string => {
  const copy = new URL(url.href);
  copy.username = copy.password = copy.search = copy.hash = "";
  return copy.href;
};

/** `inner` following only same-origin redirects that keep the method (see the module comment). */
export const sameOriginRedirects =
  (inner: typeof fetch): typeof fetch =>
  async (input, init) => {
    const method = (init?.method ?? (typeof input === "object" && !(input instanceof URL) ? input.method : "GET")).toUpperCase();
    let current = urlOf(input);
    for (let followed = 0; ; followed++) {
      const response = await inner(followed === 0 ? input : current, { ...init, redirect: "manual" });
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null;
      if (location === null) return response;
      let target: URL;
      try {
        target = new URL(location, current);
      } catch {
        // A Location that is no URL: the answer as it is (an error status to the caller).
        return response;
      }
      await response.body?.cancel().catch(() => undefined);
      const keepsMethod = method === "GET" || method === "HEAD" || response.status === 307 || response.status === 308;
      if (target.origin === "null" || target.origin !== new URL(current).origin) throw new RedirectRefused(response.status, shown(target), "other-origin");
      // A request cannot be made to such an address; refused here, it is named as shown (no credentials).
      if (target.username !== "" || target.password !== "") throw new RedirectRefused(response.status, shown(target), "credentials");
      if (!keepsMethod) throw new RedirectRefused(response.status, shown(target), "method");
      if (followed === MAX_REDIRECTS) throw new RedirectRefused(response.status, shown(target), "too-many");
      current = target.href;
    }
  };

/** `inner` as every model-server request is sent: same-origin redirects, bounded answers (`whole`: each read whole, as `GET /models`). */
export const modelFetch = (inner: typeof fetch, reads: { readonly whole?: boolean } = {}): typeof fetch =>
  boundedFetch(sameOriginRedirects(inner), reads.whole === true ? { whole: true } : {});
