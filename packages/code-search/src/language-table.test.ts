import { describe, expect, it } from 'vitest';
import { languageOfPath, resolveFileTypes } from './language-table.js';
import { makeSnippet } from './snippet.js';

describe('resolveFileTypes', () => {
  it('accepts language names, aliases and extensions with or without a dot', () => {
    const selection = resolveFileTypes(['rust', 'TS', '.py', 'h', '*.go']);
    expect(selection.ok && [...selection.extensions].sort()).toEqual(['cts', 'go', 'h', 'mts', 'py', 'rs', 'ts']);
  });

  it('rejects unknown values and lists what is accepted', () => {
    const selection = resolveFileTypes(['rust', 'klingon']);
    expect(selection.ok).toBe(false);
    if (!selection.ok) {
      expect(selection.message).toContain('"klingon"');
      expect(selection.message).toContain('typescript');
      expect(selection.message).toContain('rs');
    }
  });

  it('maps paths to languages by extension', () => {
    expect(languageOfPath('src/a.tsx')?.grammar).toBe('tsx');
    expect(languageOfPath('include/x.h')?.grammar).toBe('c');
    expect(languageOfPath('lib/x.hpp')?.grammar).toBe('cpp');
    expect(languageOfPath('Makefile')).toBeUndefined();
    expect(languageOfPath('.bashrc')).toBeUndefined();
  });
});

describe('makeSnippet', () => {
  it('collapses whitespace and keeps short lines whole', () => {
    expect(makeSnippet('  const   x =\t1;  ', 10, 1)).toBe('const x = 1;');
  });

  it('cuts long lines to a window around the match of at most 240 characters', () => {
    const line = `${'a'.repeat(1000)}NEEDLE${'b'.repeat(1000)}`;
    const snippet = makeSnippet(line, 1000, 6);
    expect(snippet.length).toBeLessThanOrEqual(240);
    expect(snippet).toContain('NEEDLE');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });
});
