import { SetMetadata } from '@nestjs/common';

/**
 * What a route requires (read by AuthGuard). Routes without the decorator need an API key
 * in AUTH_MODE=api_key (fail closed: a new route is protected unless it says otherwise).
 * - `public`: never a credential (GET /health).
 * - `admin`: the admin token in both modes; 404 when no ATRIUM_ADMIN_TOKEN is configured.
 * - `admin-with-api-key`: open in AUTH_MODE=off, the admin token with api_key (config, metrics).
 * - `key-or-admin`: a key route (as without the decorator) that the admin token may also call,
 *   in both modes, with wider reach (GET /v1/memories/export: a subject's every row). The
 *   request then carries `adminToken: true`.
 */
export type RouteAccess = 'public' | 'admin' | 'admin-with-api-key' | 'key-or-admin';

export const ROUTE_ACCESS = 'atrium:route-access';

export const Access = (access: RouteAccess): MethodDecorator & ClassDecorator => SetMetadata(ROUTE_ACCESS, access);
