import { z } from 'zod';

/** What the public pages need to know about this installation. */
export const siteSchema = z.object({
  /** The chat-messenger contact link (CONTACT_URL); null hides it. */
  contactUrl: z.string().url().nullable(),
  /** Seconds an upload may stay silent (UPLOAD_TIMEOUT) before the server removes it. */
  uploadKeptSeconds: z.number().int(),
});

export type Site = z.infer<typeof siteSchema>;
