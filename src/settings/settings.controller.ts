import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';

import { SettingsService } from './settings.service';

@Controller('v1/memories')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('health')
  health(): { status: 'ok'; config: Record<string, unknown> } {
    return { status: 'ok', config: this.settings.describe() };
  }

  /** The body is checked by SettingsService.apply in the order CONTRACT section 7 fixes. */
  @Put('config')
  @HttpCode(200)
  update(@Body() body: unknown): { applied: string[]; config: Record<string, unknown> } {
    return this.settings.apply(body);
  }
}
