import { SetMetadata } from '@nestjs/common';

/**
 * What a route requires (read by AuthGuard). Routes without the decorator need an API key
 * in AUTH_MODE=api_key (fail closed: a new route is protected unless it says otherwise).
 * - `public`: never a credential (GET /health).
 * - `admin`: the admin token in both modes; 404 when no ATRIUM_ADMIN_TOKEN is configured.
 * - `admin-with-api-key`: open in AUTH_MODE=off, the admin token with api_key (config, metrics).
 */
export type RouteAccess = 'public' | 'admin' | 'admin-with-api-key';

export const ROUTE_ACCESS = 'atrium:route-access';

export const Access = (access: RouteAccess): MethodDecorator & ClassDecorator => SetMetadata(ROUTE_ACCESS, access);
