// An exploration's report as text (`mnesos explore`, the MCP tool `explore_cartridge`): violations first, each
// with its shrunk steps, then what was never reached.

import { formatPlace } from '../../../core/diagnostics.ts';
import type { ExploreReport, Located } from './types.ts';

function located(items: readonly Located[]): string[] {
  return items.map((l) => `  ${formatPlace(l.place)}: ${l.what}`);
}

/** The report as text: violations first (each with its shrunk steps), then what was never reached. */
export function renderExploreReport(report: ExploreReport, written: readonly string[] = []): string {
  const out: string[] = [];
  const c = report.coverage;
  out.push(
    `explored ${report.cartridge}: ${report.runs} run${report.runs === 1 ? '' : 's'} of up to ${report.depth} steps, seed ${report.seed}; ${report.stepsPlayed} steps, ${report.eventsRun} events`,
  );
  for (const [i, v] of report.violations.entries()) {
    out.push(
      '',
      `${i + 1}. ${v.kind}: ${v.place === undefined ? '' : `${formatPlace(v.place)}: `}${v.message}`,
    );
    out.push(
      `   shortest sequence (${v.steps.length} step${v.steps.length === 1 ? '' : 's'}, from ${v.originalLength}):`,
    );
    if (v.steps.length === 0) out.push('     (the start state already shows it)');
    for (const step of v.steps) {
      const what =
        step.kind === 'event'
          ? `${step.event} ${JSON.stringify(step.inputs)}`
          : step.kind === 'wait'
            ? `/wait ${step.duration}`
            : `mini-game ${step.result.minigame_id} ${step.result.status}`;
      out.push(`     - ${what} (seed ${step.seed})`);
    }
    if (written[i] !== undefined) out.push(`   written to ${written[i]}`);
  }
  if (report.violationsDropped > 0) out.push('', `${report.violationsDropped} more violations not kept`);
  out.push('', 'coverage:');
  out.push(
    `  events ${c.events.reached}/${c.events.total}, branches ${c.branches.taken}/${c.branches.total}, steps ${c.steps.reached}/${c.steps.total}, notes ${c.notes.shown}/${c.notes.total}, lore ${c.lore.activated}/${c.lore.total}, World Info ${c.worldInfo.activated}/${c.worldInfo.total}`,
  );
  out.push(
    ...located(c.events.missed),
    ...located(c.branches.missed),
    ...located(c.steps.missed),
    ...located(c.notes.missed),
    ...located(c.lore.missed),
    ...c.worldInfo.missed.map((w) => `  world_info.json: ${w.what}`),
  );
  out.push(
    '',
    report.violations.length === 0
      ? 'no violations'
      : `${report.violations.length} violation${report.violations.length === 1 ? '' : 's'}`,
  );
  return `${out.join('\n')}\n`;
}
