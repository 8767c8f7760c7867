// Types of bin/skill-references.mjs for the TypeScript that imports it (test/skill/skill.test.ts).
export declare const ROOT: string;
export declare const SKILL_DIR: string;
export declare const REFERENCES: Readonly<Record<string, readonly unknown[]>>;
export declare function section(markdown: string, heading: string, where: string): string;
export declare function templateEvents(yaml: string, names: readonly string[]): string;
export declare function generateReference(name: string, root?: string): string;
export declare function staleReferences(root?: string): string[];
