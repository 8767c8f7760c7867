// Where `mnesos serve` listens by default. Its own module so the CLI can show them in --help without
// loading the server.
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
