// Binds the repository modules to one database context, one part of the Store at a time (repository.ts).
// Every method is plain delegation: the behaviour lives in the module named after the table it touches.

import { sql } from 'kysely';
import {
  addApiKey,
  createPrincipal,
  findPrincipalByKeyHash,
  getPrincipal,
  listApiKeys,
  revokeApiKey,
} from './principals.ts';
import { getCartridgeVersion, listCartridges, putCartridgeVersion } from './cartridges.ts';
import {
  addCartridgeEntry,
  cartridgeAccess,
  cartridgeUsage,
  deleteCartridgeEntry,
  listOwnedCartridges,
  listOwnedCartridgeVersions,
  resolveCartridgeName,
} from './cartridge-entries.ts';
import type { StoreContext } from './context.ts';
import {
  canStartVersion,
  deleteLibraryCartridge,
  findLibraryCartridge,
  getCartridgeCover,
  getLibraryVersion,
  listLibrary,
  listLibraryVersions,
  setCartridgeCover,
  updateLibraryCartridge,
  updateLibraryVersion,
} from './library.ts';
import { createDraft, deleteDraft, getDraft, listDrafts, updateDraft } from './drafts.ts';
import { findSessionForAudit } from './session-audit.ts';
import {
  getBranch,
  getLedgerLog,
  getLedgerPage,
  getLineage,
  getWorldBase,
  hydrate,
  listTreeAround,
} from './lineage.ts';
import { getModelSettings, putModelSettings } from './model-settings.ts';
import { createPersona, deletePersona, getPersona, listPersonas, updatePersona } from './personas.ts';
import type {
  Accounts,
  Drafts,
  Library,
  Personas,
  Saves,
  SettingsStore,
  SnapshotStore,
  Store,
  Tables,
  TurnClaims,
  TurnLog,
} from './repository.ts';
import { putSnapshot, putSnapshotPieces } from './snapshots.ts';
import {
  appendTableEvent,
  closeRound,
  dropStaleTickets,
  enqueueTurn,
  listQueue,
  listRoundActions,
  listTableEvents,
  oldestTableEvent,
  removeTicket,
  submitRoundAction,
} from './table-log.ts';
import {
  closeInvites,
  createInvite,
  findUsableInvite,
  getSessionAccess,
  getTable,
  joinTable,
  listInvites,
  listMembers,
  openTable,
  removeMember,
  setInvitesClosed,
  setMemberRole,
  setTurnOrder,
} from './tables.ts';
import { createSave, deleteSave, getSave, listSaves, renameSave } from './saves.ts';
import {
  countSessions,
  createSession,
  deleteSession,
  getSession,
  listSessions,
  renameSession,
  setSessionPersona,
} from './sessions.ts';
import {
  claimIdempotencyKey,
  endClaimOwner,
  heartbeatClaimOwner,
  registerClaimOwner,
  releaseIdempotencyKey,
} from './turn-claims.ts';
import {
  appendTurn,
  findTurnByIdempotencyKey,
  getTurn,
  listChildren,
  listRebased,
  listTree,
  locateTurns,
  setHead,
} from './turns.ts';
import { appendRebased } from './rebased.ts';
import { turnPictures } from './turn-pictures.ts';

/** Sessions and their turn trees. */
export function turnLog(ctx: StoreContext): TurnLog {
  return {
    createSession: (input) => createSession(ctx, input),
    getSession: (id, principalId) => getSession(ctx, id, principalId),
    listSessions: (principalId, page) => listSessions(ctx, principalId, page),
    countSessions: (principalId) => countSessions(ctx, principalId),
    renameSession: (id, principalId, title, updatedAt) =>
      renameSession(ctx, id, principalId, title, updatedAt),
    setSessionPersona: (id, principalId, personaId) => setSessionPersona(ctx, id, principalId, personaId),
    deleteSession: (id, principalId) => deleteSession(ctx, id, principalId),
    findSessionForAudit: (id) => findSessionForAudit(ctx, id),
    appendTurn: (input) => appendTurn(ctx, input),
    appendRebased: (input) => appendRebased(ctx, input),
    locateTurns: (principalId, turnIds) => locateTurns(ctx, principalId, turnIds),
    listRebased: (sessionId, originId) => listRebased(ctx, sessionId, originId),
    getTurn: (sessionId, turnId) => getTurn(ctx, sessionId, turnId),
    findTurnByIdempotencyKey: (sessionId, key) => findTurnByIdempotencyKey(ctx, sessionId, key),
    listChildren: (sessionId, turnId) => listChildren(ctx, sessionId, turnId),
    getLineage: (sessionId, turnId) => getLineage(ctx, sessionId, turnId),
    getBranch: (sessionId, turnId, options) => getBranch(ctx, sessionId, turnId, options),
    getLedgerLog: (sessionId, turnId) => getLedgerLog(ctx, sessionId, turnId),
    getLedgerPage: (sessionId, turnId, limit) => getLedgerPage(ctx, sessionId, turnId, limit),
    hydrate: (sessionId, turnId, options) => hydrate(ctx, sessionId, turnId, options),
    setHead: (sessionId, turnId, options) => setHead(ctx, sessionId, turnId, options),
    listTree: (sessionId) => listTree(ctx, sessionId),
    listTreeAround: (sessionId, turnId, limit) => listTreeAround(ctx, sessionId, turnId, limit),
  };
}

/** The world projection's snapshots. */
export function snapshotStore(ctx: StoreContext): SnapshotStore {
  return {
    getWorldBase: (sessionId, turnId) => getWorldBase(ctx, sessionId, turnId),
    putSnapshotPieces: (sessionId, pieces) => putSnapshotPieces(ctx, sessionId, pieces),
    putSnapshot: (sessionId, turnId, world) => putSnapshot(ctx, sessionId, turnId, world),
  };
}

/** Idempotency-Key claims and their owners. */
export function turnClaims(ctx: StoreContext): TurnClaims {
  return {
    claimIdempotencyKey: (input) => claimIdempotencyKey(ctx, input),
    releaseIdempotencyKey: (sessionId, key, turnId) => releaseIdempotencyKey(ctx, sessionId, key, turnId),
    registerClaimOwner: (input) => registerClaimOwner(ctx, input),
    heartbeatClaimOwner: (ownerId, at) => heartbeatClaimOwner(ctx, ownerId, at),
    endClaimOwner: (ownerId) => endClaimOwner(ctx, ownerId),
  };
}

/** Principals and API keys. */
export function accounts(ctx: StoreContext): Accounts {
  return {
    createPrincipal: (input) => createPrincipal(ctx, input),
    getPrincipal: (id) => getPrincipal(ctx, id),
    addApiKey: (input) => addApiKey(ctx, input),
    listApiKeys: (principalId) => listApiKeys(ctx, principalId),
    revokeApiKey: (principalId, keyId, revokedAt) => revokeApiKey(ctx, principalId, keyId, revokedAt),
    findPrincipalByKeyHash: (keyHash) => findPrincipalByKeyHash(ctx, keyHash),
  };
}

/** Cartridge versions, entries and the library. */
export function library(ctx: StoreContext): Library {
  return {
    putCartridgeVersion: (input) => putCartridgeVersion(ctx, input),
    getCartridgeVersion: (idOrHash) => getCartridgeVersion(ctx, idOrHash),
    listCartridges: () => listCartridges(ctx),
    addCartridgeEntry: (input) => addCartridgeEntry(ctx, input),
    resolveCartridgeName: (principalId, name) => resolveCartridgeName(ctx, principalId, name),
    listOwnedCartridges: (principalId) => listOwnedCartridges(ctx, principalId),
    listOwnedCartridgeVersions: (principalId, name) => listOwnedCartridgeVersions(ctx, principalId, name),
    cartridgeAccess: (principalId, versionId) => cartridgeAccess(ctx, principalId, versionId),
    cartridgeUsage: (ownerId) => cartridgeUsage(ctx, ownerId),
    deleteCartridgeEntry: (ownerId, versionId) => deleteCartridgeEntry(ctx, ownerId, versionId),
    listLibrary: (viewerId, options) => listLibrary(ctx, viewerId, options),
    findLibraryCartridge: (viewerId, ref) => findLibraryCartridge(ctx, viewerId, ref),
    listLibraryVersions: (cartridgeId, options) => listLibraryVersions(ctx, cartridgeId, options),
    getLibraryVersion: (ownerId, versionId) => getLibraryVersion(ctx, ownerId, versionId),
    canStartVersion: (viewerId, versionId) => canStartVersion(ctx, viewerId, versionId),
    updateLibraryCartridge: (ownerId, cartridgeId, patch) =>
      updateLibraryCartridge(ctx, ownerId, cartridgeId, patch),
    updateLibraryVersion: (ownerId, versionId, patch) => updateLibraryVersion(ctx, ownerId, versionId, patch),
    deleteLibraryCartridge: (ownerId, cartridgeId) => deleteLibraryCartridge(ctx, ownerId, cartridgeId),
    setCartridgeCover: (ownerId, cartridgeId, cover) => setCartridgeCover(ctx, ownerId, cartridgeId, cover),
    getCartridgeCover: (cartridgeId) => getCartridgeCover(ctx, cartridgeId),
  };
}

/** Personas. */
export function personas(ctx: StoreContext): Personas {
  return {
    createPersona: (input) => createPersona(ctx, input),
    getPersona: (id, principalId) => getPersona(ctx, id, principalId),
    listPersonas: (principalId) => listPersonas(ctx, principalId),
    updatePersona: (id, principalId, patch) => updatePersona(ctx, id, principalId, patch),
    deletePersona: (id, principalId) => deletePersona(ctx, id, principalId),
  };
}

/** Saves. */
export function saves(ctx: StoreContext): Saves {
  return {
    createSave: (input) => createSave(ctx, input),
    getSave: (sessionId, saveId) => getSave(ctx, sessionId, saveId),
    listSaves: (sessionId) => listSaves(ctx, sessionId),
    renameSave: (sessionId, saveId, name) => renameSave(ctx, sessionId, saveId, name),
    deleteSave: (sessionId, saveId) => deleteSave(ctx, sessionId, saveId),
  };
}

/** Builder drafts. */
export function drafts(ctx: StoreContext): Drafts {
  return {
    createDraft: (input) => createDraft(ctx, input),
    getDraft: (id, principalId) => getDraft(ctx, id, principalId),
    listDrafts: (principalId) => listDrafts(ctx, principalId),
    updateDraft: (id, principalId, patch) => updateDraft(ctx, id, principalId, patch),
    deleteDraft: (id, principalId) => deleteDraft(ctx, id, principalId),
  };
}

/** Model settings. */
export function settings(ctx: StoreContext): SettingsStore {
  return {
    getModelSettings: (principalId) => getModelSettings(ctx, principalId),
    putModelSettings: (input) => putModelSettings(ctx, input),
  };
}

/** Shared tables: members, invitations, live events, the queue and rounds. */
export function tables(ctx: StoreContext): Tables {
  return {
    openTable: (sessionId, owner, at) => openTable(ctx, sessionId, owner, at),
    getTable: (sessionId) => getTable(ctx, sessionId),
    setTurnOrder: (sessionId, order, at) => setTurnOrder(ctx, sessionId, order, at),
    setInvitesClosed: (sessionId, closed, at) => setInvitesClosed(ctx, sessionId, closed, at),
    getSessionAccess: (sessionId, principalId) => getSessionAccess(ctx, sessionId, principalId),
    listMembers: (sessionId) => listMembers(ctx, sessionId),
    joinTable: (codeHash, member, maxMembers) => joinTable(ctx, codeHash, member, maxMembers),
    removeMember: (sessionId, principalId) => removeMember(ctx, sessionId, principalId),
    setMemberRole: (sessionId, principalId, role) => setMemberRole(ctx, sessionId, principalId, role),
    createInvite: (input) => createInvite(ctx, input),
    listInvites: (sessionId) => listInvites(ctx, sessionId),
    findUsableInvite: (codeHash, at) => findUsableInvite(ctx, codeHash, at),
    closeInvites: (sessionId, at, inviteId) => closeInvites(ctx, sessionId, at, inviteId),
    appendTableEvent: (sessionId, event, retain) => appendTableEvent(ctx, sessionId, event, retain),
    listTableEvents: (sessionId, afterSeq, limit) => listTableEvents(ctx, sessionId, afterSeq, limit),
    oldestTableEvent: (sessionId) => oldestTableEvent(ctx, sessionId),
    enqueueTurn: (input, maxQueued) => enqueueTurn(ctx, input, maxQueued),
    listQueue: (sessionId) => listQueue(ctx, sessionId),
    removeTicket: (sessionId, ticketId) => removeTicket(ctx, sessionId, ticketId),
    dropStaleTickets: (sessionId, leaseBefore) => dropStaleTickets(ctx, sessionId, leaseBefore),
    submitRoundAction: (action) => submitRoundAction(ctx, action),
    listRoundActions: (sessionId, round) => listRoundActions(ctx, sessionId, round),
    closeRound: (sessionId, round, at) => closeRound(ctx, sessionId, round, at),
  };
}

export function createStore(ctx: StoreContext, close: () => Promise<void>): Store {
  return {
    dialect: ctx.dialect,
    close,
    async schemaVersion() {
      const row = await ctx.db
        .selectFrom('store_migrations')
        .select(sql<number | null>`max(version)`.as('version'))
        .executeTakeFirst();
      return Number(row?.version ?? 0);
    },
    ...turnLog(ctx),
    ...snapshotStore(ctx),
    ...turnClaims(ctx),
    ...accounts(ctx),
    ...library(ctx),
    ...personas(ctx),
    ...saves(ctx),
    ...drafts(ctx),
    ...settings(ctx),
    ...tables(ctx),
    ...turnPictures(ctx),
  };
}
