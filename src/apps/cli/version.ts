// The version of the installed package, read from its package.json (found by project-root.ts).
export { packageVersion } from '../../adapters/project-root.ts';
