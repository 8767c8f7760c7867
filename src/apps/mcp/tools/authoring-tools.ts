// The authoring tools (docs/agents.md, Tools): each a thin call into what `mnesos validate`, `run-event`,
// `eval`, `explore`, `lore` and the builder already do, on a cartridge from the allowed folders or the library.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import { type Diagnostic, formatDiagnostic, sortByPlace } from '../../../core/diagnostics.ts';
import { evaluateExpression } from '../../../core/yare/index.ts';
import { loadCartridge, readCartridgeFolder } from '../../../adapters/files/index.ts';
import { initialWorld } from '../../../engine/turn/index.ts';
import { explainLore, loreReportLines, renderExploreReport } from '../../../tools/authoring/index.ts';
import {
  BUILDER_EXPLORE_MS,
  type BuilderFiles,
  TryInputError,
  type TryResult,
  tryEvent,
  tryState,
} from '../../../tools/authoring/builder/index.ts';
import { lintCartridge } from '../../../tools/authoring/lint/index.ts';
import { answered, textAnswer } from '../answer.ts';
import { type McpContext, McpRefusal } from '../context.ts';
import {
  cartridgeArg,
  eventArg,
  eventInputsArg,
  exploreDepthArg,
  exploreRunsArg,
  expressionArg,
  loreTextArg,
  seedArg,
  stateArg,
} from '../schemas.ts';
import { registerTools, type ToolDefinition } from './tool-list.ts';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** The cartridge an argument names, loaded; refused when outside the folders, invalid when it does not load. */
export async function loadAllowedCartridge(ctx: McpContext, arg: string): Promise<Cartridge> {
  const resolved = ctx.folders.resolve(arg);
  if (!resolved.ok) throw new McpRefusal(resolved.message);
  const loaded = await loadCartridge(resolved.dir);
  if (!loaded.ok)
    throw new McpRefusal(
      `cartridge '${arg}' does not load (validate_cartridge lists every problem):\n${sortByPlace(loaded.errors).map(formatDiagnostic).join('\n')}`,
    );
  return loaded.cartridge;
}

/** A cartridge's files as text, read the way the loader reads them, from a cartridge the folders allow. */
async function allowedFiles(ctx: McpContext, arg: string): Promise<BuilderFiles> {
  const resolved = ctx.folders.resolve(arg);
  if (!resolved.ok) throw new McpRefusal(resolved.message);
  const read = await readCartridgeFolder(resolved.dir);
  if (!read.ok) throw new McpRefusal(diagnosticLines(read.errors).join('\n'));
  const files: BuilderFiles = {};
  const utf8 = new TextDecoder('utf-8');
  for (const [name, bytes] of read.files) files[name] = utf8.decode(bytes);
  return files;
}

function diagnosticLines(diagnostics: readonly Diagnostic[]): string[] {
  return sortByPlace(diagnostics).map(formatDiagnostic);
}

/** The validation as text: `ok: …` or `invalid: …`, then one `file:line:col: message [CODE]` line per finding. */
export async function validateText(ctx: McpContext, arg: string, strict: boolean): Promise<string> {
  const resolved = ctx.folders.resolve(arg);
  if (!resolved.ok) throw new McpRefusal(resolved.message);
  const result = await loadCartridge(resolved.dir);
  if (!result.ok) {
    const errors = diagnosticLines(result.errors);
    return [
      `invalid: ${errors.length} error${errors.length === 1 ? '' : 's'}`,
      ...errors,
      ...diagnosticLines(result.warnings),
    ].join('\n');
  }
  const warnings = diagnosticLines([...result.warnings, ...lintCartridge(result.cartridge)]);
  const events = result.cartridge.rules.eventNames.length;
  const verdict =
    strict && warnings.length > 0
      ? `invalid (strict): ${warnings.length} warning${warnings.length === 1 ? '' : 's'} count as errors`
      : `ok: ${result.cartridge.name} (${events} event${events === 1 ? '' : 's'}, ${warnings.length} warning${warnings.length === 1 ? '' : 's'})`;
  return [verdict, ...warnings].join('\n');
}

/** An event run as `mnesos run-event` prints it: notes, rolls, what changed (and the state after, when asked). */
function eventRunText(result: TryResult, withState: boolean): string {
  const lines = result.notes.map((note) => `note: ${note}`);
  for (const roll of result.rolls) {
    lines.push(`roll: ${roll.expr} ${roll.dice} → [${roll.faces.join(', ')}] = ${roll.total}`);
  }
  if (!result.ok) {
    const where = result.error.where === null ? '' : `${result.error.where}: `;
    return [
      `failed: ${where}${result.error.message} [${result.error.code}] (nothing changed)`,
      ...lines,
    ].join('\n');
  }
  if (result.changes.length === 0) lines.push('state: unchanged');
  for (const c of result.changes)
    lines.push(
      c.op === 'delete'
        ? `${c.path}: ${JSON.stringify(c.before)} → (deleted)`
        : `${c.path}: ${c.before === null ? '(new)' : JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`,
    );
  if (withState) lines.push('', 'state after:', JSON.stringify(result.state, null, 2));
  return lines.join('\n');
}

/** An event run on a cartridge the folders allow; a bad state or input is refused, naming it. */
async function runEventText(
  ctx: McpContext,
  args: {
    cartridge: string;
    event: string;
    inputs?: Record<string, unknown> | undefined;
    state?: Record<string, unknown> | undefined;
    seed?: number | undefined;
    include_state?: boolean | undefined;
  },
): Promise<string> {
  const cartridge = await loadAllowedCartridge(ctx, args.cartridge);
  try {
    const result = tryEvent(cartridge.rules, {
      event: args.event,
      ...(args.inputs === undefined ? {} : { inputs: args.inputs }),
      ...(args.state === undefined ? {} : { state: args.state }),
      ...(args.seed === undefined ? {} : { seed: args.seed }),
    });
    return eventRunText(result, args.include_state === true);
  } catch (error) {
    if (error instanceof TryInputError) throw new McpRefusal(error.message);
    throw error;
  }
}

/** An expression's value as JSON; an error is refused with its column. */
async function evalExpressionText(
  ctx: McpContext,
  args: {
    cartridge: string;
    expression: string;
    state?: Record<string, unknown> | undefined;
    seed?: number | undefined;
  },
): Promise<string> {
  const cartridge = await loadAllowedCartridge(ctx, args.cartridge);
  const state = stateOrRefuse(cartridge, args.state);
  const result = evaluateExpression(cartridge.rules, state, args.expression, { seed: args.seed ?? 0 });
  if (!result.ok) {
    const col = result.error.column === undefined ? '' : ` (column ${result.error.column})`;
    throw new McpRefusal(`<expression>${col}: ${result.error.message} [${result.error.code}]`);
  }
  return JSON.stringify(result.value);
}

/** The explore report, bounded by the context's explore (BUILDER_EXPLORE_MS). */
async function exploreText(
  ctx: McpContext,
  args: {
    cartridge: string;
    runs?: number | undefined;
    depth?: number | undefined;
    seed?: number | undefined;
    state?: Record<string, unknown> | undefined;
  },
): Promise<string> {
  const outcome = await ctx.explore({
    files: await allowedFiles(ctx, args.cartridge),
    ...(args.runs === undefined ? {} : { runs: args.runs }),
    ...(args.depth === undefined ? {} : { depth: args.depth }),
    ...(args.seed === undefined ? {} : { seed: args.seed }),
    ...(args.state === undefined ? {} : { state: args.state }),
  });
  switch (outcome.kind) {
    case 'explored':
      return renderExploreReport(outcome.report);
    case 'invalid':
      throw new McpRefusal(
        `cartridge '${args.cartridge}' does not load:\n${diagnosticLines(outcome.errors).join('\n')}`,
      );
    case 'refused':
      throw new McpRefusal(outcome.message);
    default: {
      const unreachable: never = outcome;
      throw new Error(`unexpected explore outcome ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The lore a text would bring into a turn, entry by entry and section by section. */
async function loreText(
  ctx: McpContext,
  args: { cartridge: string; text: string; state?: Record<string, unknown> | undefined },
): Promise<string> {
  const cartridge = await loadAllowedCartridge(ctx, args.cartridge);
  const report = explainLore({
    cartridge,
    state: stateOrRefuse(cartridge, args.state),
    world: initialWorld(cartridge),
    text: args.text,
  });
  return loreReportLines(report).join('\n');
}

/** The cartridges the folders allow, one a line, with where each comes from. */
function cartridgeListText(ctx: McpContext): string {
  const { cartridges, truncated } = ctx.folders.list();
  const lines = cartridges.map((c) => `${c.cartridge} (${c.source === 'library' ? 'shipped' : 'folder'})`);
  if (truncated) lines.push('… more not listed (MAX_LISTED_CARTRIDGES, MAX_LISTED_ENTRIES)');
  return lines.length === 0 ? 'no cartridges' : lines.join('\n');
}

const validateCartridgeTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'validate_cartridge',
    {
      title: 'Validate a cartridge',
      description:
        'Check a cartridge like `mnesos validate`: every problem as `file:line:col: message [CODE]` (with "did you mean" where a name is close), then lint warnings. The first line says ok or invalid.',
      inputSchema: {
        cartridge: cartridgeArg,
        strict: z.boolean().optional().describe('count warnings (lint findings included) as errors'),
      },
      annotations: READ_ONLY,
    },
    async ({ cartridge, strict }) =>
      answered(async () => textAnswer(await validateText(ctx, cartridge, strict === true))),
  );

const runEventTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'run_event',
    {
      title: 'Run one rule event',
      description:
        'Run one YARE event on a state with a dice seed, like `mnesos run-event`: its notes, every roll, and each state change (`state.path: before → after`). Nothing is stored.',
      inputSchema: {
        cartridge: cartridgeArg,
        event: eventArg,
        inputs: eventInputsArg.optional(),
        state: stateArg.optional(),
        seed: seedArg.optional(),
        include_state: z.boolean().optional().describe('append the whole state after the event, as JSON'),
      },
      annotations: READ_ONLY,
    },
    async (args) => answered(async () => textAnswer(await runEventText(ctx, args))),
  );

const evalExpressionTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'eval_expression',
    {
      title: 'Evaluate an expression',
      description:
        "Evaluate a YARE expression against a cartridge's state, like `mnesos eval`: the value as JSON, or the error with its column.",
      inputSchema: {
        cartridge: cartridgeArg,
        expression: expressionArg,
        state: stateArg.optional(),
        seed: seedArg.optional(),
      },
      annotations: READ_ONLY,
    },
    async (args) => answered(async () => textAnswer(await evalExpressionText(ctx, args))),
  );

const exploreCartridgeTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'explore_cartridge',
    {
      title: 'Explore a cartridge',
      description: `Seeded random playthroughs, like \`mnesos explore\`: invariant violations with their shortest step sequence, then coverage (events, branches, notes, lore never reached). Bounded like the builder's Explore pane: at most ${BUILDER_EXPLORE_MS} ms, then it reports what it reached.`,
      inputSchema: {
        cartridge: cartridgeArg,
        runs: exploreRunsArg.optional(),
        depth: exploreDepthArg.optional(),
        seed: seedArg.optional(),
        state: stateArg.optional(),
      },
      annotations: READ_ONLY,
    },
    async (args) => answered(async () => textAnswer(await exploreText(ctx, args))),
  );

const loreLookupTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'lore_lookup',
    {
      title: 'Look up lore',
      description:
        'What the lore would bring into a turn for this text, like `mnesos lore`: each World Info entry activated or not and why, the bot_lore.md sections in play by their `when:` condition and those the text finds (BM25).',
      inputSchema: { cartridge: cartridgeArg, text: loreTextArg, state: stateArg.optional() },
      annotations: READ_ONLY,
    },
    async (args) => answered(async () => textAnswer(await loreText(ctx, args))),
  );

const listCartridgesTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'list_cartridges',
    {
      title: 'List cartridges',
      description:
        'The cartridges this server can use: the shipped library (by name) and the cartridge folders in the folders it was started for (by path).',
      annotations: READ_ONLY,
    },
    async () => answered(async () => textAnswer(cartridgeListText(ctx))),
  );

/** The authoring tools, in the order a client lists them. */
export const AUTHORING_TOOLS: readonly ToolDefinition[] = [
  validateCartridgeTool,
  runEventTool,
  evalExpressionTool,
  exploreCartridgeTool,
  loreLookupTool,
  listCartridgesTool,
];

export function registerAuthoringTools(server: McpServer, ctx: McpContext): void {
  registerTools(server, ctx, AUTHORING_TOOLS);
}

function stateOrRefuse(cartridge: Cartridge, state: Record<string, unknown> | undefined) {
  try {
    return tryState(cartridge.rules, state);
  } catch (error) {
    if (error instanceof TryInputError) throw new McpRefusal(error.message);
    throw error;
  }
}
