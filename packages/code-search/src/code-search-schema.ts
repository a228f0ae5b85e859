import * as z from 'zod';
import { budgetDataFields, maxOutputTokensSchema } from '@toolhost/core';

/** The four result categories, in output order. */
export const RESULT_TYPES = ['definition', 'usage', 'text', 'path'] as const;
/** One result category. */
export type ResultType = (typeof RESULT_TYPES)[number];

/** Input schema of code_search: exactly five inputs plus `max_output_tokens`. */
export const codeSearchSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(1000)
    .describe('Literal text to find (not a regex). All lower-case is case-insensitive; any upper-case letter makes it case-sensitive.'),
  path: z.string().min(1).optional().describe('Limit the search to one workspace file or directory.'),
  file_types: z
    .array(z.string().min(1))
    .max(32)
    .optional()
    .describe('Limit results by language name (e.g. "rust", "typescript") or extension (e.g. "rs", ".ts").'),
  result_types: z
    .array(z.enum(RESULT_TYPES))
    .min(1)
    .max(4)
    .optional()
    .describe('Categories to search: definition, usage, text, path. Omit for all four.'),
  max_results: z.int().min(1).max(100).default(20).describe('Maximum results to return (1 to 100, default 20).'),
  max_output_tokens: maxOutputTokensSchema,
});

/** Validated code_search arguments. */
export type CodeSearchArgs = z.output<typeof codeSearchSchema>;

/** What a code_search result's `data` holds: the results, and hints for narrowing a search. */
export const codeSearchDataSchema = z.object({
  results: z
    .array(
      z.object({
        result_type: z.enum(RESULT_TYPES).optional(),
        path: z.string().optional(),
        line: z.int().optional(),
        column: z.int().optional(),
        name: z.string().optional(),
        snippet: z.string().optional(),
      }),
    )
    .optional(),
  hints: z.array(z.string()).optional(),
  ...budgetDataFields,
});

/** A code_search result's `data`. */
export type CodeSearchData = z.output<typeof codeSearchDataSchema>;
