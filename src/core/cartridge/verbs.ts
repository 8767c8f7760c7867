// A verb's form after a subject that is not the one a text was written for: "they arrive" → "she arrives"
// (third person, one person), "Player steps" → "you step" (second person). Story text (the opening, the
// offline narration) is written for one subject and told for the player's persona.

const MODALS = new Set(
  'can cannot could would should will must might may had did was were never always still also just then soon'.split(
    ' ',
  ),
);

/** "arrive" → "arrives", "are" → "is": the verb after "they" when the persona is one person (he, she). */
export function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  if (MODALS.has(lower) || lower.endsWith('ed')) return verb;
  if (lower === 'are') return 'is';
  if (lower === 'have') return 'has';
  if (lower === 'do') return 'does';
  if (lower === 'go') return 'goes';
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  if (/(s|sh|ch|x|z)$/.test(lower)) return `${verb}es`;
  return `${verb}s`;
}

/** "walks" → "walk", "is" → "are": the verb after "you". */
export function secondPerson(verb: string): string {
  const lower = verb.toLowerCase();
  if (lower === 'is') return 'are';
  if (lower === 'has') return 'have';
  if (lower === 'does') return 'do';
  if (lower === 'was') return 'were';
  if (MODALS.has(lower) || lower.endsWith('ed') || !lower.endsWith('s') || lower.endsWith('ss')) return verb;
  if (lower.endsWith('ies')) return `${verb.slice(0, -3)}y`;
  if (/(sses|shes|ches|xes|zes|oes)$/.test(lower)) return verb.slice(0, -2);
  return verb.slice(0, -1);
}
