import { foldCase } from './identifier-extractor.js';

/**
 * Every identifier spelling and word fold the index has met, each stored once and named by its position, so a file's entry
 * holds small numbers instead of strings.
 */
export class NameTable {
  /** Identifier spellings, by name id. */
  readonly names: string[] = [];
  /** Case folds of identifiers and word tokens, by fold id. */
  readonly folds: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly foldIds = new Map<string, number>();
  /** The fold id of each name, by name id. */
  private readonly nameFold: number[] = [];

  /** The id of a case fold, added when new. */
  foldId(folded: string): number {
    let id = this.foldIds.get(folded);
    if (id === undefined) {
      id = this.folds.length;
      this.folds.push(folded);
      this.foldIds.set(folded, id);
    }
    return id;
  }

  /** The id of an identifier spelling, added (with its fold) when new. */
  nameId(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.nameIds.set(name, id);
      this.nameFold.push(this.foldId(foldCase(name)));
    }
    return id;
  }

  /** The fold id of the query's case fold; undefined when no stored word or identifier folds to it. */
  foldOf(query: string): number | undefined {
    return this.foldIds.get(foldCase(query));
  }

  /** Takes back the spellings and folds of a stored index, keeping their ids (folds first: names refer to them). */
  restore(names: readonly string[], folds: readonly string[]): void {
    for (const folded of folds) this.foldId(folded);
    for (const name of names) this.nameId(name);
  }

  /**
   * The identifier nodes of `occurrences` (pairs of [UTF-16 start, name id * 2 + 1 when a definition]) spelled like the
   * query: the same spelling when `caseSensitive`, else the same fold (`fold`, the query's fold id).
   */
  spelledLike(occurrences: Int32Array, query: string, caseSensitive: boolean, fold: number): Array<{ start: number; definition: boolean }> {
    const found: Array<{ start: number; definition: boolean }> = [];
    for (let i = 0; i < occurrences.length; i += 2) {
      const id = occurrences[i + 1] >> 1;
      if (caseSensitive ? this.names[id] === query : this.nameFold[id] === fold)
        found.push({ start: occurrences[i], definition: (occurrences[i + 1] & 1) === 1 });
    }
    return found;
  }
}
