import { describe, expect, it } from 'vitest';
import { NameTable } from './name-table.js';

describe('NameTable', () => {
  it('gives each spelling and each fold one id, and names sharing a fold share its id', () => {
    const table = new NameTable();
    expect([table.nameId('Widget'), table.nameId('widget'), table.nameId('Widget')]).toEqual([0, 1, 0]);
    expect(table.names).toEqual(['Widget', 'widget']);
    expect(table.folds).toHaveLength(1);
    expect(table.foldOf('WIDGET')).toBe(0);
    expect(table.foldOf('widget')).toBe(0);
    expect(table.foldOf('gadget')).toBeUndefined();
  });

  it('finds the stored occurrences spelled like a query, exactly or by fold', () => {
    const table = new NameTable();
    const upper = table.nameId('Widget');
    const lower = table.nameId('widget');
    const other = table.nameId('Gadget');
    const occurrences = Int32Array.from([3, upper * 2 + 1, 10, lower * 2, 20, other * 2, 30, upper * 2]);
    const fold = table.foldOf('Widget')!;
    expect(table.spelledLike(occurrences, 'Widget', true, fold)).toEqual([
      { start: 3, definition: true },
      { start: 30, definition: false },
    ]);
    expect(table.spelledLike(occurrences, 'widget', false, fold).map((occurrence) => occurrence.start)).toEqual([3, 10, 30]);
  });

  it('restores a stored table with the same ids', () => {
    const table = new NameTable();
    table.foldId('plain');
    table.nameId('Widget');
    table.nameId('gadget');
    const restored = new NameTable();
    restored.restore(table.names, table.folds);
    expect(restored.names).toEqual(table.names);
    expect(restored.folds).toEqual(table.folds);
    expect(restored.nameId('gadget')).toBe(table.nameId('gadget'));
    expect(restored.foldOf('WIDGET')).toBe(table.foldOf('WIDGET'));
  });
});
