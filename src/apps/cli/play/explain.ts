// `mnesos turn --explain`: the receipts of every prompt the turn assembled — each section with its tokens and
// why it is there (or why it was cut or dropped), and under it each piece (a lore section, a World Info
// entry, a fact, a thread, a message) with what became of it and why. The same data as the record's
// `prompts` (docs/turn.md, Receipts).

import type { TurnRecord } from '../../../engine/turn/index.ts';

const MARK: Readonly<Record<string, string>> = {
  included: '+',
  cut: '~',
  dropped: '-',
  over_budget: '-',
  excluded: 'x',
};

export function explainPrompts(record: Pick<TurnRecord, 'prompts'>): string[] {
  if (record.prompts.length === 0) return ['No model was called (offline): no prompt was assembled.'];
  const out: string[] = [];
  for (const prompt of record.prompts) {
    out.push(`${prompt.role} call ${prompt.call}: ${prompt.tokens}/${prompt.budget} tokens`);
    for (const section of prompt.sections) {
      if (section.reason === 'empty' && (section.items ?? []).length === 0) continue;
      out.push(
        `  ${section.included ? '+' : '-'} ${section.id} (${section.tokens} tokens, ${section.carrier}): ${section.reason}`,
      );
      for (const item of section.items ?? []) {
        const status = item.status === 'included' ? '' : ` [${item.status.replace('_', ' ')}]`;
        out.push(
          `      ${MARK[item.status] ?? '?'} ${item.id} (${item.tokens} tokens)${status}: ${item.why}`,
        );
      }
    }
  }
  return out;
}
