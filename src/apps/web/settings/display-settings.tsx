// Settings → Display: the choices of this browser (kept in localStorage): the rules under each turn, and,
// in author mode, strict mode.
import { useState } from 'preact/hooks';
import {
  remember,
  SHOW_RULES_STORAGE,
  storedShowRules,
  storedStrict,
  STRICT_STORAGE,
  useApp,
} from '../app/context.ts';
import { Checkbox } from '../ui/checkbox.tsx';

export function DisplaySettings() {
  const { info } = useApp();
  const [showRules, setShowRules] = useState(storedShowRules);
  const [strict, setStrict] = useState(storedStrict);
  return (
    <section class="card" aria-labelledby="display-h">
      <h2 id="display-h">Display</h2>
      <Checkbox
        testId="show-rules"
        label="Show the dice and what changed under each turn"
        checked={showRules}
        onChange={(on) => {
          setShowRules(on);
          remember(SHOW_RULES_STORAGE, on);
        }}
      />
      {info.authorMode ? (
        <Checkbox
          testId="strict-mode"
          label="Strict mode (authors): refuse a turn that breaks one of the cartridge's invariants"
          checked={strict}
          onChange={(on) => {
            setStrict(on);
            remember(STRICT_STORAGE, on);
          }}
        />
      ) : null}
    </section>
  );
}
