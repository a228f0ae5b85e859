import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The layer rule's patterns for a file, compiled as ESLint compiles them; none outside the rule. */
async function layerPatterns(path: string): Promise<RegExp[] | undefined> {
  const config = (await eslint.calculateConfigForFile(join(root, path))) as {
    rules?: Record<string, [unknown, { patterns: Array<{ regex: string }> }]>;
  };
  const rule = config.rules?.['no-restricted-imports'];
  return rule?.[1].patterns.map((pattern) => new RegExp(pattern.regex, 'iu'));
}

/** The import specifiers the layer rule refuses in a shipped source file of `folder`. */
async function refuses(folder: string, file: string, specifiers: string[]): Promise<string[]> {
  const patterns = (await layerPatterns(`packages/${folder}/src/${file}`)) ?? [];
  return specifiers.filter((specifier) => patterns.some((pattern) => pattern.test(specifier)));
}

const ALL = [
  'toolhost',
  '@toolhost/core',
  '@toolhost/core/serial-queue',
  '@toolhost/core/node',
  '@toolhost/remote',
  '@toolhost/exec',
  '@toolhost/patch',
  '@toolhost/catalog',
  '@toolhost/code-search/schema',
  '@toolhost/profiles',
  '@toolhost/runtime',
  '@toolhost/testing',
  '@toolhost/openai',
  '@toolhost/docker',
  '@toolhost/ssh',
];

/** What the rule should refuse in `folder`: every toolhost package but its own and those its layer allows. */
function outsideLayer(folder: string, allowed: readonly string[]): string[] {
  const own = folder === 'toolhost' ? 'toolhost' : `@toolhost/${folder}`;
  return ALL.filter((name) => ![own, ...allowed].some((base) => name === base || name.startsWith(`${base}/`)));
}

describe('the layer rule (eslint no-restricted-imports per package folder)', () => {
  it('adapters may import the facade and nothing else of toolhost (the leaks closed: core, its serial-queue entry)', async () => {
    expect(await refuses('anthropic', 'bash-session.ts', ALL)).toEqual(outsideLayer('anthropic', ['toolhost']));
    expect(await refuses('anthropic', 'bash-session.ts', ['@toolhost/core/serial-queue', '@toolhost/core'])).toEqual([
      '@toolhost/core/serial-queue',
      '@toolhost/core',
    ]);
    for (const folder of ['ai-sdk', 'langchain', 'openai'])
      expect(await refuses(folder, 'index.ts', ALL)).toEqual(outsideLayer(folder, ['toolhost']));
    expect(await refuses('openai-agents', 'toolhost-sandbox-session.ts', ALL)).toEqual(
      outsideLayer('openai-agents', ['toolhost', '@toolhost/openai']),
    );
    expect(await refuses('mcp', 'cli-target.ts', ALL)).toEqual(outsideLayer('mcp', ['toolhost', '@toolhost/docker', '@toolhost/ssh']));
  });

  it('engines and the remote kit may import core only, and core nothing of toolhost but itself', async () => {
    for (const folder of ['exec', 'patch', 'catalog', 'code-search', 'remote', 'profiles']) {
      const refused = await refuses(folder, 'index.ts', ALL);
      expect(refused).toEqual(outsideLayer(folder, ['@toolhost/core']));
      expect(refused).toContain('toolhost');
    }
    expect(await refuses('core', 'index.ts', ALL)).toEqual(outsideLayer('core', []));
    expect(await refuses('docker', 'docker-transport.ts', ALL)).toEqual(outsideLayer('docker', ['@toolhost/core', '@toolhost/remote']));
    expect(await refuses('runtime', 'index.ts', ['toolhost', '@toolhost/testing', '@toolhost/exec'])).toEqual([
      'toolhost',
      '@toolhost/testing',
    ]);
  });

  it('tests and fixtures are outside the rule (they build fake hosts with @toolhost/testing)', async () => {
    expect(await refuses('anthropic', 'anthropic-adapter.test.ts', ALL)).toEqual([]);
  });

  it('covers every package, and each package declares only toolhost packages its layer allows', async () => {
    for (const folder of readdirSync(join(root, 'packages')).sort()) {
      const patterns = await layerPatterns(`packages/${folder}/src/index.ts`);
      expect({ folder, covered: patterns !== undefined }).toEqual({ folder, covered: true });
      const manifest = JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const declared = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter(
        (name) => name === 'toolhost' || name.startsWith('@toolhost/'),
      );
      const outside = declared.filter((name) => patterns!.some((pattern) => pattern.test(name)));
      expect({ folder, outside }).toEqual({ folder, outside: [] });
    }
  });
});
