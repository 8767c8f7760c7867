// One base-URL policy for every layer: the operator's configuration (llm/config.ts), a principal's stored
// settings (session/model-settings.ts) and the settings form in the browser (web/lib/forms.ts, which
// bundles this file; it imports nothing). A base URL is where model requests go with an API key, so it
// must be an http(s) URL of bounded length; credentials inside it are allowed only in the operator's own
// configuration, never in anything stored for a user (they would sit in the database in clear text).

/** Characters of a base URL. */
export const MAX_BASE_URL_CHARS = 2_048;

export type BaseUrlProblem =
  | { readonly kind: 'too-long'; readonly message: string }
  | { readonly kind: 'not-a-url'; readonly message: string }
  | { readonly kind: 'not-http'; readonly message: string }
  | { readonly kind: 'credentials'; readonly message: string };

export interface BaseUrlRules {
  /** `user:password@` inside the URL: the operator's own configuration only. */
  readonly allowCredentials: boolean;
}

/** What is wrong with a base URL under the policy, or undefined when it is usable. */
export function baseUrlProblem(text: string, rules: BaseUrlRules): BaseUrlProblem | undefined {
  if (text.length > MAX_BASE_URL_CHARS) {
    return {
      kind: 'too-long',
      message: `must be at most ${MAX_BASE_URL_CHARS} characters (MAX_BASE_URL_CHARS)`,
    };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    // The URL constructor's one failure: a TypeError for text that is not a URL.
    if (!(error instanceof TypeError)) throw error;
    return { kind: 'not-a-url', message: 'is not a URL (expected something like http://localhost:11434/v1)' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      kind: 'not-http',
      message: `must be an http or https URL, not ${url.protocol} (only http and https are supported)`,
    };
  }
  if (!rules.allowCredentials && (url.username !== '' || url.password !== '')) {
    return {
      kind: 'credentials',
      message: 'must not contain a user name or password; keys stay in the server environment',
    };
  }
  return undefined;
}

/** The base URL as requests use it: without trailing slashes. */
export function normaliseBaseUrl(text: string): string {
  // A loop, not /\/+$/: that pattern retries from every slash of a long run (quadratic).
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
}
