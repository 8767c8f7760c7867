// What the store keeps of turns' pictures (migration 0010_turn_pictures; turn-pictures.ts does the work).

export interface TurnPicture {
  readonly mediaType: string;
  readonly data: Uint8Array;
  readonly prompt: string;
  readonly createdAt: number;
}

/** Pictures one principal's turns hold, and where they are stored. */
export interface TurnPictures {
  /**
   * Stores (or replaces) the turn's picture, counted in `quotaOwner`'s storage (default: the principal's);
   * false when the principal has no such session or turn.
   */
  putTurnPicture(
    principalId: string,
    sessionId: string,
    turnId: string,
    picture: { mediaType: string; data: Uint8Array; prompt: string },
    quotaOwner?: string,
  ): Promise<boolean>;
  getTurnPicture(principalId: string, sessionId: string, turnId: string): Promise<TurnPicture | undefined>;
}
