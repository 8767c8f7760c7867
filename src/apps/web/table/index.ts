// The shared table in the web client (docs/multiplayer.md): the panel on the play screen, joining from an
// invitation, and the client and hook they use.
export { JoinTable } from './join.tsx';
export { TablePanel } from './table-panel.tsx';
export { TableApi } from './table-api.ts';
export { useTable } from './use-table.ts';

/**
 * An invitation link (`/?join=<code>`, server/table-views.ts) as the client's own route: `#/join/<code>`,
 * the query taken off the address so a reload does not join again. Undefined when the page has none.
 */
export function joinHash(): string | undefined {
  const code = new URLSearchParams(location.search).get('join');
  if (code === null || code === '') return undefined;
  const hash = `#/join/${encodeURIComponent(code)}`;
  history.replaceState(null, '', `${location.pathname}${hash}`);
  return hash;
}
