import * as z from 'zod';
import { budgetDataFields, maxOutputTokensSchema } from '@toolhost/core';

/** Input schema of search_tools. */
export const searchToolsSchema = z.strictObject({
  query: z.string().min(1).max(1000).describe('What the tool should do, or one or more exact tool names.'),
  limit: z.int().min(1).max(25).default(5).describe('How many matches to return (1 to 25, default 5).'),
  detail_level: z
    .enum(['name', 'name_description', 'full'])
    .default('name_description')
    .describe('"name": names only; "name_description": names with one-line descriptions; "full": also each input schema.'),
  max_output_tokens: maxOutputTokensSchema,
});

/** Validated search_tools arguments. */
export type SearchToolsArgs = z.output<typeof searchToolsSchema>;

/** What a search_tools result's `data` holds: the matches, and the tools it loaded for the next request. */
export const searchToolsDataSchema = z.object({
  matches: z
    .array(
      z.object({
        name: z.string().optional(),
        score: z.number().optional(),
        exact: z.boolean().optional(),
        weak: z.boolean().optional(),
        available: z.enum(['now', 'next_request', 'not_loaded']).optional(),
      }),
    )
    .optional(),
  expanded: z.array(z.string()).optional(),
  ...budgetDataFields,
});

/** A search_tools result's `data`. */
export type SearchToolsData = z.output<typeof searchToolsDataSchema>;
