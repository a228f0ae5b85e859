import { nameKey } from './search-text.js';

/** The tool names a query can select exactly: each name under its lower-case spelling and its name key. */
export class ExactToolNames {
  /** Lower-case name and name key → entry names (first registered first). */
  private readonly byKey = new Map<string, string[]>();
  private readonly names = new Set<string>();

  private static keysOf(name: string): string[] {
    return [...new Set([name.toLowerCase(), nameKey(name)])];
  }

  add(name: string): void {
    this.names.add(name);
    for (const key of ExactToolNames.keysOf(name)) {
      const names = this.byKey.get(key);
      if (names) names.push(name);
      else this.byKey.set(key, [name]);
    }
  }

  remove(name: string): void {
    this.names.delete(name);
    for (const key of ExactToolNames.keysOf(name)) {
      const names = this.byKey.get(key)?.filter((other) => other !== name);
      if (names?.length) this.byKey.set(key, names);
      else this.byKey.delete(key);
    }
  }

  /** The tool a query token names, spelled exactly or as the same identifier in another case or separator style. */
  lookup(token: string): string | undefined {
    if (this.names.has(token)) return token;
    const direct = this.byKey.get(token.toLowerCase());
    if (direct) return direct[0];
    // A plain word names a tool only when spelled exactly; separators or camelCase mark an identifier.
    if (!/[_.-]|\p{Ll}\p{Lu}/u.test(token)) return undefined;
    const key = nameKey(token);
    const separatorsOnly = token
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .join('_');
    return (this.byKey.get(key) ?? this.byKey.get(separatorsOnly))?.[0];
  }

  /** Splits a query into the tools it names exactly and the remaining free text. */
  splitQuery(query: string): { named: string[]; text: string } {
    const named: string[] = [];
    const rest: string[] = [];
    for (const raw of query.split(/[\s,;]+/)) {
      const token = raw.replace(/^[`'"([{<]+|[`'")\]}>.:!?]+$/g, '');
      if (!token) continue;
      const name = this.lookup(token);
      if (name) {
        if (!named.includes(name)) named.push(name);
      } else rest.push(raw);
    }
    return { named, text: rest.join(' ') };
  }
}
