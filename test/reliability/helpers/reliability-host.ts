import { readFileSync } from 'node:fs';
import { approximateTokenizer } from '@toolhost/core';
import type { CatalogEntry } from '@toolhost/catalog';
import { createToolHost, type Environment, type ToolHost, type ToolHostOptions } from 'toolhost';

/** The deferred catalog of `__fixtures__/catalog.json`; each handler echoes its arguments. */
export function reliabilityCatalog(): CatalogEntry[] {
  const data = JSON.parse(readFileSync(new URL('../__fixtures__/catalog.json', import.meta.url), 'utf8')) as {
    entries: { name: string; description: string }[];
  };
  return data.entries.map(({ name, description }) => ({
    name,
    description,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: (args) => `${name} ran with ${JSON.stringify(args)}`,
  }));
}

/** An advanced-profile host over `workspace` (or an environment) with the catalog, the cheap tokenizer and the edit gate off. */
export function createReliabilityHost(target: string | { environment: Environment }, options: Partial<ToolHostOptions> = {}): ToolHost {
  return createToolHost({
    ...(typeof target === 'string' ? { workspace: target } : target),
    profile: 'advanced',
    shellProfile: 'unix_like',
    tokenizer: approximateTokenizer,
    catalog: reliabilityCatalog(),
    verification: { threshold: Infinity },
    ...options,
  });
}
