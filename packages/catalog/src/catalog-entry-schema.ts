import { toJsonSchema } from '@toolhost/core';
import type * as z from 'zod';
import type { CatalogEntry } from './catalog-entry.js';

/** Whether a catalog entry's input schema is a zod schema (as opposed to a JSON Schema object). */
export function isZodInputSchema(schema: CatalogEntry['inputSchema']): schema is z.ZodObject {
  return Boolean((schema as { _zod?: unknown })._zod);
}

/** The JSON Schema of a catalog entry's input. */
export function catalogEntrySchema(entry: CatalogEntry): Record<string, unknown> {
  return isZodInputSchema(entry.inputSchema) ? toJsonSchema(entry.inputSchema) : (entry.inputSchema as Record<string, unknown>);
}
