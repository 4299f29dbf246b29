/**
 * A small validator for the subset of OpenAPI 3.0 schemas that @nestjs/swagger emits: $ref
 * (to #/components/schemas), type, nullable, enum, format (uuid, date-time), string lengths,
 * numeric ranges, items and array sizes, properties/required/additionalProperties, allOf,
 * anyOf and oneOf. It answers the list of violations, each naming the JSON path.
 *
 * Strict on purpose: an object schema that lists `properties` and says nothing about
 * `additionalProperties` is treated as closed, so a field the documentation does not name
 * (a leaked embedding, an undocumented `error`) is a violation. `additionalProperties: true`
 * opens an object (metadata, config).
 */

export interface SchemaObject {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  allOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  [other: string]: unknown;
}

export interface OpenApiOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaObject; [other: string]: unknown }[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: SchemaObject }> }>;
  [other: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [other: string]: unknown };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, SchemaObject> };
  [other: string]: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const describe = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;

export class SchemaValidator {
  constructor(private readonly document: Pick<OpenApiDocument, 'components'>) {}

  resolve(schema: SchemaObject): SchemaObject {
    let current = schema;
    for (let depth = 0; current.$ref !== undefined; depth++) {
      const match = /^#\/components\/schemas\/(.+)$/.exec(current.$ref);
      const target = match ? this.document.components?.schemas?.[match[1]] : undefined;
      if (!target || depth > 20) throw new Error(`unresolvable $ref ${current.$ref}`);
      current = target;
    }
    return current;
  }

  /** The violations of `value` against `schema`, each as `<path>: <problem>`. */
  validate(schema: SchemaObject, value: unknown, path = '$'): string[] {
    const s = this.resolve(schema);
    if (value === null && s.nullable) return [];
    const errors: string[] = [];

    if (s.allOf) for (const part of s.allOf) errors.push(...this.validate(part, value, path));
    if (s.anyOf && !s.anyOf.some((part) => this.validate(part, value, path).length === 0)) {
      errors.push(`${path}: ${describe(value)} matches none of anyOf (${this.alternatives(s.anyOf, value, path)})`);
    }
    if (s.oneOf) {
      const matching = s.oneOf.filter((part) => this.validate(part, value, path).length === 0).length;
      if (matching !== 1) {
        errors.push(
          matching === 0
            ? `${path}: ${describe(value)} matches none of oneOf (${this.alternatives(s.oneOf, value, path)})`
            : `${path}: ${describe(value)} matches ${matching} of oneOf, exactly one expected`,
        );
      }
    }

    if (s.type !== undefined) {
      const actual = typeOf(value);
      const ok = s.type === 'number' ? actual === 'number' || actual === 'integer' : actual === s.type;
      if (!ok) {
        errors.push(
          `${path}: expected ${s.type}${s.nullable ? ' or null' : ''}, got ${actual === 'null' ? 'null' : `${actual} ${describe(value)}`}`,
        );
        return errors;
      }
    } else if (value === null && !s.allOf && !s.anyOf && !s.oneOf && Object.keys(s).some((k) => k !== 'description' && k !== 'example')) {
      errors.push(`${path}: null is not allowed (not nullable)`);
      return errors;
    }

    if (s.enum && !s.enum.some((allowed) => allowed === value)) {
      errors.push(`${path}: ${describe(value)} is not one of ${describe(s.enum)}`);
    }

    if (typeof value === 'string') {
      if (s.minLength !== undefined && value.length < s.minLength) errors.push(`${path}: shorter than ${s.minLength} characters`);
      if (s.maxLength !== undefined && value.length > s.maxLength) errors.push(`${path}: longer than ${s.maxLength} characters`);
      if (s.format === 'uuid' && !UUID.test(value)) errors.push(`${path}: ${describe(value)} is not a uuid`);
      if (s.format === 'date-time' && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) {
        errors.push(`${path}: ${describe(value)} is not a date-time`);
      }
    }

    if (typeof value === 'number') {
      if (s.minimum !== undefined && value < s.minimum) errors.push(`${path}: ${value} is below the minimum ${s.minimum}`);
      if (s.maximum !== undefined && value > s.maximum) errors.push(`${path}: ${value} is above the maximum ${s.maximum}`);
    }

    if (Array.isArray(value)) {
      if (s.minItems !== undefined && value.length < s.minItems) errors.push(`${path}: fewer than ${s.minItems} items`);
      if (s.maxItems !== undefined && value.length > s.maxItems) errors.push(`${path}: more than ${s.maxItems} items`);
      if (s.items) value.forEach((item, i) => errors.push(...this.validate(s.items as SchemaObject, item, `${path}[${i}]`)));
    }

    if (typeOf(value) === 'object') {
      const record = value as Record<string, unknown>;
      for (const name of s.required ?? []) {
        if (!(name in record)) errors.push(`${path}: required property "${name}" is missing`);
      }
      const properties = s.properties ?? {};
      for (const [name, child] of Object.entries(record)) {
        const propertySchema = properties[name];
        if (propertySchema) errors.push(...this.validate(propertySchema, child, `${path}.${name}`));
        else if (typeof s.additionalProperties === 'object')
          errors.push(...this.validate(s.additionalProperties, child, `${path}.${name}`));
        else if (s.additionalProperties === false || (s.additionalProperties === undefined && s.properties !== undefined)) {
          errors.push(`${path}: property "${name}" is not documented`);
        }
      }
    }
    return errors;
  }

  /** The first problem of each alternative, for a readable oneOf/anyOf message. */
  private alternatives(parts: SchemaObject[], value: unknown, path: string): string {
    return parts
      .map((part) => {
        const name = part.$ref?.split('/').pop() ?? part.type ?? 'schema';
        const [first] = this.validate(part, value, path);
        return `${name}: ${first ?? 'ok'}`;
      })
      .join('; ');
  }
}
