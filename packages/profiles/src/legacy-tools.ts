/** One row of the migration table for removed legacy schemas. */
export interface LegacyMigration {
  use: string;
  replacement: string;
}

/** The tool names of earlier schemas that were removed, and what replaces each use. */
export const LEGACY_MIGRATIONS: Readonly<Record<'unified_exec' | 'unified_file' | 'unified_search', readonly LegacyMigration[]>> = {
  unified_exec: [
    { use: 'run', replacement: 'exec_command' },
    { use: 'session input', replacement: 'write_stdin' },
  ],
  unified_file: [
    { use: 'patch or edit', replacement: 'apply_patch' },
    { use: 'read or write', replacement: 'shell commands through exec_command.cmd' },
  ],
  unified_search: [
    { use: 'text search', replacement: 'rg or grep through exec_command.cmd' },
    { use: 'search', replacement: 'code_search in the advanced profile, using its five query-led inputs' },
    { use: 'web, skills, errors, discovery', replacement: 'separate tools only where those affordances are retained' },
  ],
};

/** True for a removed legacy tool name. */
export function isLegacyToolName(name: string): name is keyof typeof LEGACY_MIGRATIONS {
  return Object.prototype.hasOwnProperty.call(LEGACY_MIGRATIONS, name);
}

/** The model-visible message for a call to a legacy tool. */
export function legacyToolMessage(name: keyof typeof LEGACY_MIGRATIONS): string {
  const rows = LEGACY_MIGRATIONS[name].map((row) => `${row.use} → ${row.replacement}`).join('; ');
  return `${name} is a removed legacy schema and cannot be called. Use instead: ${rows}.`;
}
