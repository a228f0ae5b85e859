import { describe, expect, it } from 'vitest';
import { buildOrder } from './build-order.js';

describe('buildOrder', () => {
  it('puts the grammars with the most files first, keeping walk order within each grammar', () => {
    const walked = [
      'a/run.sh',
      'a/lib.rs',
      'b/main.c',
      'b/mod.rs',
      'b/notes.md',
      'c/build.sh',
      'c/x.rs',
      'd/readme.md',
      'd/y.rs',
      'e/z.toml',
    ];
    expect(buildOrder(walked)).toEqual([
      'a/lib.rs',
      'b/mod.rs',
      'c/x.rs',
      'd/y.rs',
      'b/notes.md',
      'd/readme.md',
      'e/z.toml',
      'a/run.sh',
      'c/build.sh',
      'b/main.c',
    ]);
  });

  it('keeps the walk order of groups of equal size, and of a single group', () => {
    expect(buildOrder(['q.py', 'p.go', 'o.py', 'n.go'])).toEqual(['q.py', 'o.py', 'p.go', 'n.go']);
    expect(buildOrder(['c.ts', 'a.ts', 'b.ts'])).toEqual(['c.ts', 'a.ts', 'b.ts']);
    expect(buildOrder([])).toEqual([]);
  });

  it('groups by grammar, not by extension', () => {
    // .h is C, .hpp C++, .bash and .sh both Bash.
    expect(buildOrder(['x.hpp', 'y.sh', 'z.h', 'w.bash', 'v.c'])).toEqual(['y.sh', 'w.bash', 'z.h', 'v.c', 'x.hpp']);
  });
});
