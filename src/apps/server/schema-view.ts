// The public part of a cartridge's state schema, as clients see it: one entry per public field with its
// type and bounds, so a client can draw bounded numbers as bars. Private fields (and the domains holding
// only private fields) never appear: their names alone can give away the plot.

import type { DomainSchema, FieldType } from '../../core/yare/index.ts';

import type { SchemaFieldView } from '../contract/index.ts';

/** `any` for a field declared without a type. */
export type SchemaFieldType = FieldType | 'any';

/** Every public field, depth first in the cartridge's declaration order. */
export function publicSchemaFields(schema: DomainSchema): SchemaFieldView[] {
  const out: SchemaFieldView[] = [];
  const walk = (domain: DomainSchema): void => {
    for (const node of domain.children.values()) {
      if (node.kind === 'domain') {
        walk(node);
        continue;
      }
      if (node.visibility !== 'public') continue;
      out.push({
        path: [...node.path],
        type: node.type ?? 'any',
        ...(node.min === undefined ? {} : { min: node.min }),
        ...(node.max === undefined ? {} : { max: node.max }),
        ...(node.description === undefined ? {} : { description: node.description }),
      });
    }
  };
  walk(schema);
  return out;
}
