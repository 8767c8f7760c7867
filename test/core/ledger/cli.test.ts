// `mnesos ledger check`: per-event verdicts, exit codes, --world, --cartridge, --json.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../../src/apps/cli/commands/ledger.ts';
import { runLedgerCheck } from '../../../src/apps/cli/run/ledger-check.ts';
import { canonicalJson, worldFromJson } from '../../../src/core/ledger/index.ts';
import { town } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
async function run(args: string, options: Parameters<typeof runLedgerCheck>[1] = {}) {
  const lines: string[] = [];
  const code = await runLedgerCheck(args, options, (l) => lines.push(l));
  return { code, lines };
}

/** A cartridge folder with this yare.yaml (and the lore every cartridge has). */
function cartridge(prefix: string, yare: string): string {
  const cart = mkdtempSync(join(dir, prefix));
  writeFileSync(join(cart, 'yare.yaml'), yare);
  writeFileSync(join(cart, 'bot_lore.md'), 'A quiet town.\n');
  return cart;
}

const good = file(
  'good.json',
  JSON.stringify([{ event_type: 'create_entity', entity: 'mara', name: 'Mara' }]),
);
const mixed = file(
  'mixed.json',
  JSON.stringify([
    { event_type: 'create_entity', entity: 'mara', name: 'Mara' },
    { event_type: 'add_fact', subject: 'zed', predicate: 'x' },
  ]),
);

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('ledger check', () => {
  it('prints accepted for each event and exits 0 when the batch applies', async () => {
    expect(await run(good)).toEqual({
      code: 0,
      lines: ['#0 create_entity: accepted', 'batch accepted (1 events)'],
    });
  });

  it('prints the rejection code and message and exits 1 when it does not', async () => {
    expect(await run(mixed)).toEqual({
      code: 1,
      lines: [
        '#0 create_entity: accepted',
        '#1 add_fact: rejected LEDGER_UNKNOWN_REF subject "zed" does not exist; create it first with create_entity',
        'batch rejected (1 errors)',
      ],
    });
  });

  it('--json prints one object', async () => {
    const { code, lines } = await run(mixed, { json: true });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      ok: false,
      events: [
        { index: 0, event_type: 'create_entity', accepted: true, errors: [] },
        {
          index: 1,
          event_type: 'add_fact',
          accepted: false,
          errors: [{ code: 'LEDGER_UNKNOWN_REF', field: 'subject' }],
        },
      ],
      errors: [],
    });
  });

  it('--world checks against a stored world (JSON as stateAt returns it), which round-trips', async () => {
    const worldJson = JSON.stringify(town());
    const loaded = worldFromJson(JSON.parse(worldJson));
    expect(loaded.ok && canonicalJson(loaded.world)).toBe(canonicalJson(town()));
    expect(loaded.ok && Object.getPrototypeOf(loaded.world.entities)).toBeNull();
    const world = file('world.json', worldJson);
    const give = file(
      'give.json',
      JSON.stringify([{ event_type: 'set_possession', item: 'key', owner: 'player' }]),
    );
    expect((await run(give, { world })).code).toBe(0);
    expect((await run(give)).lines[0]).toContain('LEDGER_UNKNOWN_REF');
    expect((await run(good, { world })).lines[0]).toContain('LEDGER_DUPLICATE');
  });

  it('--cartridge applies the write policy of its yare.yaml', async () => {
    const cart = cartridge(
      'cart-',
      'state_schema:\n  player:\n    gold: { type: int, default: 0 }\nledger:\n  undeclared_attributes: reject\n',
    );
    const gold = file(
      'gold.json',
      JSON.stringify([
        { event_type: 'create_entity', entity: 'player', name: 'P' },
        { event_type: 'set_entity_attribute', entity: 'player', attribute: 'gold', value: 9999 },
      ]),
    );
    expect((await run(gold, { cartridge: cart })).lines[1]).toBe(
      '#1 set_entity_attribute: rejected LEDGER_RULES_OWNED attribute "gold" is owned by the game rules; the narrator cannot set it',
    );
    expect((await run(gold)).code).toBe(0);
    const bad = cartridge('bad-', 'ledger:\n  attributes:\n    mood: { type: text }\n');
    expect(await run(good, { cartridge: bad })).toEqual({
      code: 1,
      lines: [
        `error: ${join(bad, 'yare.yaml')}:3:19: ledger.attributes.mood.type: type must be one of string, int, float, bool [LEDGER_BAD_VALUE]`,
      ],
    });
  });

  it('unreadable, non-JSON, oversized and malformed inputs exit 1 with a clear message', async () => {
    expect((await run(join(dir, 'missing.json'))).lines[0]).toMatch(/^error: .*missing\.json: ENOENT$/);
    expect(await run(file('trunc.json', '[{"event_type": "create_'))).toMatchObject({
      code: 1,
      lines: [
        'batch: rejected LEDGER_NOT_JSON arguments are not valid JSON (truncated or malformed)',
        'batch rejected (1 errors)',
      ],
    });
    expect((await run(file('obj.json', '{"event_type": "set_scene"}'))).lines[0]).toContain(
      'LEDGER_NOT_ARRAY',
    );
    const world = file('w.json', JSON.stringify(town()));
    expect((await run(good, { world, maxFileBytes: 10 })).lines[0]).toMatch(/larger than 10 bytes/);
    expect((await run(good, { world: file('badworld.json', '{"version":1}') })).lines[0]).toBe(
      `error: ${join(dir, 'badworld.json')}: entities must be an object`,
    );
  });

  it('registers `ledger check` on a program and sets the exit code', async () => {
    const program = new Command().exitOverride();
    register(program);
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    await program.parseAsync(['ledger', 'check', mixed, '--json'], { from: 'user' });
    expect(process.exitCode).toBe(1);
    expect(JSON.parse(out.join('')).ok).toBe(false);
    await expect(program.parseAsync(['ledger', 'check'], { from: 'user' })).rejects.toThrow(
      /missing required argument/,
    );
  });
});

describe('ledger check --cartridge without --world', () => {
  it("checks against the cartridge's starting world", async () => {
    const cart = cartridge(
      'start-',
      'ledger:\n  world:\n    - { event_type: create_entity, entity: mara, name: Mara }\n',
    );
    const status = file(
      'status.json',
      JSON.stringify([{ event_type: 'set_entity_status', entity: 'mara', status: 'awake' }]),
    );
    expect((await run(status, { cartridge: cart })).code).toBe(0);
    expect((await run(status)).code).toBe(1);
  });

  it('takes a shipped cartridge by name, and names the shipped ones when there is none of that name', async () => {
    expect(await run(good, { cartridge: 'lanternmere' })).toEqual({
      code: 0,
      lines: ['#0 create_entity: accepted', 'batch accepted (1 events)'],
    });
    const missing = await run(good, { cartridge: 'atlantis', json: true });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.lines[0]!)).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^No cartridge folder at 'atlantis', and no shipped cartridge of that name\. Shipped cartridges: .*lanternmere/,
      ),
    });
  });
});
