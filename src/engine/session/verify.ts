// `session verify`: replays a stored session from its records and reports every divergence. For each turn:
// the tree is well formed (seq, depth, sibling order), the rules replayed with the recorded seed on the
// parent's stored state give the stored state, the record agrees with its row, and every branch's ledger
// batches replay under the cartridge's policy. No model is called: the records hold the models' decisions.

import type { Session, Turn, TurnLog, TurnNode } from '../../adapters/store/index.ts';
import type { Cartridge } from '../../core/cartridge/index.ts';
import { type GameState, replayTurnRules } from '../turn/index.ts';
import { type RollRecord, runEvent, unlabelled } from '../../core/yare/index.ts';
import { canonicalJson } from './canonical.ts';
import { cartridgeLedger, worldFromRows } from './ledger.ts';
import type { CartridgeLibrary } from './library.ts';
import { classifyRecord, type GenesisRecord } from './records.ts';

export type DivergenceKind = 'tree' | 'record' | 'state' | 'rolls' | 'rules' | 'ledger' | 'cartridge';

export interface Divergence {
  readonly turnId: string | null;
  readonly seq: number | null;
  readonly kind: DivergenceKind;
  readonly message: string;
}

export interface VerifyReport {
  readonly sessionId: string;
  readonly ok: boolean;
  readonly turns: number;
  readonly branches: number;
  readonly divergences: readonly Divergence[];
}

function checkTree(nodes: readonly TurnNode[], out: Divergence[]): void {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const children = new Map<string, number[]>();
  for (const [index, node] of nodes.entries()) {
    const at = (message: string): void => {
      out.push({ turnId: node.id, seq: node.seq, kind: 'tree', message });
    };
    if (node.seq !== index) at(`seq ${node.seq} where ${index} was expected (a turn lost or written twice)`);
    if (node.parentId === null) {
      if (index !== 0) at('a second root turn');
      if (node.depth !== 0) at(`the root has depth ${node.depth}`);
      continue;
    }
    const parent = byId.get(node.parentId);
    if (parent === undefined) {
      at(`parent ${node.parentId} is not in the session`);
      continue;
    }
    if (parent.seq >= node.seq) at('the parent was stored after its child');
    if (node.depth !== parent.depth + 1) at(`depth ${node.depth}, parent depth ${parent.depth}`);
    const siblings = children.get(parent.id) ?? [];
    siblings.push(node.siblingIndex);
    children.set(parent.id, siblings);
  }
  for (const [parentId, indexes] of children) {
    const sorted = [...indexes].sort((a, b) => a - b);
    if (sorted.some((value, i) => value !== i)) {
      out.push({
        turnId: parentId,
        seq: byId.get(parentId)?.seq ?? null,
        kind: 'tree',
        message: `children's sibling indexes are ${sorted.join(',')}, not 0..${sorted.length - 1}`,
      });
    }
  }
}

export async function verifySession(
  store: TurnLog,
  library: CartridgeLibrary,
  sessionId: string,
): Promise<VerifyReport | undefined> {
  const nodes = await store.listTree(sessionId);
  const session = await store.findSessionForAudit(sessionId);
  if (nodes.length === 0 && session === undefined) return undefined;
  const divergences: Divergence[] = [];
  checkTree(nodes, divergences);
  await checkHead(store, sessionId, session, nodes, divergences);
  const report = (branches: number): VerifyReport => ({
    sessionId,
    ok: divergences.length === 0,
    turns: nodes.length,
    branches,
    divergences,
  });

  const start = await loadGenesis(store, library, sessionId, nodes, divergences);
  if (start === undefined) return report(0);
  checkGenesis(start, divergences);
  await replayTurns(store, sessionId, nodes, start, divergences);
  return report(await checkBranchLedgers(store, sessionId, nodes, start.cartridge, divergences));
}

interface Genesis {
  readonly genesis: Turn;
  readonly info: GenesisRecord;
  readonly cartridge: Cartridge;
}

/** Turn 0 and the cartridge version its genesis record names; a divergence (and nothing) when either is missing. */
async function loadGenesis(
  store: TurnLog,
  library: CartridgeLibrary,
  sessionId: string,
  nodes: readonly TurnNode[],
  divergences: Divergence[],
): Promise<Genesis | undefined> {
  const root = nodes.find((node) => node.parentId === null);
  const genesis = root && (await store.getTurn(sessionId, root.id));
  const genesisRecord = classifyRecord(genesis?.record);
  if (genesis === undefined || genesisRecord?.kind !== 'genesis') {
    divergences.push({
      turnId: root?.id ?? null,
      seq: 0,
      kind: 'record',
      message: 'the first turn has no genesis record',
    });
    return undefined;
  }
  const info: GenesisRecord = genesisRecord;
  const loaded = await library.load(info.cartridge.versionId).catch((error: unknown) => error as Error);
  if (loaded === undefined || loaded instanceof Error) {
    divergences.push({
      turnId: genesis.id,
      seq: 0,
      kind: 'cartridge',
      message:
        loaded instanceof Error
          ? loaded.message
          : `cartridge version ${info.cartridge.versionId} is not stored`,
    });
    return undefined;
  }
  return { genesis, info, cartridge: loaded.cartridge };
}
/** The stored cartridge is the one recorded, and turn 0 holds its initial state. */
function checkGenesis({ genesis, info, cartridge }: Genesis, divergences: Divergence[]): void {
  if (cartridge.contentHash !== info.cartridge.contentHash) {
    divergences.push({
      turnId: genesis.id,
      seq: 0,
      kind: 'cartridge',
      message: 'the stored cartridge files do not match the recorded content hash',
    });
  }
  if (canonicalJson(genesis.state) !== canonicalJson(cartridge.rules.initialState)) {
    divergences.push({
      turnId: genesis.id,
      seq: 0,
      kind: 'state',
      message: "turn 0's state is not the cartridge's initial state",
    });
  }
}

/** Every turn after the first, replayed on its parent's stored state (checkTurn), in seq order. */
async function replayTurns(
  store: TurnLog,
  sessionId: string,
  nodes: readonly TurnNode[],
  { genesis, cartridge }: Genesis,
  divergences: Divergence[],
): Promise<void> {
  // States are read once each; a child needs only its parent's, so memory stays at one state per open branch
  // point when turns are visited in seq order (parents always come first).
  const states = new Map<string, unknown>([[genesis.id, genesis.state]]);
  const remainingChildren = new Map<string, number>();
  for (const node of nodes) {
    if (node.parentId !== null)
      remainingChildren.set(node.parentId, (remainingChildren.get(node.parentId) ?? 0) + 1);
  }
  for (const node of nodes) {
    if (node.parentId === null) continue;
    const turn = await store.getTurn(sessionId, node.id);
    if (turn === undefined) {
      divergences.push({
        turnId: node.id,
        seq: node.seq,
        kind: 'record',
        message: 'the turn is in the tree but cannot be read (its record and state are missing)',
      });
      continue;
    }
    const before = states.get(node.parentId);
    if (before !== undefined) checkTurn(turn, before, cartridge, divergences);
    if ((remainingChildren.get(node.id) ?? 0) > 0) states.set(node.id, turn.state);
    const left = (remainingChildren.get(node.parentId) ?? 1) - 1;
    remainingChildren.set(node.parentId, left);
    if (left === 0) states.delete(node.parentId);
  }
}

/** Each branch's ledger batches replay under the cartridge's policy; returns the number of branches. */
async function checkBranchLedgers(
  store: TurnLog,
  sessionId: string,
  nodes: readonly TurnNode[],
  cartridge: Cartridge,
  divergences: Divergence[],
): Promise<number> {
  const ledger = cartridgeLedger(cartridge);
  const parents = new Set(nodes.map((node) => node.parentId));
  const leaves = nodes.filter((node) => !parents.has(node.id));
  for (const leaf of leaves) {
    const rows = await store.getLedgerLog(sessionId, leaf.id);
    if (rows === undefined) continue;
    const world = worldFromRows(rows, ledger.policy);
    if (!world.ok) {
      divergences.push({
        turnId: leaf.id,
        seq: leaf.seq,
        kind: 'ledger',
        message: `the ledger of the branch ending here does not replay at turn depth ${world.turn ?? '?'}: ${world.errors
          .map((e) => `${e.code}: ${e.message}`)
          .join('; ')}`,
      });
    }
  }
  return leaves.length;
}

/**
 * What the API reads first: the session row, its head (every turn answer and the next turn start there),
 * the count the next turn's `seq` comes from, and the head's branch and hydration.
 */
async function checkHead(
  store: TurnLog,
  sessionId: string,
  session: Session | undefined,
  nodes: readonly TurnNode[],
  out: Divergence[],
): Promise<void> {
  const at = (turnId: string | null, message: string): void => {
    out.push({ turnId, seq: null, kind: 'tree', message });
  };
  if (session === undefined) {
    at(null, 'the session row is missing while its turns are stored');
    return;
  }
  if (session.turnCount !== nodes.length) {
    at(
      session.headTurnId,
      `the session counts ${session.turnCount} turns but ${nodes.length} are stored (a turn row was lost)`,
    );
  }
  const head = nodes.find((node) => node.id === session.headTurnId);
  if (head === undefined) {
    at(
      session.headTurnId,
      `the head turn ${session.headTurnId} is not stored: every read of the session fails`,
    );
    return;
  }
  const lineage = await store.getLineage(sessionId, head.id);
  if (lineage === undefined || lineage.length !== head.depth + 1 || lineage[0]?.parentId !== null) {
    at(head.id, "the head's branch does not reach the first turn");
  }
  if ((await store.hydrate(sessionId, head.id)) === undefined) {
    at(head.id, 'the head turn cannot be hydrated (its record or state is missing)');
  }
}

function checkTurn(
  turn: Turn,
  before: unknown,
  cartridge: Parameters<typeof replayTurnRules>[0],
  out: Divergence[],
): void {
  const at = (kind: DivergenceKind, message: string): void => {
    out.push({ turnId: turn.id, seq: turn.seq, kind, message });
  };
  const record = classifyRecord(turn.record);
  if (record === undefined || record.kind === 'genesis') {
    at('record', 'the turn has no turn record');
    return;
  }
  if (record.seed !== turn.seed)
    at('record', `the record's seed ${record.seed} is not the turn's seed ${turn.seed}`);
  const stored = canonicalJson(turn.state);
  if (canonicalJson(record.stateAfter) !== stored)
    at('record', "the record's stateAfter is not the stored state");

  if (record.kind === 'author-event') {
    const replay = runEvent(cartridge.rules, before, record.event, record.inputs, { seed: record.seed });
    if (!replay.ok) {
      at('rules', `event '${record.event}' fails on replay: ${replay.error.message}`);
      return;
    }
    if (canonicalJson(replay.state) !== stored)
      at('state', `replaying '${record.event}' gives a different state`);
    if (!sameRolls(replay.rolls, record.rolls)) at('rolls', 'the dice rolled differently on replay');
    return;
  }
  if (record.cartridge.contentHash !== cartridge.contentHash) {
    at('cartridge', `the turn was played with cartridge ${record.cartridge.contentHash}, not the session's`);
  }
  if (record.narration !== turn.narration) at('record', "the record's narration is not the stored narration");
  const replay = replayTurnRules(cartridge, before as GameState, record);
  for (const message of replay.divergences) at('rules', message);
  if (canonicalJson(replay.state) !== stored)
    at('state', 'replaying the rule calls with the recorded seed gives a different state');
  if (!sameRolls(replay.rolls, record.rolls)) at('rolls', 'the dice rolled differently on replay');
}

/**
 * The replayed rolls are the recorded ones. A record written before rolls carried labels is compared
 * without them (the dice are the same; only the label is new); a label that is recorded must match.
 */
function sameRolls(replayed: readonly RollRecord[], recorded: readonly RollRecord[]): boolean {
  const asRecorded = replayed.map((roll, i) => (recorded[i]?.label === undefined ? unlabelled(roll) : roll));
  return canonicalJson(asRecorded) === canonicalJson(recorded);
}
