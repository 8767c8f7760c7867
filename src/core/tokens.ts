// A provider-independent token estimate for prompt budgets: about four characters a token for English
// prose, which is what budget accounting needs (a bound, not an exact count).
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}
