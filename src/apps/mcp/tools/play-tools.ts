// The play tools (docs/agents.md, Tools): a stored session played through the session layer, the one way
// into a turn (admission, claim, budget, timeout, one commit), as the terminal game and /v1 play it. What a
// tool shows is the player's view: public state and public changes only, never a private field.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { formatWorld } from '../../../core/ledger/index.ts';
import { publicState } from '../../../core/yare/index.ts';
import {
  classifyRecord,
  driveTurn,
  noTurnAnswer,
  pendingInteraction,
  plainJson,
  type TurnInput,
} from '../../../engine/session/index.ts';
import { describeOutcome, type InteractionInput, publicOutcome } from '../../../engine/turn/index.ts';
import { answered, textAnswer } from '../answer.ts';
import { type McpContext, McpRefusal } from '../context.ts';
import { MAX_LEDGER_ROWS } from '../limits.ts';
import {
  cartridgeArg,
  idArg,
  interactionSchema,
  playerInputArg,
  seedArg,
  worldTablesArg,
} from '../schemas.ts';
import { registerTools, type ToolDefinition } from './tool-list.ts';

const sessionArg = idArg.describe('The session id new_session answered');
const turnArg = idArg.describe('A turn id of the session (default: its head, the latest turn)');

async function newSession(
  ctx: McpContext,
  args: {
    cartridge: string;
    title?: string | undefined;
    seed?: number | undefined;
    greeting?: number | undefined;
  },
): Promise<string> {
  const resolved = ctx.folders.resolve(args.cartridge);
  if (!resolved.ok) throw new McpRefusal(resolved.message);
  // The files as they are now become a stored version the session pins: later edits start new sessions.
  const registered = await ctx.library.registerFolder(resolved.dir);
  if (!registered.ok)
    throw new McpRefusal(
      `cartridge '${args.cartridge}' does not load (validate_cartridge lists every problem): ${registered.errors.map((e) => e.message).join('; ')}`,
    );
  const { session, turn } = await ctx.service.createSession(ctx.principalId, {
    cartridgeVersion: registered.version.id,
    ...(args.title === undefined ? {} : { title: args.title }),
    ...(args.seed === undefined ? {} : { seed: args.seed }),
    ...(args.greeting === undefined ? {} : { greeting: args.greeting }),
  });
  return [
    `session: ${session.id}`,
    `cartridge: ${registered.cartridge.name}`,
    '',
    turn.narration.trim() === '' ? '(the cartridge has no opening message)' : turn.narration,
  ].join('\n');
}

async function playTurn(
  ctx: McpContext,
  args: { session: string; input?: string | undefined; interaction?: InteractionInput | undefined },
  signal: AbortSignal,
): Promise<string> {
  if ((args.input === undefined) === (args.interaction === undefined))
    throw new McpRefusal('give exactly one of input (the player text) and interaction (a mini-game result)');
  const turnInput: TurnInput =
    args.input !== undefined ? { input: args.input } : { interaction: args.interaction as InteractionInput };
  let prepared: Awaited<ReturnType<McpContext['service']['prepareTurn']>>;
  try {
    prepared = await ctx.service.prepareTurn(ctx.principalId, args.session, { turn: turnInput });
  } catch (error) {
    return noTurnText(error);
  }
  let turn: Awaited<ReturnType<typeof driveTurn>>['turn'];
  try {
    ({ turn } = await driveTurn(prepared, { signal }));
  } catch (error) {
    return noTurnText(error);
  }
  const session = await ctx.service.getSession(ctx.principalId, args.session);
  const { cartridge } = await ctx.service.cartridgeOf(session);
  const record = classifyRecord(turn.record);
  const changes = record?.kind === 'turn' ? describeOutcome(publicOutcome(cartridge.rules, record)) : [];
  const pending = pendingLine(turn.state);
  return [
    turn.narration,
    '',
    'dice and changes:',
    ...(changes.length === 0 ? ['  no public change'] : changes.map((line) => `  ${line}`)),
    ...(pending === undefined ? [] : ['', pending]),
    '',
    `turn: ${turn.id}`,
  ].join('\n');
}

/** The engine's answer when it played no turn (offline: a look around, a question back); else rethrown. */
function noTurnText(error: unknown): string {
  const answer = noTurnAnswer(error);
  if (answer === undefined) throw error;
  return `(no turn played: ${answer.reason})\n${answer.text}`;
}

/** A mini-game the player must finish first, as every view shows it. */
function pendingLine(state: unknown): string | undefined {
  const pending = pendingInteraction(state);
  return pending === null
    ? undefined
    : `pending mini-game (answer with play_turn's interaction): ${JSON.stringify(pending)}`;
}

async function sessionState(
  ctx: McpContext,
  args: { session: string; turn?: string | undefined },
): Promise<string> {
  const session = await ctx.service.getSession(ctx.principalId, args.session);
  const turn = await ctx.service.getTurn(ctx.principalId, args.session, args.turn ?? session.headTurnId);
  const { cartridge } = await ctx.service.cartridgeOf(session);
  const pending = pendingLine(turn.state);
  return [
    `session ${session.id}, turn ${turn.id} (depth ${turn.depth})`,
    JSON.stringify(plainJson(publicState(turn.state, cartridge.rules.schema)), null, 2),
    ...(pending === undefined ? [] : [pending]),
  ].join('\n');
}

async function ledgerQuery(
  ctx: McpContext,
  args: {
    session: string;
    turn?: string | undefined;
    tables?: ReadonlyArray<'scene' | 'entities' | 'facts' | 'relationships' | 'threads'> | undefined;
    entity?: string | undefined;
  },
): Promise<string> {
  const session = await ctx.service.getSession(ctx.principalId, args.session);
  const turnId = args.turn ?? session.headTurnId;
  const { result } = await ctx.service.worldAt(ctx.principalId, args.session, turnId);
  if (!result.ok) throw new McpRefusal(`the stored ledger of this session does not replay at turn ${turnId}`);
  const lines = formatWorld(result.world, {
    ...(args.tables === undefined ? {} : { tables: args.tables }),
    ...(args.entity === undefined ? {} : { entity: args.entity }),
    maxRows: MAX_LEDGER_ROWS,
  });
  return [`world of session ${session.id} at turn ${turnId}`, ...lines].join('\n');
}

const newSessionTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'new_session',
    {
      title: 'Start a game session',
      description:
        'Start a stored game session on a cartridge (its files as they are now are pinned): the session id and the opening message. Play it with play_turn.',
      inputSchema: {
        cartridge: cartridgeArg,
        title: idArg.optional().describe('A name for the session'),
        seed: seedArg.optional(),
        greeting: z
          .number()
          .int()
          .min(0)
          .max(100)
          .optional()
          .describe('0: first-message.md; n: alternate greeting n'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args) => answered(async () => textAnswer(await newSession(ctx, args))),
  );

const playTurnTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'play_turn',
    {
      title: 'Play a turn',
      description:
        "Play one turn of a session with the player's words (or a mini-game result): the narration, then the dice and the public changes as text. Offline (no model configured) the engine narrates from the event notes.",
      inputSchema: {
        session: sessionArg,
        input: playerInputArg.optional(),
        interaction: interactionSchema.optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async (args, extra) => answered(async () => textAnswer(await playTurn(ctx, args, extra.signal))),
  );

const sessionStateTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'session_state',
    {
      title: 'Read the game state',
      description:
        "A session's public game state at a turn (the head by default), as JSON; private fields never show.",
      inputSchema: { session: sessionArg, turn: turnArg.optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => answered(async () => textAnswer(await sessionState(ctx, args))),
  );

const ledgerQueryTool: ToolDefinition = (server, ctx) =>
  server.registerTool(
    'ledger_query',
    {
      title: 'Query the world ledger',
      description: `A session's world ledger at a turn (the head by default): the scene, entities, facts, relationships and story threads, or only the tables asked for; with \`entity\`, only what concerns that entity key. At most ${MAX_LEDGER_ROWS} rows per table.`,
      inputSchema: {
        session: sessionArg,
        turn: turnArg.optional(),
        tables: worldTablesArg.optional(),
        entity: idArg
          .optional()
          .describe('An entity key: only it, what it holds or contains, its facts and ties'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => answered(async () => textAnswer(await ledgerQuery(ctx, args))),
  );

/** The play tools, in the order a client lists them. */
export const PLAY_TOOLS: readonly ToolDefinition[] = [
  newSessionTool,
  playTurnTool,
  sessionStateTool,
  ledgerQueryTool,
];

export function registerPlayTools(server: McpServer, ctx: McpContext): void {
  registerTools(server, ctx, PLAY_TOOLS);
}
