import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** `{ success: true }`, the answer of several routes (delete, revoke, retire). */
@ApiSchema({ name: 'Success' })
export class SuccessDoc {
  @ApiProperty({ type: Boolean, enum: [true], example: true })
  success: true;
}
