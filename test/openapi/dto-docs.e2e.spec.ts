import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { DiscoveryService } from '@nestjs/core';
import { ModulesContainer } from '@nestjs/core/injector/modules-container.js';
import { getMetadataStorage } from 'class-validator';

import { createTestApp, type TestApp } from '../support/test-app';
import { SchemaValidator, type OpenApiDocument, type SchemaObject } from './schema-validator';

/**
 * The DTOs carry two descriptions of each field: class-validator decorators (what the
 * service accepts) and @ApiProperty (what the document says). This walks every controller
 * method's @Body/@Query/@Param DTO and holds the document to the validators: the same
 * fields (the global pipe whitelists and forbids the rest), and the same lengths, ranges,
 * array sizes, enums and formats.
 */

type Location = 'body' | 'query' | 'path';
interface DtoUse {
  route: string;
  location: Location;
  dto: new () => unknown;
}

const LOCATIONS: Partial<Record<number, Location>> = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.QUERY]: 'query',
  [RouteParamtypes.PARAM]: 'path',
};

function dtoUses(t: TestApp): DtoUse[] {
  const discovery = new DiscoveryService(t.app.get(ModulesContainer));
  const uses: DtoUse[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new () => unknown) | undefined;
    if (!controller) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase();
      const path = `/${[base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].filter((p) => p && p !== '/').join('/')}`
        .replace(/\/+/g, '/')
        .replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number; data?: unknown }>;
      const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as unknown[];
      for (const [key, arg] of Object.entries(args)) {
        const location = LOCATIONS[Number(key.split(':')[0])];
        const dto = types[arg.index];
        if (!location || arg.data !== undefined || typeof dto !== 'function' || dto === Object) continue;
        uses.push({ route: `${method} ${path}`, location, dto: dto as new () => unknown });
      }
    }
  }
  return uses;
}

interface Constraint {
  type: string;
  name: string;
  constraints: unknown[];
  each: boolean;
}

/** class-validator's rules per property (inherited ones included). */
function rules(dto: new () => unknown): Map<string, Constraint[]> {
  const byProperty = new Map<string, Constraint[]>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const list = byProperty.get(m.propertyName) ?? [];
    list.push({ type: m.type, name: m.name ?? m.type, constraints: m.constraints ?? [], each: m.each });
    byProperty.set(m.propertyName, list);
  }
  return byProperty;
}

/** What the document must say for one class-validator rule (on the value, or on its items for `each`). */
function expectedSchema(rule: Constraint): Record<string, unknown> | undefined {
  const [a, b] = rule.constraints as [number, number];
  switch (rule.name) {
    case 'isLength':
      return { minLength: a, maxLength: b };
    case 'maxLength':
      return { maxLength: a };
    case 'min':
      return { minimum: a };
    case 'max':
      return { maximum: a };
    case 'arrayMinSize':
      return { minItems: a };
    case 'arrayMaxSize':
      return { maxItems: a };
    case 'isIn':
      return { enum: [...(rule.constraints[0] as unknown[])] };
    case 'isUuid':
      return { type: 'string', format: 'uuid' };
    case 'isInt':
      return { type: 'integer' };
    case 'isNumber':
      return { type: 'number' };
    case 'isBoolean':
      return { type: 'boolean' };
    case 'isArray':
      return { type: 'array' };
    case 'isString':
      return { type: 'string' };
    default:
      return undefined;
  }
}

describe('DTOs and their documentation', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let validator: SchemaValidator;
  let uses: DtoUse[];

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http().get('/docs-json')).body as OpenApiDocument;
    validator = new SchemaValidator(doc);
    uses = dtoUses(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The documented schema of each field of one DTO use, and which are required. */
  function documented(use: DtoUse): { fields: Map<string, SchemaObject>; required: Set<string> } {
    const [method, path] = use.route.split(' ');
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`${use.route} is not documented`);
    if (use.location === 'body') {
      const body = validator.resolve(operation.requestBody?.content?.['application/json']?.schema ?? {});
      return { fields: new Map(Object.entries(body.properties ?? {})), required: new Set(body.required ?? []) };
    }
    const params = (operation.parameters ?? []).filter((p) => p.in === use.location);
    return {
      fields: new Map(params.map((p) => [p.name, validator.resolve(p.schema ?? {})])),
      required: new Set(params.filter((p) => p.required).map((p) => p.name)),
    };
  }

  it('finds the DTO of every body, query and path', () => {
    const routes = uses.map((u) => `${u.route} ${u.location}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'post /v1/memories/ingest body',
        'get /v1/memories/list query',
        'delete /v1/memories/{id}/grants/{grantee_agent_id} path',
        'put /v1/agents/trust body',
      ]),
    );
    expect(uses.length).toBeGreaterThanOrEqual(25);
  });

  it('documents exactly the fields each DTO accepts', () => {
    const problems: string[] = [];
    for (const use of uses) {
      const accepted = [...rules(use.dto).keys()].sort();
      const fields = [...documented(use).fields.keys()].sort();
      if (JSON.stringify(accepted) !== JSON.stringify(fields)) {
        problems.push(`${use.route} ${use.location} (${use.dto.name}): accepts ${accepted.join(',')}; documents ${fields.join(',')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("documents each field's validation: lengths, ranges, array sizes, enums, formats, required", () => {
    const problems: string[] = [];
    for (const use of uses) {
      const { fields, required } = documented(use);
      for (const [property, list] of rules(use.dto)) {
        const schema = fields.get(property);
        if (!schema) continue; // reported by the test above
        const where = `${use.route} ${use.location} ${property}`;
        const optional = list.some((r) => r.type === 'conditionalValidation');
        const validated = list.some((r) => expectedSchema(r) !== undefined);
        // Only fields class-validator itself requires are checked here; the scope fields
        // (@Allow, parsed by parseMemoryScope) document their own requirement.
        if (validated && !optional && !required.has(property)) problems.push(`${where}: required by the DTO, optional in the document`);
        if (optional && required.has(property)) problems.push(`${where}: optional in the DTO, required in the document`);
        for (const rule of list) {
          const expected = expectedSchema(rule);
          if (!expected) continue;
          const target = rule.each ? validator.resolve(schema.items ?? {}) : schema;
          for (const [key, value] of Object.entries(expected)) {
            if (JSON.stringify(target[key]) !== JSON.stringify(value)) {
              problems.push(
                `${where}: ${rule.name} wants ${key}=${JSON.stringify(value)}, the document says ${JSON.stringify(target[key])}`,
              );
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
