import type { ToolData, ToolResult } from '@toolhost/core';
import { searchToolsDataSchema, searchToolsSchema } from '@toolhost/catalog';
import { codeSearchDataSchema, codeSearchSchema } from '@toolhost/code-search/schema';
import { execCommandSchema, execDataSchema, writeStdinSchema } from '@toolhost/exec/schema';
import { applyPatchDataSchema, applyPatchSchema } from '@toolhost/patch';
import {
  TOOL_PROFILES,
  applyPatchDescription,
  codeSearchDescription,
  execCommandDescription,
  searchToolsDescription,
  writeStdinDescription,
  type ToolProfile,
} from '@toolhost/profiles';
import type * as z from 'zod';
import { defineBuiltinTool } from './builtin-tool-spec.js';

// A command or an edit may change anything in reach; a search only reads. search_tools and code_search say
// idempotentHint outright for clients that read an absent hint as false (a repeated search_tools finds its tools loaded).
const COMMAND = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/** The built-in tools, in the order the model sees them. */
export const BUILTIN_TOOL_SPECS = [
  defineBuiltinTool({
    name: 'exec_command',
    role: 'shell',
    inputSchema: execCommandSchema,
    dataSchema: execDataSchema,
    annotations: COMMAND,
    profiles: TOOL_PROFILES,
    describe: execCommandDescription,
    create: (engines) => engines.exec().execCommand,
  }),
  defineBuiltinTool({
    name: 'write_stdin',
    role: 'shell-input',
    inputSchema: writeStdinSchema,
    dataSchema: execDataSchema,
    annotations: COMMAND,
    profiles: TOOL_PROFILES,
    describe: writeStdinDescription,
    create: (engines) => engines.exec().writeStdin,
  }),
  defineBuiltinTool({
    name: 'apply_patch',
    role: 'edit',
    inputSchema: applyPatchSchema,
    dataSchema: applyPatchDataSchema,
    annotations: { ...COMMAND, openWorldHint: false },
    profiles: TOOL_PROFILES,
    describe: applyPatchDescription,
    create: (engines) => engines.patch(),
  }),
  defineBuiltinTool({
    name: 'search_tools',
    role: 'catalog',
    inputSchema: searchToolsSchema,
    dataSchema: searchToolsDataSchema,
    annotations: READ_ONLY,
    profiles: TOOL_PROFILES,
    describe: searchToolsDescription,
    create: (engines) => engines.searchTools(),
  }),
  defineBuiltinTool({
    name: 'code_search',
    role: 'search',
    inputSchema: codeSearchSchema,
    dataSchema: codeSearchDataSchema,
    annotations: READ_ONLY,
    profiles: ['advanced'],
    describe: codeSearchDescription,
    create: (engines) => engines.codeSearch(),
  }),
] as const;

/** The spec of one built-in tool. */
export type AnyBuiltinToolSpec = (typeof BUILTIN_TOOL_SPECS)[number];

/** The name of a built-in tool. */
export type BuiltinToolName = AnyBuiltinToolSpec['name'];

/** The spec of the built-in tool `Name`. */
export type BuiltinToolSpecOf<Name extends BuiltinToolName> = Extract<AnyBuiltinToolSpec, { name: Name }>;

/**
 * The arguments of each built-in tool as a model sends them (a field with a default may be left out), by tool name.
 * `code_search` is offered in the advanced profile only.
 */
export type BuiltinToolInputs = { [Name in BuiltinToolName]: z.input<BuiltinToolSpecOf<Name>['inputSchema']> };

/**
 * What each built-in tool's result `data` holds, by tool name: the fields of its data schema, typed, and any other field
 * (the gate's refusal, a patch sent through a shell) as `unknown`.
 */
export type BuiltinToolData = { [Name in BuiltinToolName]: z.output<BuiltinToolSpecOf<Name>['dataSchema']> & ToolData };

/** The result of a call to the built-in tool `Name`, its `data` typed by the tool. */
export type ToolResultOf<Name extends BuiltinToolName> = ToolResult<BuiltinToolData[Name]>;

/** The result of a call to the tool `Name`: typed for a built-in tool, a plain `ToolResult` for any other. */
export type ToolResultFor<Name extends string> = Name extends BuiltinToolName ? ToolResultOf<Name> : ToolResult;

/** The built-in tool names of each profile, in the order the model sees them. */
export const PROFILE_TOOLS: Readonly<Record<ToolProfile, readonly BuiltinToolName[]>> = Object.fromEntries(
  TOOL_PROFILES.map((profile) => [profile, BUILTIN_TOOL_SPECS.filter((spec) => spec.profiles.includes(profile)).map((spec) => spec.name)]),
) as Record<ToolProfile, BuiltinToolName[]>;
