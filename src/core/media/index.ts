// Voices and pictures, the pure half (docs/voices.md): what a turn sounds like and the prompt for its
// picture. The effects (speech and image providers, espeak-ng) are in src/adapters/media/.

export * from './picture-prompt.ts';
export * from './speech-plan.ts';
export * from './speakers.ts';
export * from './speech-stream.ts';
