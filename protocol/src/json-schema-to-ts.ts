/**
 * A small JSON Schema (2020-12, the subset `z.toJSONSchema` emits) to TypeScript generator, so the protocol's
 * TypeScript bundle comes from the same JSON Schema that other languages consume, without another dependency.
 */

/** What to generate: named definitions, and map types from wire method to params/result definition names. */
export interface TypeScriptBundleInput {
  /** Lines of the file's leading comment. */
  readonly header: readonly string[];
  /** Definitions by name; `$ref`s must point at `#/$defs/<name>`. */
  readonly defs: Record<string, unknown>;
  /** `export type <name> = { "<key>": { params: P; result: R } }` for each map (`params?` when optional). */
  readonly maps: readonly {
    readonly name: string;
    /** The map type's doc comment. */
    readonly description?: string;
    readonly entries: readonly { key: string; params: string; paramsOptional?: boolean; result?: string | undefined }[];
  }[];
}

type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Renders the definitions and maps as TypeScript source; throws on a schema construct it cannot express. */
export function jsonSchemaBundleToTypeScript(input: TypeScriptBundleInput): string {
  const out: string[] = ['/**', ...input.header.map((l) => ` * ${l}`), ' */', ''];
  for (const [name, schema] of Object.entries(input.defs)) {
    if (!IDENTIFIER.test(name)) throw new Error(`Definition name "${name}" is not a TypeScript identifier`);
    const s = asSchema(schema, name);
    out.push(...docComment(s, ''));
    out.push(`export type ${name} = ${typeOf(s, '', name)};`, '');
  }
  for (const map of input.maps) {
    out.push(...docComment({ description: map.description }, ''));
    out.push(`export type ${map.name} = {`);
    for (const e of map.entries) {
      const result = e.result === undefined ? '' : ` result: ${e.result};`;
      out.push(`  ${JSON.stringify(e.key)}: { params${e.paramsOptional ? '?' : ''}: ${e.params};${result} };`);
    }
    out.push('};', '');
  }
  return out.join('\n');
}

function asSchema(value: unknown, where: string): Schema {
  if (value === true) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`Expected a JSON Schema object at ${where}, got ${JSON.stringify(value)}`);
  }
  return value as Schema;
}

function docComment(s: Schema, indent: string): string[] {
  const text = typeof s.description === 'string' ? s.description : undefined;
  if (!text) return [];
  const safe = text.replace(/\*\//g, '*\\/');
  const lines = safe.split('\n');
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`];
}

function typeOf(s: Schema, indent: string, where: string): string {
  if (typeof s.$ref === 'string') return refName(s.$ref, where);
  if ('const' in s) return literal(s.const, where);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? 'never' : s.enum.map((v) => literal(v, where)).join(' | ');
  if (Array.isArray(s.anyOf)) return union(s.anyOf, indent, where);
  if (Array.isArray(s.oneOf)) return union(s.oneOf, indent, where);
  if (Array.isArray(s.allOf))
    return s.allOf.map((x, i) => wrap(typeOf(asSchema(x, `${where}.allOf[${i}]`), indent, where))).join(' & ');
  if (s.not !== undefined && Object.keys(s).filter((k) => k !== 'description').length === 1) return 'never';
  const type = s.type;
  if (Array.isArray(type)) return type.map((t) => typeOf({ ...s, type: t }, indent, where)).join(' | ');
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(s, indent, where);
    case 'object':
      return objectType(s, indent, where);
    case undefined:
      return s.properties !== undefined ? objectType(s, indent, where) : 'unknown';
    default:
      throw new Error(`Unsupported JSON Schema type ${JSON.stringify(type)} at ${where}`);
  }
}

function union(members: unknown[], indent: string, where: string): string {
  if (members.length === 0) return 'never';
  return members.map((x, i) => wrap(typeOf(asSchema(x, `${where}[${i}]`), indent, where))).join(' | ');
}

/** Parenthesises a union or intersection (an operator outside brackets and strings) where it becomes an operand. */
function wrap(t: string): string {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return `(${t})`;
  }
  return t;
}

function arrayType(s: Schema, indent: string, where: string): string {
  if (Array.isArray(s.prefixItems)) {
    const items = s.prefixItems.map((x, i) => typeOf(asSchema(x, `${where}[${i}]`), indent, where));
    const rest =
      s.items === undefined || s.items === false
        ? ''
        : `, ...${wrap(typeOf(asSchema(s.items, where), indent, where))}[]`;
    return `[${items.join(', ')}${rest}]`;
  }
  const item = s.items === undefined ? 'unknown' : typeOf(asSchema(s.items, `${where}[]`), indent, where);
  return `${wrap(item)}[]`;
}

function objectType(s: Schema, indent: string, where: string): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [key, value] of Object.entries(properties)) {
    const p = asSchema(value, `${where}.${key}`);
    lines.push(...docComment(p, inner));
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    lines.push(`${inner}${name}${required.has(key) ? '' : '?'}: ${typeOf(p, inner, `${where}.${key}`)};`);
  }
  const extra = s.additionalProperties;
  let index: string | undefined;
  if (extra === undefined || extra === true) index = 'unknown';
  else if (extra !== false) {
    const t = typeOf(asSchema(extra, `${where}.*`), inner, `${where}.*`);
    // Declared properties must fit the index signature; widen it when they might not.
    index = t === 'unknown' || lines.length === 0 ? t : 'unknown';
  }
  if (index !== undefined) lines.push(`${inner}[key: string]: ${index};`);
  if (lines.length === 0) return '{}';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function refName(ref: string, where: string): string {
  const match = /^#\/\$defs\/([A-Za-z_$][A-Za-z0-9_$]*)$/.exec(ref);
  if (!match) throw new Error(`Unsupported $ref "${ref}" at ${where}: expected #/$defs/<Name>`);
  return match[1]!;
}

function literal(value: unknown, where: string): string {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return JSON.stringify(value);
  throw new Error(`Unsupported literal ${JSON.stringify(value)} at ${where}`);
}
