/** The body of `POST management/loggers/{name}`: the level to set, or null to inherit it again. */
import { z } from 'zod';
import { LOG_LEVELS } from '../../server/logger';

export const loggerLevelSchema = z.object({
  configuredLevel: z.union([z.enum(LOG_LEVELS), z.null()]).optional(),
});
