import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

import { MemoryAccessModule } from '../database/access/memory-access.module';
import { ApiKeysRepository } from '../database/api-keys.repository';
import { AuditEventsRepository } from '../database/audit/audit-events.repository';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { AuthGuard } from './auth.guard';
import { KeyRateLimiter } from './rate-limiter';
import { WhoAmIController } from './whoami.controller';

/** API keys, the global AuthGuard that resolves every caller, the admin routes and GET /v1/whoami. */
@Module({
  imports: [MemoryAccessModule],
  controllers: [AdminController, WhoAmIController],
  providers: [
    ApiKeysRepository,
    ApiKeyAuthenticator,
    AuditEventsRepository,
    AdminService,
    { provide: KeyRateLimiter, useValue: new KeyRateLimiter() },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
})
export class AuthModule {}
