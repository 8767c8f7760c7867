// Every bound of lore retrieval, in one place. Each has a test at the limit and just past it.

/** Characters of one lore file. */
export const MAX_LORE_CHARS = 10_000_000;
/** Chunks (heading sections) in one lore file. */
export const MAX_LORE_CHUNKS = 50_000;

/** Queries in one `lore_lookup`. */
export const MAX_LORE_QUERIES = 16;
/** Characters of one query. */
export const MAX_LORE_QUERY_CHARS = 500;

/** Chunks taken per query. */
export const DEFAULT_LORE_K = 3;
export const MAX_LORE_K = 20;

/** Tokens (estimated) of the text a lookup returns, separators included. */
export const DEFAULT_LORE_TOKEN_BUDGET = 1_500;
export const MAX_LORE_TOKEN_BUDGET = 32_000;

/** Reciprocal-rank-fusion constant (the usual 60): how much the top ranks dominate the blend. */
export const RRF_K = 60;
/** Candidates taken from each ranking (BM25, cosine) before fusing. */
export const RRF_CANDIDATES = 50;
