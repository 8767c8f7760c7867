// The MCP prompts (docs/agents.md, Prompts): "write a cartridge from this idea" and "fix this cartridge",
// each the authoring skill's loop (skills/mnesos-cartridge/SKILL.md) told as steps with this server's tools.
// Arguments are bounded (MAX_PROMPT_ARG_CHARS); the fix prompt carries the cartridge's problems as
// validate_cartridge reports them, so the agent starts from the facts.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type McpContext, McpRefusal } from './context.ts';
import { MAX_PROMPT_ARG_CHARS } from './limits.ts';
import { cartridgeArg } from './schemas.ts';

const ideaArg = z.string().min(1).max(MAX_PROMPT_ARG_CHARS).describe('The game idea, in plain words');
const problemArg = z
  .string()
  .max(MAX_PROMPT_ARG_CHARS)
  .describe('What goes wrong, in plain words (optional: the validation findings are included either way)');

/** The loop both prompts end in: the skill's own steps, with this server's tools. */
const AUTHORING_LOOP = [
  'Work in this loop until validate_cartridge says ok and explore_cartridge reports no violations:',
  '1. validate_cartridge: fix every `file:line:col` problem it lists (a "did you mean" names the intended field).',
  '2. run_event on each event you wrote, with a seed, and check the notes, the rolls and each state change.',
  '3. eval_expression to check a condition or a formula before you write it into a rule.',
  '4. explore_cartridge: fix each invariant violation it shrinks to a short step list; reach the events it says were never reached.',
  '5. lore_lookup with what a player would say, to check the lore sections and World Info entries it brings in.',
  '6. new_session and play_turn for a short playthrough: the narration must follow the rules, never decide outcomes.',
  'Rules are data and the model never does arithmetic: every roll, check and change belongs in yare.yaml; the lore (bot_lore.md) says what the world is; prompt_directives.yaml says how to narrate.',
  'Read mnesos://skill/SKILL.md for the whole method and mnesos://docs/yare.md and mnesos://docs/cartridges.md for the reference.',
].join('\n');

function userPrompt(text: string): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text } }] };
}

/** The write prompt: the idea, where to start, the authoring loop. */
function writeCartridgePrompt(idea: string): GetPromptResult {
  return userPrompt(
    [
      'Write a MnesOS cartridge (a folder: yare.yaml rules, bot_lore.md lore, optional prompt_directives.yaml and first-message.md) for this idea:',
      '',
      idea,
      '',
      'Start from a template: run `mnesos new <folder> --template minimal` (or `combat`, or `eldoria` for a complete example), in a folder this server may read (list_cartridges shows them).',
      'Design the state first (state_schema, with public and private fields), then the events that change it, then the lore.',
      AUTHORING_LOOP,
    ].join('\n'),
  );
}

/** The fix prompt: the cartridge (refused when outside the folders), what goes wrong, its findings, the loop. */
async function fixCartridgePrompt(
  ctx: McpContext,
  validate: (cartridge: string) => Promise<string>,
  cartridge: string,
  problem: string | undefined,
): Promise<GetPromptResult> {
  const resolved = ctx.folders.resolve(cartridge);
  if (!resolved.ok) throw new McpRefusal(resolved.message);
  const findings = await validate(cartridge);
  return userPrompt(
    [
      `Fix the MnesOS cartridge '${cartridge}'.`,
      ...(problem === undefined || problem.trim() === '' ? [] : ['', 'What goes wrong:', problem]),
      '',
      'validate_cartridge reports:',
      findings,
      '',
      'Read the files it names (resources mnesos://cartridge/<cartridge>/<file>) and change only what the problem needs.',
      AUTHORING_LOOP,
    ].join('\n'),
  );
}

export function registerPrompts(
  server: McpServer,
  ctx: McpContext,
  validate: (cartridge: string) => Promise<string>,
): void {
  server.registerPrompt(
    'write_cartridge',
    {
      title: 'Write a cartridge from an idea',
      description: 'Steps to turn a game idea into a working MnesOS cartridge with this server’s tools',
      argsSchema: { idea: ideaArg },
    },
    ({ idea }) => writeCartridgePrompt(idea),
  );

  server.registerPrompt(
    'fix_cartridge',
    {
      title: 'Fix a cartridge',
      description: 'The cartridge’s problems as validate_cartridge reports them, and the steps to fix them',
      argsSchema: { cartridge: cartridgeArg, problem: problemArg.optional() },
    },
    async ({ cartridge, problem }) => fixCartridgePrompt(ctx, validate, cartridge, problem),
  );
}
