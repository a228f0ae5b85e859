import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shell-quote.js';

describe('shellQuote', () => {
  it('passes any word through a POSIX shell unchanged', () => {
    const words = ["it's", '$HOME', '`id`', 'a b\nc', '"', "''", '\\', '*'];
    const result = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
    expect(result.stdout.split('\0').slice(0, -1)).toEqual(words);
  });
});
