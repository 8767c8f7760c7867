// What clients see of a shared table: members by character and name (never a principal id or key),
// invitations without their code (shown once, when made), the table's settings.

import type { Invite, Member, TableSettings } from '../../adapters/store/index.ts';
import type { InviteView, MemberView, TableView } from '../contract/index.ts';

export function memberView(member: Member, viewerId: string): MemberView {
  return {
    character: member.character,
    name: member.name,
    role: member.role,
    joinedAt: member.joinedAt,
    you: member.principalId === viewerId,
  };
}

export function inviteView(invite: Invite, code?: string): InviteView {
  return {
    id: invite.id,
    expiresAt: invite.expiresAt,
    maxUses: invite.maxUses,
    uses: invite.uses,
    closedAt: invite.closedAt,
    ...(code === undefined ? {} : { code, link: joinLink(code) }),
  };
}

/** Where the web client takes an invitation: its join page (web/table), relative to the server. */
export function joinLink(code: string): string {
  return `/?join=${encodeURIComponent(code)}`;
}

export function tableView(table: TableSettings): TableView {
  return {
    sessionId: table.sessionId,
    turnOrder: table.turnOrder,
    invitesClosed: table.invitesClosed,
    round: table.round,
    eventSeq: table.eventSeq,
  };
}
