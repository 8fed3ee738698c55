/**
 * The smallest value a JSON Schema accepts, built only from what the schema says: required
 * properties, types, formats, enums, bounds, patterns, JSON carried in a string
 * (`contentMediaType` + `contentSchema`) and the rules between fields (`allOf`, `anyOf`,
 * `if`/`then`, `contains`). A test sends it to a route to learn whether the route's OpenAPI
 * description and its validator agree: nothing here knows any route.
 */

type Schema = Record<string, unknown>;
type Document = { components?: { schemas?: Record<string, Schema> } };

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Example strings tried, in order, against a `pattern` (the first that matches is used). */
const PATTERN_CANDIDATES = [
  'x',
  'sample',
  '#000000',
  '#00000000',
  '2026-01-31',
  '2026-01-31T00:00:00.000Z',
  '0',
  '1',
  '4242424242424242',
  '12/30',
  '123',
];

let emails = 0;

export class SchemaSampler {
  constructor(private readonly document: Document) {}

  /** A value the schema accepts, with only the properties it requires. */
  sample(schema: unknown): unknown {
    const s = this.normalize(schema);
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return this.pickEnum(s);
    switch (this.type(s)) {
      case 'object':
        return this.object(s);
      case 'array':
        return this.array(s);
      case 'string':
        return this.string(s);
      case 'integer':
        return this.number(s, true);
      case 'number':
        return this.number(s, false);
      case 'boolean':
        return false;
      case 'null':
        return null;
      default:
        return {};
    }
  }

  /**
   * One schema with its $ref followed and its combinators folded in: every `allOf` entry,
   * the first `anyOf`/`oneOf` branch; `if`/`then`/`else` and `contains` kept aside for
   * `object` and `array`.
   */
  normalize(schema: unknown): Schema {
    if (!isObject(schema)) return {};
    let s: Schema = { ...schema };
    if (typeof s.$ref === 'string') {
      const name = s.$ref.replace('#/components/schemas/', '');
      const target = this.document.components?.schemas?.[name];
      if (!target) throw new Error(`unresolved $ref ${s.$ref}`);
      const { $ref: _, ...rest } = s;
      s = merge(this.normalize(target), rest);
    }
    const { allOf, anyOf, oneOf, ...rest } = s;
    s = rest;
    if ('if' in s) {
      s.conditions = [{ if: s.if, then: s.then, else: s.else }];
      delete s.if;
      delete s.then;
      delete s.else;
    }
    if ('contains' in s) {
      s.containsEach = [s.contains];
      delete s.contains;
    }
    for (const part of Array.isArray(allOf) ? allOf : []) s = merge(s, this.normalize(part));
    const branch = [anyOf, oneOf].find(Array.isArray)?.[0];
    if (branch !== undefined) s = merge(s, this.normalize(branch));
    return s;
  }

  private type(s: Schema): string | undefined {
    const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
    if (typeof type === 'string') return type;
    if (s.properties || s.required) return 'object';
    if (s.items || s.containsEach) return 'array';
    return undefined;
  }

  private pickEnum(s: Schema): unknown {
    const excluded = (value: unknown) =>
      isObject(s.not) && (s.not.const === value || (s.not.enum as unknown[])?.includes(value));
    const value = (s.enum as unknown[]).find((v) => !excluded(v));
    if (value === undefined) throw new Error(`no enum value left in ${JSON.stringify(s)}`);
    return value;
  }

  private object(s: Schema): Record<string, unknown> {
    const conditions = (s.conditions ?? []) as { if: unknown; then?: unknown; else?: unknown }[];
    // The conditions are read against the required properties alone (an absent field matches a
    // condition on its value, as JSON Schema's `properties` has it), then the branch they pick
    // is added and the object built again.
    let current = s;
    const base = this.properties(s);
    for (const condition of conditions) {
      const branch = this.matches(condition.if, base) ? condition.then : condition.else;
      if (branch !== undefined) current = merge(current, this.normalize(branch));
    }
    return current === s ? base : this.properties(current);
  }

  private properties(s: Schema): Record<string, unknown> {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const value: Record<string, unknown> = {};
    for (const name of (s.required ?? []) as string[])
      value[name] = this.sample(properties[name] ?? {});
    return value;
  }

  private array(s: Schema): unknown[] {
    const items = this.normalize(s.items);
    const values = ((s.containsEach ?? []) as unknown[]).map((contained) =>
      this.sample(merge(items, this.normalize(contained))),
    );
    while (values.length < ((s.minItems as number | undefined) ?? 0))
      values.push(this.sample(items));
    return values;
  }

  private string(s: Schema): string {
    if (s.contentMediaType === 'application/json' && s.contentSchema !== undefined)
      return JSON.stringify(this.sample(s.contentSchema));
    const min = (s.minLength as number | undefined) ?? 0;
    const max = (s.maxLength as number | undefined) ?? Infinity;
    switch (s.format) {
      case 'email':
        emails += 1;
        return `sample${emails}-${Date.now()}@example.com`;
      case 'uri':
      case 'url':
        return 'https://example.com/';
      case 'date-time':
        return new Date(0).toISOString();
      case 'date':
        return '2026-01-31';
    }
    if (typeof s.pattern === 'string') {
      const pattern = new RegExp(s.pattern, 'u');
      const found = PATTERN_CANDIDATES.map((c) => c.padEnd(min, c.at(-1))).find(
        (c) => pattern.test(c) && c.length <= max,
      );
      if (found === undefined) throw new Error(`no sample string for pattern ${s.pattern}`);
      return found;
    }
    return 'x'.repeat(min);
  }

  private number(s: Schema, integer: boolean): number {
    const step = integer ? 1 : 0.5;
    let value = 1;
    if (typeof s.minimum === 'number' && value < s.minimum) value = s.minimum;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
      value = s.exclusiveMinimum + step;
    if (typeof s.maximum === 'number' && value > s.maximum) value = s.maximum;
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum)
      value = s.exclusiveMaximum - step;
    return integer ? Math.ceil(value) : value;
  }

  /** Enough of JSON Schema to read a condition: required, and const/enum/not per property. */
  private matches(condition: unknown, value: Record<string, unknown>): boolean {
    const s = this.normalize(condition);
    for (const name of (s.required ?? []) as string[]) if (!(name in value)) return false;
    for (const [name, rule] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      if (!(name in value)) continue;
      if (!this.accepts(this.normalize(rule), value[name])) return false;
    }
    return true;
  }

  private accepts(rule: Schema, value: unknown): boolean {
    if ('const' in rule && rule.const !== value) return false;
    if (Array.isArray(rule.enum) && !rule.enum.includes(value)) return false;
    if (isObject(rule.not) && this.accepts(this.normalize(rule.not), value)) return false;
    return true;
  }
}

/** Two schemas that must both hold, as one: required lists and properties joined. */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (key === 'required')
      out.required = [...new Set([...((a.required ?? []) as string[]), ...(value as string[])])];
    else if (key === 'conditions' || key === 'containsEach')
      out[key] = [...((a[key] ?? []) as unknown[]), ...(value as unknown[])];
    else if (key === 'properties') {
      const properties = { ...((a.properties ?? {}) as Record<string, Schema>) };
      for (const [name, schema] of Object.entries(value as Record<string, Schema>))
        properties[name] = properties[name] ? merge(properties[name], schema) : schema;
      out.properties = properties;
    } else if ((key === 'items' || key === 'contentSchema') && isObject(a[key]) && isObject(value))
      out[key] = merge(a[key], value);
    else out[key] = value;
  }
  return out;
}

/**
 * The schema, then one narrowing of it for each other way its rules between fields can be met:
 * each later `anyOf` branch of a rule, and each `if` made to hold (its fields sent with the
 * values it names) and to fail (sent with other values), so that sampling each reaches every
 * documented alternative, not only the first. Rules are read at the top level of the schema (a
 * body's own fields).
 */
export function variantsOf(schema: Schema): Schema[] {
  const rules = Array.isArray(schema.allOf) ? (schema.allOf as Schema[]) : [];
  const variants = [schema];
  rules.forEach((rule, index) => {
    const others = rules.filter((_, other) => other !== index);
    const narrowed = (...replacement: Schema[]) => ({
      ...schema,
      allOf: [...others, ...replacement],
    });
    if (Array.isArray(rule.anyOf))
      for (const branch of rule.anyOf.slice(1))
        variants.push(narrowed({ ...rule, anyOf: [branch] }));
    if (isObject(rule.if)) {
      const named = Object.keys((rule.if.properties ?? {}) as Schema);
      const holds = {
        ...rule.if,
        required: [...((rule.if.required ?? []) as string[]), ...named],
      };
      variants.push(narrowed(holds, ...(isObject(rule.then) ? [rule.then] : [])));
      // And made to fail: each field it names sent with a value it does not name.
      const conditions = (rule.if.properties ?? {}) as Record<string, Schema>;
      for (const [name, condition] of Object.entries(conditions))
        variants.push({
          ...schema,
          allOf: [...rules, { required: [name], properties: { [name]: { not: condition } } }],
        });
    }
  });
  return variants;
}
