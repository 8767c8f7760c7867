// What a mini-game sends when it ends: the `interaction` of a turn request (docs/api.md, "Turns"), with the
// original's metrics (docs/web.md, "Mini-games").

export interface InteractionBody {
  readonly minigame_id: string;
  readonly status: 'completed' | 'failed' | 'aborted';
  readonly metrics?: Record<string, string | number | boolean | (string | number | boolean)[]>;
  readonly data?: Record<string, unknown>;
}
