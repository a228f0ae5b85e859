import { readFileSync } from 'node:fs';

/** How a malformed case builds its arguments at run time. */
export interface MalformedGenerator {
  kind: 'huge-string' | 'huge-key' | 'many-fields' | 'deep-json' | 'js-value';
  field?: string;
  bytes?: number;
  count?: number;
  depth?: number;
  shape?: 'array' | 'object';
  asText?: boolean;
  value?: string;
}

/** One entry of `__fixtures__/malformed-arguments.json`. */
export interface MalformedCase {
  id: string;
  tool: string;
  expect: 'invalid_arguments';
  args?: unknown;
  json?: string;
  text?: string;
  generate?: MalformedGenerator;
  base?: Record<string, unknown>;
  note?: string;
}

/** Loads the corpus with JSON.parse, so `__proto__` keys stay own properties. */
export function loadMalformedCases(): MalformedCase[] {
  const file = new URL('../__fixtures__/malformed-arguments.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { cases: MalformedCase[] }).cases;
}

function deepText(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function deepValue(depth: number, shape: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = shape === 'array' ? [value] : { a: value };
  return value;
}

function jsValue(name: string, base: Record<string, unknown>): unknown {
  switch (name) {
    case 'NaN':
      return Number.NaN;
    case 'Infinity':
      return Number.POSITIVE_INFINITY;
    case 'bigint':
      return 10n;
    case 'function':
      return () => 'echo hi';
    case 'symbol':
      return Symbol('echo hi');
    case 'string-object':
      return new String('echo hi');
    case 'class-instance': {
      class Arguments {}
      return Object.assign(new Arguments(), base);
    }
    case 'map':
      return new Map(Object.entries(base));
    default:
      throw new Error(`unknown js-value ${name}`);
  }
}

/** Builds the arguments of a case (an object, or a string for raw-text cases). */
export function buildMalformedArguments(entry: MalformedCase): unknown {
  if (entry.json !== undefined) return JSON.parse(entry.json);
  if (entry.text !== undefined) return entry.text;
  if (!entry.generate) return entry.args;
  const spec = entry.generate;
  const base = entry.base ?? {};
  switch (spec.kind) {
    case 'huge-string':
      return { ...base, [spec.field!]: 'x'.repeat(spec.bytes!) };
    case 'huge-key':
      return { ...base, ['k'.repeat(spec.bytes!)]: 1 };
    case 'many-fields': {
      const args: Record<string, unknown> = { ...base };
      for (let index = 0; index < spec.count!; index++) args[`field_${index}`] = index;
      return args;
    }
    case 'deep-json': {
      if (spec.asText) {
        const prefix = JSON.stringify(base).slice(0, -1);
        return `${prefix}${prefix.length > 1 ? ',' : ''}${JSON.stringify(spec.field)}:${deepText(spec.depth!, spec.shape!)}}`;
      }
      return { ...base, [spec.field!]: deepValue(spec.depth!, spec.shape!) };
    }
    case 'js-value':
      return spec.field ? { ...base, [spec.field]: jsValue(spec.value!, base) } : jsValue(spec.value!, base);
  }
}

/** Names of the properties of the built-in prototypes, to prove nothing was polluted. */
export function prototypeFingerprint(): string {
  const names = (target: object) => Reflect.ownKeys(target).map(String).sort().join(',');
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map(names).join('|');
}
