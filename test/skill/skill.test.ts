// The authoring skill (skills/mnesos-cartridge): its front matter, its references generated from docs/ and
// templates/ (bin/skill-references.mjs) and current, every command and MCP tool it names real, and its own
// steps followed with the real CLI as an agent would run them (bash, `mnesos` on the PATH).

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { generateReference, REFERENCES, section, staleReferences } from '../../bin/skill-references.mjs';
import { buildProgram } from '../../src/apps/cli/program.ts';
import { CLI, ROOT, SPAWN_TIMEOUT_MS, useCompiledCli, workspaces } from '../apps/cli/helpers.ts';
import { startInProcessMcp } from '../apps/mcp/helpers.ts';

const SKILL_DIR = join(ROOT, 'skills', 'mnesos-cartridge');
const SKILL = readFileSync(join(SKILL_DIR, 'SKILL.md'), 'utf8');
const REFERENCE_TEXTS = readdirSync(join(SKILL_DIR, 'references')).map((name) =>
  readFileSync(join(SKILL_DIR, 'references', name), 'utf8'),
);

useCompiledCli();
const workspace = workspaces();

/** The command lines of the skill's `## Steps` shell block, in order. */
function stepCommands(): string[] {
  const steps = section(SKILL, '## Steps', 'SKILL.md');
  const block = /```sh\n([\s\S]*?)```/.exec(steps)?.[1] ?? '';
  return block.split('\n').filter((line) => line.startsWith('mnesos '));
}

describe('the authoring skill', () => {
  it('has the front matter an agent loads it by: name (its folder) and description', () => {
    const match = /^---\n([\s\S]*?)\n---\n/.exec(SKILL);
    expect(match).not.toBeNull();
    const front = parse(match![1]!) as { name: string; description: string };
    expect(front.name).toBe('mnesos-cartridge');
    expect(front.description.length).toBeGreaterThan(50);
    expect(front.description.length).toBeLessThanOrEqual(1024);
  });

  it('its references are what docs/ and templates/ generate now (bin/skill-references.mjs --check)', () => {
    expect(staleReferences()).toEqual([]);
    expect(Object.keys(REFERENCES).sort()).toEqual(readdirSync(join(SKILL_DIR, 'references')).sort());
    // The generator copies: a heading that no longer exists in docs/ is an error, not a silent gap.
    expect(() => section('# A\n## B\n', '## C', 'x.md')).toThrow("x.md: no heading '## C'");
    expect(generateReference('combat-patterns.md')).toContain('  foe_telegraphs:');
  });

  it('names only commands the CLI has and tools and prompts the MCP server has', async () => {
    const commands = new Set(buildProgram().commands.map((c) => c.name()));
    const named = new Set(
      [SKILL, ...REFERENCE_TEXTS].flatMap((text) =>
        [...text.matchAll(/`mnesos ([a-z-]+)/g)].map((m) => m[1]!),
      ),
    );
    expect(named.size).toBeGreaterThan(6);
    for (const command of named) expect(commands.has(command), `mnesos ${command}`).toBe(true);
    const mcp = await startInProcessMcp();
    try {
      const tools = new Set([
        ...(await mcp.client.listTools()).tools.map((t) => t.name),
        ...(await mcp.client.listPrompts()).prompts.map((p) => p.name),
      ]);
      const mentioned = [...SKILL.matchAll(/`([a-z]+_[a-z_]+)`/g)].map((m) => m[1]!);
      expect(mentioned.length).toBeGreaterThanOrEqual(8);
      for (const tool of mentioned) expect(tools.has(tool), tool).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it(
    "follows the skill's steps with the CLI: every command exits 0 and does what the step says",
    () => {
      const { dir } = workspace();
      mkdirSync(join(dir, 'bin'));
      symlinkSync(CLI, join(dir, 'bin', 'mnesos'));
      const env: NodeJS.ProcessEnv = { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, HOME: dir };
      const outputs: Record<string, string> = {};
      const commands = stepCommands();
      expect(commands.length).toBeGreaterThanOrEqual(8);
      for (const line of commands) {
        const run = spawnSync('bash', ['-c', line], {
          cwd: dir,
          env,
          encoding: 'utf8',
          timeout: SPAWN_TIMEOUT_MS,
        });
        expect(run.status, `${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
        outputs[line.split(' ')[1]!] = run.stdout;
      }
      expect(outputs.validate).toMatch(/^ok: Eldoria \(10 events, 0 warnings\)/m);
      expect(outputs['run-event']).toContain('state.foe.name: "none" → "dire wolf"');
      expect(outputs.eval).toBe('150\n');
      expect(outputs.test).toMatch(/^6 passed, 0 failed$/m);
      expect(outputs.explore).toMatch(/no violations/);
      expect(outputs.lore).toMatch(/\+ line \d+: Goblin scavenger/);
      expect(outputs.turn).toMatch(/foe name: none → goblin scavenger/);
      expect(readdirSync(dir)).toContain('mygame.zip');
    },
    SPAWN_TIMEOUT_MS * 2,
  );
});
