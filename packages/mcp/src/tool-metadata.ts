import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP hints per built-in tool: what a client may assume before calling it. search_tools and code_search are idempotent
 * as well as read-only (a repeated search_tools finds its tools already loaded), said outright for clients that read
 * an absent idempotentHint as false.
 */
export const TOOL_ANNOTATIONS: Readonly<Record<string, ToolAnnotations>> = {
  exec_command: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  write_stdin: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  apply_patch: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  search_tools: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  code_search: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

const integer = { type: 'integer' } as const;
const boolean = { type: 'boolean' } as const;
const string = { type: 'string' } as const;

/** Fields every result may carry once its output was fitted to the budget. */
const BUDGET_FIELDS = { truncated: boolean, spool_path: string };

const EXEC_OUTPUT = {
  type: 'object',
  properties: {
    session_id: integer,
    exit_code: integer,
    wall_time_ms: { type: 'number' },
    original_token_count: integer,
    ...BUDGET_FIELDS,
  },
} as const;

/** JSON Schemas of each built-in tool's structured result (`structuredContent`, the result's `data`). */
export const TOOL_OUTPUT_SCHEMAS: Readonly<Record<string, Tool['outputSchema']>> = {
  exec_command: EXEC_OUTPUT,
  write_stdin: EXEC_OUTPUT,
  apply_patch: {
    type: 'object',
    properties: {
      diff: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            path: string,
            operation: { type: 'string', enum: ['created', 'updated', 'deleted', 'moved'] },
            content: string,
            additions: integer,
            deletions: integer,
            truncated: boolean,
            is_empty: boolean,
          },
        },
      },
      ...BUDGET_FIELDS,
    },
  },
  search_tools: {
    type: 'object',
    properties: {
      matches: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: string,
            score: { type: 'number' },
            exact: boolean,
            weak: boolean,
            available: { type: 'string', enum: ['now', 'next_request', 'not_loaded'] },
          },
        },
      },
      expanded: { type: 'array', items: string },
      ...BUDGET_FIELDS,
    },
  },
  code_search: {
    type: 'object',
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            result_type: { type: 'string', enum: ['definition', 'usage', 'text', 'path'] },
            path: string,
            line: integer,
            column: integer,
            name: string,
            snippet: string,
          },
        },
      },
      hints: { type: 'array', items: string },
      ...BUDGET_FIELDS,
    },
  },
};
