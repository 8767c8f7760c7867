// Every bound and default of the model layer, in one place. Each configurable value has a named
// default and a named range; values outside the range are refused with an error naming the limit.

/** Per-call timeout: the whole of a `generate` call, or the longest silence inside a `stream`. */
export const DEFAULT_TIMEOUT_MS = 120_000;
export const MIN_TIMEOUT_MS = 1;
export const MAX_TIMEOUT_MS = 600_000;

/** Retries after the first attempt, for 408/409/429/5xx, network errors and timeouts. */
export const DEFAULT_MAX_RETRIES = 2;
export const MAX_RETRIES_LIMIT = 10;

/** Wait before the first retry; each later wait is multiplied by the factor, up to the cap. */
export const DEFAULT_BACKOFF_INITIAL_MS = 500;
export const DEFAULT_BACKOFF_FACTOR = 2;
/** Cap on one wait, also applied to a server's `Retry-After` so one 429 cannot stall a turn for long. */
export const DEFAULT_BACKOFF_MAX_MS = 8_000;
export const MAX_BACKOFF_MS = 60_000;

/** A scripted-model file (`--llm-script`) larger than this is refused before parsing. */
export const MAX_SCRIPT_FILE_BYTES = 4 * 1024 * 1024;
/** Responses per role in one script. */
export const MAX_SCRIPT_ENTRIES_PER_ROLE = 10_000;

/** The config file (`mnesos.config.yaml`) larger than this is refused before parsing. */
export const MAX_CONFIG_FILE_BYTES = 64 * 1024;

/** Tool names as the OpenAI, Anthropic and Gemini APIs all accept them. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** One server-sent event of a model stream (a line being read plus the event's data so far). */
export const MAX_SSE_EVENT_CHARS = 1024 * 1024;
/** A whole model response body (non-streamed) or a whole streamed answer (text plus tool arguments). */
export const MAX_RESPONSE_CHARS = 8 * 1024 * 1024;
/** Tool calls in one model response; more is a broken or hostile server. */
export const MAX_TOOL_CALLS_PER_RESPONSE = 256;
