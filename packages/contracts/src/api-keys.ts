import { z } from 'zod';

/** A user may hold this many live API keys at once. */
export const MAX_API_KEYS = 10;

/** An API key as every listing shows it: never the key itself, never its hash. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters (e.g. `rf_live_ab12cd`), to recognise it by. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const createApiKeyBodySchema = z.object({
  name: z.string().trim().min(1, 'is required').max(60),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** The answer to creating a key: the only time the full key is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyParamsSchema = z.object({ id: z.string().min(1).max(64) });
