// Bounds of a cartridge's library metadata (migration 0005), shared by the server (its request schemas)
// and the store (the last line of defence). Each has a test at the limit and just past it.

/** Characters of a cartridge's title. */
export const MAX_TITLE_CHARS = 200;
/** Characters of a cartridge's description. */
export const MAX_DESCRIPTION_CHARS = 4_000;
/** Characters of a cartridge's genre. */
export const MAX_GENRE_CHARS = 64;
/** Tags of one cartridge. */
export const MAX_TAGS = 16;
/** Characters of one cartridge tag. */
export const MAX_TAG_CHARS = 32;
/** Characters of a version's tag (`v1.2`, `playtest`). */
export const MAX_VERSION_TAG_CHARS = 64;
/** Characters of a version's notes. */
export const MAX_VERSION_NOTES_CHARS = 4_000;
/** Bytes of a cover image. */
export const MAX_COVER_BYTES = 256 * 1024;
/** Characters of a description a listing shows (the whole one is in the cartridge's own answer). */
export const MAX_LISTED_DESCRIPTION_CHARS = 280;
/** Cartridges one library listing returns at most (the caller's own and the operator's come first). */
export const MAX_LISTED_CARTRIDGES = 1_000;

/** Cover image types the server stores and serves: raster only (an SVG can carry script). */
export const COVER_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type CoverMediaType = (typeof COVER_MEDIA_TYPES)[number];

/** Who may see a cartridge: its owner only, or every principal. */
export const VISIBILITIES = ['private', 'public'] as const;
export type CartridgeVisibility = (typeof VISIBILITIES)[number];
