// JSON Schema (draft-07, what VS Code's YAML extension reads) made from a FileShape.

import type { FileShape, ObjectShape, Shape } from './shape.ts';

type Json = { [key: string]: unknown };

export function toJsonSchema(file: FileShape, id: string): Json {
  const definitions: Json = {};
  for (const [name, shape] of Object.entries(file.definitions)) definitions[name] = convert(shape);
  return {
    $id: id,
    title: file.title,
    ...convert(file.root),
    definitions,
  };
}

function withDoc(doc: string | undefined, schema: Json): Json {
  return doc === undefined ? schema : { description: doc, ...schema };
}

function convertObject(shape: ObjectShape): Json {
  const properties: Json = {};
  for (const [key, prop] of Object.entries(shape.props)) properties[key] = convert(prop);
  const out: Json = { type: 'object', properties };
  if (shape.required && shape.required.length > 0) out.required = [...shape.required];
  const groups = (shape.oneRequired ?? []).map((group) => ({
    [group.exclusive ? 'oneOf' : 'anyOf']: group.keys.map((key) => ({ required: [key] })),
  }));
  if (groups.length === 1) Object.assign(out, groups[0]);
  else if (groups.length > 1) out.allOf = groups;
  if (shape.extra) {
    if (shape.keyPattern) out.patternProperties = { [namesPattern(shape)]: convert(shape.extra) };
    out.additionalProperties = shape.keyPattern ? false : convert(shape.extra);
  } else {
    out.additionalProperties = false;
  }
  return withDoc(shape.doc, out);
}

/**
 * The pattern of an object's map keys, leaving out its listed keys: JSON Schema applies `properties` and
 * `patternProperties` both, so a domain's `visibility` would otherwise also be read as a field.
 */
function namesPattern(shape: ObjectShape): string {
  const listed = Object.keys(shape.props).map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return listed.length === 0 ? shape.keyPattern! : `^(?!(?:${listed.join('|')})$)(?:${shape.keyPattern})`;
}

function convert(shape: Shape): Json {
  switch (shape.kind) {
    case 'object':
      return convertObject(shape);
    case 'tagged': {
      const names = Object.keys(shape.variants);
      const allOf = names.map((name) => {
        const variant = shape.variants[name]!;
        const then = convertObject({
          ...variant,
          props: { [shape.tag]: { kind: 'string' }, ...variant.props },
        });
        return {
          if: { properties: { [shape.tag]: { const: name } }, required: [shape.tag] },
          then,
        };
      });
      return withDoc(shape.doc, {
        type: 'object',
        required: [shape.tag],
        properties: { [shape.tag]: { type: 'string', enum: names } },
        allOf,
      });
    }
    case 'string':
      return withDoc(shape.doc, shape.enum ? { type: 'string', enum: [...shape.enum] } : { type: 'string' });
    case 'integer': {
      const out: Json = { type: 'integer' };
      if (shape.min !== undefined) out.minimum = shape.min;
      if (shape.max !== undefined) out.maximum = shape.max;
      return withDoc(shape.doc, out);
    }
    case 'number':
      return withDoc(shape.doc, { type: 'number' });
    case 'boolean':
      return withDoc(shape.doc, { type: 'boolean' });
    case 'any':
      return withDoc(shape.doc, {});
    case 'array': {
      const out: Json = { type: 'array', items: convert(shape.items) };
      if (shape.minItems !== undefined) out.minItems = shape.minItems;
      if (shape.maxItems !== undefined) out.maxItems = shape.maxItems;
      return withDoc(shape.doc, out);
    }
    case 'union':
      return withDoc(shape.doc, { anyOf: shape.options.map(convert) });
    case 'ref':
      return withDoc(shape.doc, { $ref: `#/definitions/${shape.name}` });
  }
}
