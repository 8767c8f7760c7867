// The cartridge's own suite, for `mnesos model-eval <cartridge>` without `--suite`: one case per intent
// phrase of each public event (yare.yaml `intents:`, with the inputs intents.yaml says the phrase implies),
// one per scenario whose first step is a player line expected to run an event (`ran:`), then the shipped
// general suite. Deterministic: the same cartridge gives the same cases in the same order.

import { type Cartridge, phraseKey } from '../../../core/cartridge/index.ts';
import { isPublicEvent } from '../../../core/yare/index.ts';
import type { EvalCase } from './cases.ts';
import { generalSuite } from './general-suite.ts';
import { MAX_EVAL_CASES } from './limits.ts';
import type { ScenarioFile } from '../scenario/model.ts';

export function cartridgeSuite(cartridge: Cartridge, scenarios: readonly ScenarioFile[]): EvalCase[] {
  const cases: EvalCase[] = [];
  const rules = cartridge.rules;
  for (const name of rules.eventNames) {
    const event = rules.events.get(name);
    if (event === undefined || !isPublicEvent(event)) continue;
    const implied = cartridge.intentInputs?.[name] ?? [];
    for (const phrase of event.intents) {
      const key = phraseKey(phrase);
      const match = implied.find((intent) => phraseKey(intent.phrase) === key);
      cases.push({
        id: `intents:${cases.length + 1}`,
        input: phrase,
        expect: { kind: 'event', event: name, inputs: match?.inputs ?? {} },
        origin: 'intents',
      });
    }
  }
  for (const file of scenarios) {
    for (const scenario of file.scenarios) {
      const first = scenario.steps[0];
      if (first?.kind !== 'turn') continue;
      const ran = first.expect.find((e) => e.kind === 'ran');
      if (ran?.kind !== 'ran') continue;
      if (scenario.start.kind === 'save') continue;
      cases.push({
        id: `scenario:${cases.length + 1}`,
        input: first.input,
        expect: { kind: 'event', event: ran.event, inputs: {} },
        origin: 'scenario',
        place: first.place,
        ...(scenario.start.kind === 'state' ? { state: scenario.start.state } : {}),
      });
    }
  }
  return [...cases, ...generalSuite()].slice(0, MAX_EVAL_CASES);
}
