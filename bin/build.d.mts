// Types of bin/build.mjs, for the TypeScript that imports it (the test setup).
export declare const ROOT: string;
export declare function isDevCheckout(): boolean;
export declare function compiledStale(options?: { withBench?: boolean }): boolean;
export declare function compile(options?: { quiet?: boolean }): number;
