import type { CatalogEntry } from '../catalog-entry.js';
import { DEV_TOOLS } from './relevance-tools-dev.js';
import { OPS_TOOLS } from './relevance-tools-ops.js';
import type { ToolRow } from './tool-row.js';

const PARAMETER = /^(\w+)(#|%|\?|\[\]|\{\}|=[^!:]+)?(!)?:\s*(.*)$/;

function propertySchema(type: string | undefined, description: string): Record<string, unknown> {
  if (!type) return { type: 'string', description };
  if (type === '#') return { type: 'integer', description };
  if (type === '%') return { type: 'number', description };
  if (type === '?') return { type: 'boolean', description };
  if (type === '[]') return { type: 'array', items: { type: 'string' }, description };
  if (type === '{}') return { type: 'object', description };
  return { type: 'string', enum: type.slice(1).split(','), description };
}

/** Turns a compact parameter list into a JSON Schema object. */
export function parametersSchema(parameters: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const item of parameters.split('|').filter(Boolean)) {
    const match = PARAMETER.exec(item);
    if (!match) throw new Error(`bad parameter ${JSON.stringify(item)}`);
    const [, name, type, isRequired, description] = match;
    properties[name] = propertySchema(type, description);
    if (isRequired) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Builds a catalog entry whose handler echoes its arguments. */
export function rowToEntry([name, description, parameters, tags]: ToolRow): CatalogEntry {
  return {
    name,
    description,
    inputSchema: parametersSchema(parameters),
    tags: tags.split(',').map((tag) => tag.trim()),
    handler: (args) => `${name} ${JSON.stringify(args)}`,
  };
}

/** The hand-written relevance catalog (more than 300 realistic tools). */
export function loadRelevanceCatalog(): CatalogEntry[] {
  return [...DEV_TOOLS, ...OPS_TOOLS].map(rowToEntry);
}
