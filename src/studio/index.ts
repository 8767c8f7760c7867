// The AI generator (a model drafts a cartridge from plain English, our checker judges it) and the
// builder's helpers (docs/studio.md).
