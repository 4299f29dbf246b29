import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';

import { assertNever, DomainError } from '../common/errors/domain-error';
import { KEY_CHECKED_IN_STATEMENT } from '../common/identity/key-recheck';
import type { AuthenticatedRequest } from '../common/identity/principal';
import { ROUTE_ACCESS, type RouteAccess } from '../common/identity/route-access';
import { pickEnv } from '../env/app-config';
import type { AppEnv } from '../env/env.schema';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { sameSecret } from './api-key-secret';
import { presentedCredential } from './credentials';
import { AuthFailureLimiter, KeyRateLimiter } from './rate-limiter';

/** The 429 of an address past AUTH_FAILURES_PER_MINUTE failed key lookups. */
export const AUTH_FAILURES_MESSAGE = 'too many failed API key lookups from this address';

/**
 * The one place that resolves the caller (global guard, so it runs before every controller
 * guard, pipe and DTO validation). With AUTH_MODE=api_key a key route without a valid key is
 * 401 before anything else is checked, so an unauthenticated caller learns nothing about
 * users, workspaces or memories. The principal it attaches is what the scope parser binds
 * the request's scope to (auth/bind-scope.ts).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly env: Pick<AppEnv, 'AUTH_MODE' | 'ATRIUM_ADMIN_TOKEN' | 'AUTH_FAILURES_PER_MINUTE'>;
  /** Failed key lookups per client address (AUTH_FAILURES_PER_MINUTE). */
  private readonly failures: AuthFailureLimiter;

  constructor(
    private readonly reflector: Reflector,
    config: ConfigService<AppEnv, true>,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly limiter: KeyRateLimiter,
  ) {
    this.env = pickEnv(config, ['AUTH_MODE', 'ATRIUM_ADMIN_TOKEN', 'AUTH_FAILURES_PER_MINUTE']);
    this.failures = new AuthFailureLimiter(this.env.AUTH_FAILURES_PER_MINUTE);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [context.getHandler(), context.getClass()]);
    switch (access) {
      case 'public':
        return true;
      case 'admin':
        this.requireAdminToken(req);
        return true;
      case 'admin-with-api-key':
        if (this.env.AUTH_MODE === 'api_key') this.requireAdminToken(req);
        return true;
      case 'key-or-admin':
        if (this.presentsAdminToken(req)) {
          req.principal = { kind: 'open' };
          req.adminToken = true;
          return true;
        }
        await this.requireKey(req, http.getResponse<Response>(), false);
        return true;
      case undefined:
        await this.requireKey(
          req,
          http.getResponse<Response>(),
          this.reflector.get<boolean | undefined>(KEY_CHECKED_IN_STATEMENT, context.getHandler()) === true,
        );
        return true;
      default:
        return assertNever(access);
    }
  }

  /**
   * `inStatement`: the route's statement re-checks the key (KeyCheckedInStatement), so the key
   * may come from memory; the request carries the KeyRecheck the handler passes down.
   */
  private async requireKey(req: AuthenticatedRequest, res: Response, inStatement: boolean): Promise<void> {
    if (this.env.AUTH_MODE === 'off') {
      req.principal = { kind: 'open' };
      return;
    }
    // An address that has failed too many lookups is refused before its key is looked up.
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const blockedFor = this.failures.wait(address);
    if (blockedFor > 0) {
      res.setHeader('Retry-After', String(blockedFor));
      throw new DomainError('RATE_LIMITED', AUTH_FAILURES_MESSAGE);
    }
    const credential = presentedCredential(req);
    if (credential.kind !== 'token') {
      this.failures.fail(address);
      throw new DomainError('UNAUTHENTICATED');
    }
    const key = inStatement
      ? await this.authenticator.authenticateForStatement(credential.token)
      : await this.authenticator.authenticate(credential.token);
    if (!key) {
      this.failures.fail(address);
      throw new DomainError('UNAUTHENTICATED');
    }
    if (inStatement) {
      const keyId = key.principal.keyId;
      req.keyRecheck = { keyId, revoked: () => this.authenticator.forget(keyId) };
    }
    if (key.rateLimitPerMinute !== null) {
      const wait = this.limiter.take(key.principal.keyId, key.rateLimitPerMinute);
      if (wait > 0) {
        res.setHeader('Retry-After', String(wait));
        throw new DomainError('RATE_LIMITED', `rate limit of ${key.rateLimitPerMinute} requests per minute exceeded for this API key`);
      }
    }
    req.principal = key.principal;
  }

  /** A configured admin token, presented as `Authorization: Bearer` (never in X-API-Key). */
  private presentsAdminToken(req: Request): boolean {
    const expected = this.env.ATRIUM_ADMIN_TOKEN;
    if (!expected) return false;
    const credential = presentedCredential(req);
    return credential.kind === 'token' && credential.via === 'authorization' && sameSecret(credential.token, expected);
  }

  /** Without a configured token the admin routes do not exist (404, as an unknown route). */
  private requireAdminToken(req: Request): void {
    const expected = this.env.ATRIUM_ADMIN_TOKEN;
    if (!expected) throw new DomainError('ROUTE_NOT_FOUND', `Route not found: ${req.method} ${req.path}`);
    const credential = presentedCredential(req);
    // Only `Authorization: Bearer`, as CONTRACT section 10 says; an X-API-Key header is refused.
    if (credential.kind !== 'token' || credential.via !== 'authorization' || !sameSecret(credential.token, expected))
      throw new DomainError('ADMIN_UNAUTHENTICATED');
  }
}
