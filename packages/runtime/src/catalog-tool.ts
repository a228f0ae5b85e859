import * as z from 'zod';
import {
  ErrorCode,
  errorResult,
  maxOutputTokensSchema,
  okResult,
  toJsonSchema,
  type ToolDefinition,
  type ToolImplementation,
} from '@toolhost/core';
import { catalogEntrySchema, isZodInputSchema, validateJsonSchemaArguments, type CatalogEntry } from '@toolhost/catalog';

/** A catalog entry as a tool: what runs a call and what the model is shown. */
export interface CatalogTool {
  implementation: ToolImplementation;
  definition: ToolDefinition;
}

const MAX_OUTPUT_TOKENS_JSON = (toJsonSchema(z.object({ max_output_tokens: maxOutputTokensSchema })).properties as Record<string, unknown>)
  .max_output_tokens;

/** Catalog tools built once per entry object (schemas are converted once, not on every listing or call). */
const catalogTools = new WeakMap<CatalogEntry, CatalogTool>();

/** The tool of a catalog entry, its input schema extended with `max_output_tokens`. */
export function catalogTool(entry: CatalogEntry): CatalogTool {
  const cached = catalogTools.get(entry);
  if (cached) return cached;
  let schema: z.ZodObject;
  let inputSchema: Record<string, unknown>;
  let jsonSchema: Record<string, unknown> | undefined;
  if (isZodInputSchema(entry.inputSchema)) {
    schema = z.strictObject({ ...entry.inputSchema.shape, max_output_tokens: maxOutputTokensSchema });
    inputSchema = toJsonSchema(schema);
  } else {
    // A JSON Schema entry: the zod schema checks max_output_tokens only; the arguments are checked against the entry's
    // own JSON Schema (required fields, types, enums, unknown fields) before the handler runs.
    const json = catalogEntrySchema(entry);
    const properties = { ...((json.properties as Record<string, unknown>) ?? {}) };
    properties.max_output_tokens = MAX_OUTPUT_TOKENS_JSON;
    inputSchema = { ...json, type: 'object', properties };
    schema = z.looseObject({ max_output_tokens: maxOutputTokensSchema });
    jsonSchema = json;
  }
  const implementation: ToolImplementation = {
    name: entry.name,
    schema,
    async execute(args, context) {
      const { max_output_tokens: _budget, ...rest } = args;
      let values: Record<string, unknown> = rest;
      if (jsonSchema) {
        const checked = validateJsonSchemaArguments(entry.name, jsonSchema, rest);
        if (!checked.ok) return errorResult(ErrorCode.InvalidArguments, checked.message);
        values = checked.value;
      }
      const outcome = await entry.handler(values, context);
      return typeof outcome === 'string' ? okResult(outcome) : outcome;
    },
  };
  const tool = { implementation, definition: { name: entry.name, description: entry.description, inputSchema } };
  catalogTools.set(entry, tool);
  return tool;
}
