import { z } from 'zod';

/**
 * Rules between fields, such as "securityQuestions, or favBook and favMeal" or "percentage
 * when mode is percentage". A zod refinement alone checks such a rule but leaves no trace in
 * the JSON Schema the OpenAPI document is made from: the document then shows every one of
 * those fields as optional while the server refuses a body without them. Declared here, one
 * rule both checks the fields and states itself in the schema (`allOf`, with `anyOf` and
 * `if`/`then`), so the two cannot drift apart.
 */

type JsonSchema = Record<string, unknown>;

export interface FieldRule<Fields> {
  /** The rule applies only while this field has this value (its default counts when absent). */
  when?: { field: keyof Fields & string; equals: string };
  /** At least one of these sets of fields must be given in full: present and not empty. */
  anyOf: readonly (readonly (keyof Fields & string)[])[];
  /** The refusal's message; by default "is required", at the first field the nearest set lacks. */
  message?: string | ((fields: Fields) => string);
  /** Where the refusal points, when not at that field (`[]`: the body itself). */
  path?: (string | number)[];
}

/** Given: there, and not an empty text or list (texts are trimmed by their own schemas). */
const given = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  value !== '' &&
  !(Array.isArray(value) && value.length === 0);

/**
 * What "given" adds to a field's own JSON Schema: a text with something in it, a list with
 * something in it (for JSON carried in a text, the list inside it). Nothing when the field's
 * own schema already says so.
 */
function givenSchema(field: z.ZodType): JsonSchema | undefined {
  const own = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const inner = own.contentSchema as JsonSchema | undefined;
  if (inner?.type === 'array' && !((inner.minItems as number) >= 1))
    return { contentSchema: { minItems: 1 } };
  if (own.type === 'array' && !((own.minItems as number) >= 1)) return { minItems: 1 };
  const bare = !own.contentSchema && !own.enum && !('const' in own);
  if (own.type === 'string' && bare && !((own.minLength as number) >= 1)) return { pattern: '\\S' };
  return undefined;
}

function ruleSchema(shape: Record<string, z.ZodType>, rule: FieldRule<unknown>): JsonSchema {
  const need = (set: readonly string[]): JsonSchema => {
    const properties = Object.fromEntries(
      set.flatMap((name) => {
        const extra = givenSchema(shape[name]!);
        return extra ? [[name, extra]] : [];
      }),
    );
    return {
      required: [...set],
      ...(Object.keys(properties).length > 0 ? { properties } : {}),
    };
  };
  const sets = rule.anyOf.map((set) => set.join(' and ')).join(', or ');
  const requirement: JsonSchema =
    rule.anyOf.length === 1 ? need(rule.anyOf[0]!) : { anyOf: rule.anyOf.map(need) };
  if (!rule.when) return { description: `Requires ${sets}`, ...requirement };
  const { field, equals } = rule.when;
  const def = shape[field]?._zod.def as { type: string; defaultValue?: unknown } | undefined;
  // A condition on a field's value holds when the field is absent (JSON Schema's `properties`
  // only constrains what is there): right when its default is that value, else it must be sent.
  const byDefault = def?.type === 'default' && def.defaultValue === equals;
  return {
    description: `When ${field} is ${equals}${byDefault ? ' (the default)' : ''}: requires ${sets}`,
    if: { properties: { [field]: { const: equals } }, ...(byDefault ? {} : { required: [field] }) },
    then: requirement,
  };
}

/** The object schema with these rules checked after its fields, and stated in its JSON Schema. */
export function requireFields<T extends z.ZodObject>(
  schema: T,
  rules: readonly FieldRule<z.output<T>>[],
): T {
  const shape = schema.shape as Record<string, z.ZodType>;
  const stated = rules.map((rule) => ruleSchema(shape, rule as FieldRule<unknown>));
  const meta = schema.meta() ?? {};
  return schema
    .superRefine((fields, ctx) => {
      const values = fields as Record<string, unknown>;
      for (const rule of rules) {
        if (rule.when && values[rule.when.field] !== rule.when.equals) continue;
        if (rule.anyOf.some((set) => set.every((name) => given(values[name])))) continue;
        const count = (set: readonly string[]) => set.filter((name) => given(values[name])).length;
        const nearest = rule.anyOf.reduce((best, set) => (count(set) > count(best) ? set : best));
        const missing = nearest.find((name) => !given(values[name]))!;
        ctx.addIssue({
          code: 'custom',
          path: rule.path ?? [missing],
          message:
            typeof rule.message === 'function'
              ? rule.message(fields)
              : (rule.message ?? 'is required'),
        });
      }
    })
    .meta({ ...meta, allOf: [...((meta.allOf as JsonSchema[] | undefined) ?? []), ...stated] });
}

/**
 * A multipart text field that carries JSON (a list of areas, say): parsed, then checked by
 * `schema`. The document shows it as a string whose content is `schema`'s JSON.
 */
export function jsonText<T extends z.ZodType>(schema: T, invalid: string) {
  const content = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete content.$schema;
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: invalid });
        return z.NEVER;
      }
    })
    .pipe(schema)
    .meta({ contentMediaType: 'application/json', contentSchema: content });
}
