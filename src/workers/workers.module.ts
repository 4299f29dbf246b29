import { Global, Module } from '@nestjs/common';

import { CpuWork } from './cpu-work.service';

/** The CPU worker pool, one per process, for every feature that has long texts to work on. */
@Global()
@Module({ providers: [CpuWork], exports: [CpuWork] })
export class WorkersModule {}
