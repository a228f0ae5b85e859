import { describe, expect, test } from 'vitest';
import { commandShellLevel } from './shell-level.js';

describe('commandShellLevel', () => {
  test('keeps a whole number from 1 to 998', () => {
    for (const value of ['1', '3', '42', '998']) expect(commandShellLevel(value)).toBe(value);
  });

  test('turns a missing, empty, non-numeric, zero, negative or too high level into 1', () => {
    for (const value of [undefined, '', 'x', '0', '-1', '00', '03', ' 3', '3 ', '1.5', '+2', '999', '1000', '99999999999999999999']) {
      expect(commandShellLevel(value), JSON.stringify(value)).toBe('1');
    }
  });
});
