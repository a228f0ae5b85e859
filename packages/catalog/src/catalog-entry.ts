import type * as z from 'zod';
import type { JsonSchema, ToolContext, ToolResult } from '@toolhost/core';

/** A tool the host can offer; deferred ones are found through search_tools. */
export interface CatalogEntry {
  name: string;
  description: string;
  /** A zod object (validated strictly) or a JSON Schema object. */
  inputSchema: z.ZodObject | JsonSchema;
  /** Runs the tool; a string is the model-visible output of a success. */
  handler(args: Record<string, unknown>, context: ToolContext): string | ToolResult | Promise<string | ToolResult>;
  tags?: string[];
  /** Hidden until search_tools finds it (default true). */
  deferred?: boolean;
}

/** One ranked search hit. */
export interface CatalogMatch {
  entry: CatalogEntry;
  /** Relevance (higher is better); exact-name selections come first whatever their score. */
  score: number;
  /** True when the query named this tool exactly. */
  exact: boolean;
  /**
   * True for a weak match: no word of the query reaches this tool as written, only through a typo correction or a
   * completion, or no word reaches any tool and this is one of the nearest spellings. search_tools lists weak matches
   * but does not load them.
   */
  weak: boolean;
}
