import type { SearchHit } from './search-hit.js';

/** Renders results as the model-visible text: a summary line, one line per hit grouped by category, then hints. */
export function formatResults(query: string, results: readonly SearchHit[], truncated: boolean, hints: readonly string[]): string {
  const lines: string[] = [];
  if (results.length === 0) lines.push(`No results for ${JSON.stringify(query)}.`);
  else {
    const counts = new Map<string, number>();
    for (const hit of results) counts.set(hit.result_type, (counts.get(hit.result_type) ?? 0) + 1);
    const summary = [...counts].map(([type, count]) => `${type} ${count}`).join(', ');
    lines.push(
      `${results.length} result${results.length === 1 ? '' : 's'} for ${JSON.stringify(query)} (${summary})${truncated ? ', truncated' : ''}:`,
    );
    let previous = '';
    for (const hit of results) {
      if (previous && hit.result_type !== previous) lines.push('');
      previous = hit.result_type;
      if (hit.result_type === 'path') lines.push(`path ${hit.path}`);
      else {
        const name = hit.name === undefined ? '' : ` ${hit.name}`;
        lines.push(`${hit.result_type} ${hit.path}:${hit.line}:${hit.column}${name} — ${hit.snippet}`);
      }
    }
  }
  if (hints.length > 0) {
    lines.push('');
    for (const hint of hints) lines.push(`Hint: ${hint}`);
  }
  return lines.join('\n');
}
