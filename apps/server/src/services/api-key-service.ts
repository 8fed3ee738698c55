import { MAX_API_KEYS, type ApiKey, type CreatedApiKey } from '@refract/contracts';
import type { ApiKeyRow, ApiKeysRepository } from '../db/repositories/api-keys-repository.js';
import type { UserRow } from '../db/repositories/users-repository.js';
import { AppError, notFound } from '../lib/app-error.js';
import { randomToken, sha256 } from '../lib/hashing.js';

/** Every key starts so; it tells a key from a session token, and secret scanners can spot it. */
export const API_KEY_PREFIX = 'rf_live_';
/** Characters of the key shown in listings: the fixed prefix and six random ones. */
const SHOWN_LENGTH = API_KEY_PREFIX.length + 6;
/** lastUsedAt is written at most this often per key, so busy keys do not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

export const looksLikeApiKey = (credential: string) => credential.startsWith(API_KEY_PREFIX);

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/**
 * API keys: 256 random bits shown once at creation. Only their SHA-256 is stored (like the
 * password-reset tokens: a fast hash is enough for a secret nobody can guess).
 */
export function apiKeyService(keys: ApiKeysRepository, clock: () => Date = () => new Date()) {
  return {
    async create(userId: string, name: string): Promise<CreatedApiKey> {
      const key = `${API_KEY_PREFIX}${randomToken(32)}`;
      const row = await keys.createWithin(
        { userId, name, prefix: key.slice(0, SHOWN_LENGTH), keyHash: sha256(key) },
        MAX_API_KEYS,
      );
      if (!row) {
        throw new AppError(
          409,
          'api_key_limit_reached',
          `You can hold at most ${MAX_API_KEYS} API keys. Revoke one to create another.`,
        );
      }
      return { ...toApiKey(row), key };
    },

    async list(userId: string): Promise<ApiKey[]> {
      return (await keys.listByUser(userId)).map(toApiKey);
    },

    async revoke(userId: string, id: string): Promise<void> {
      // Someone else's key answers like a missing one: ids are not confirmed to strangers.
      if (!(await keys.delete(userId, id))) throw notFound('No such API key');
    },

    /** The owner of a live key; 401 invalid_api_key for an unknown or revoked one. */
    async authenticate(key: string): Promise<UserRow> {
      const found = looksLikeApiKey(key) ? await keys.findWithOwner(sha256(key)) : undefined;
      if (!found)
        throw new AppError(401, 'invalid_api_key', 'This API key is not valid or was revoked');
      const now = clock();
      const last = found.lastUsedAt ? Date.parse(found.lastUsedAt) : 0;
      if (now.getTime() - last >= TOUCH_INTERVAL_MS)
        await keys.touch(found.keyId, now.toISOString());
      return found.user;
    },
  };
}

export type ApiKeyService = ReturnType<typeof apiKeyService>;
