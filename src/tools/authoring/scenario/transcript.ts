// A step as transcript text: what an author reads when a blessed transcript differs. Only what the rules
// and the models decided goes in (no timings, no token counts), so a transcript is stable across machines.

import { diffStates } from '../../../core/yare/index.ts';
import type { ScenarioStep } from './model.ts';
import type { StepObservation } from './observation.ts';

export function renderStep(n: number, step: ScenarioStep, seen: StepObservation): string[] {
  const lines: string[] = [];
  switch (step.kind) {
    case 'event':
      lines.push(`## ${n}. event ${step.event} ${JSON.stringify(step.inputs)}`);
      break;
    case 'turn':
      lines.push(`## ${n}. turn ${JSON.stringify(step.input)}${step.script ? '' : ' (offline)'}`);
      break;
    case 'minigame':
      lines.push(`## ${n}. minigame ${step.result.minigame_id} ${step.result.status}`);
      break;
  }
  for (const r of seen.refusals) lines.push(`refused: ${r.event}: ${r.code} ${r.message}`);
  if (step.kind !== 'event') lines.push(`ran: ${seen.ran.join(', ') || 'nothing'}`);
  lines.push(...seen.detail);
  for (const note of seen.notes) lines.push(`note: ${note}`);
  for (const roll of seen.rolls)
    lines.push(`roll: ${roll.expr} ${roll.dice} → [${roll.faces.join(', ')}] = ${roll.total}`);
  for (const change of diffStates(seen.before, seen.state)) {
    const path = `state.${change.path.join('.')}`;
    if (change.op === 'delete') lines.push(`${path}: ${JSON.stringify(change.before)} → (deleted)`);
    else
      lines.push(
        `${path}: ${change.before === undefined ? '(new)' : JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`,
      );
  }
  if (seen.narration !== undefined) {
    lines.push('narration:');
    for (const line of seen.narration.split('\n')) lines.push(`  ${line}`);
  }
  return lines;
}
