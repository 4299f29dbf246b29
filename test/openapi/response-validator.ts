import type { Request } from 'express';

import { SchemaValidator, type OpenApiDocument, type OpenApiOperation, type SchemaObject } from './schema-validator';

/**
 * Checks every JSON response an app sends against the OpenAPI document: the operation is
 * found by method and path, the status must be documented for it, and the body must match
 * the documented application/json schema. Requests that match no documented operation
 * (unknown routes, wrong methods) must still answer the `{ error }` envelope.
 */

interface CompiledPath {
  template: string;
  pattern: RegExp;
  /** Static segments win over parameters when several templates match (`/list` before `/{id}`). */
  parameters: number;
  operations: Record<string, OpenApiOperation>;
}

const ENVELOPE: SchemaObject = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
};

const MAX_REPORTED = 25;

interface Violation {
  /** `GET /v1/memories/{id} -> 404`, or the concrete path when no operation matched. */
  route: string;
  url: string;
  problem: string;
}

export class ResponseValidator {
  private readonly validator: SchemaValidator;
  private readonly paths: CompiledPath[];
  private readonly byTemplate = new Map<string, CompiledPath>();
  private readonly found: Violation[] = [];
  checked = 0;

  constructor(document: OpenApiDocument) {
    this.validator = new SchemaValidator(document);
    this.paths = Object.entries(document.paths).map(([template, operations]) => {
      const source = template.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{[^}]+\}/g, '[^/]+');
      const compiled = {
        template,
        pattern: new RegExp(`^${source}/?$`),
        parameters: (template.match(/\{/g) ?? []).length,
        operations,
      };
      this.byTemplate.set(template, compiled);
      return compiled;
    });
    this.paths.sort((a, b) => a.parameters - b.parameters);
  }

  /** The documented path template that served the request (`/v1/memories/{id}`), if any. */
  private templateFor(req: Request): CompiledPath | undefined {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof route === 'string') {
      const template = `${req.baseUrl ?? ''}${route}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const known = this.byTemplate.get(template);
      if (known) return known;
    }
    // No route yet (body-parser errors happen before routing): match the path itself.
    const method = documentedMethod(req.method);
    const candidates = this.paths.filter((p) => p.pattern.test(req.path));
    return candidates.find((p) => p.operations[method]) ?? candidates[0];
  }

  /** Check one JSON response. Never throws: a problem becomes a violation. */
  check(req: Request, status: number, body: unknown): void {
    this.checked++;
    const method = documentedMethod(req.method);
    const url = req.originalUrl.split('?')[0];
    let route = `${req.method} ${url} -> ${status} (no documented operation)`;
    try {
      const path = this.templateFor(req);
      const operation = path?.operations[method];
      if (!path || !operation) {
        // Not a documented operation (unknown route, wrong method): only the error envelope is acceptable.
        this.report(route, url, status >= 400 ? this.validator.validate(ENVELOPE, body) : ['a success status on an undocumented route']);
        return;
      }
      route = `${req.method} ${path.template} -> ${status}`;
      const response = operation.responses[String(status)] ?? operation.responses.default;
      if (!response) {
        this.report(route, url, [`status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`]);
        return;
      }
      const schema = response.content?.['application/json']?.schema;
      if (!schema) {
        this.report(route, url, [`status ${status} documents no application/json body, but the route sent JSON`]);
        return;
      }
      this.report(route, url, this.validator.validate(schema, body));
    } catch (error) {
      this.report(route, url, [`validator failed: ${(error as Error).message}`]);
    }
  }

  private report(route: string, url: string, problems: string[]): void {
    for (const problem of problems) this.found.push({ route, url, problem });
  }

  /** Every violation, as `<route> -> <status>: <json path>: <problem> (<url>)`. */
  get violations(): string[] {
    return this.found.map((v) => `${v.route}: ${v.problem} (${v.url})`);
  }

  /**
   * A readable summary, or undefined when every response matched its documentation. The same
   * problem on the same route is reported once, with a count and one example URL.
   */
  summary(): string | undefined {
    if (this.found.length === 0) return undefined;
    const groups = new Map<string, { count: number; url: string }>();
    for (const v of this.found) {
      const key = `${v.route}: ${v.problem.replace(/\[\d+\]/g, '[n]')}`;
      const group = groups.get(key);
      if (group) group.count++;
      else groups.set(key, { count: 1, url: v.url });
    }
    const lines = [...groups].map(([key, g]) => `  - ${key}${g.count > 1 ? ` (x${g.count})` : ''}, e.g. ${g.url}`);
    const more = lines.length > MAX_REPORTED ? [`  ... and ${lines.length - MAX_REPORTED} more`] : [];
    return [
      `${this.found.length} problem(s) in ${this.checked} checked JSON responses: they do not match the OpenAPI document (/docs-json).`,
      "Fix the documentation (src/openapi, the DTOs, the controllers' @Api* decorators) or report the service:",
      ...lines.slice(0, MAX_REPORTED),
      ...more,
    ].join('\n');
  }
}

/** The operation a request is documented under: HEAD answers as GET does (without the body). */
function documentedMethod(method: string): string {
  return method === 'HEAD' ? 'get' : method.toLowerCase();
}
