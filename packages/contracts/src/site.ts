import { z } from 'zod';

/** What the public pages need to know about this installation. */
export const siteSchema = z.object({
  /** The chat-messenger contact link (CONTACT_URL); null hides it. */
  contactUrl: z.string().url().nullable(),
});

export type Site = z.infer<typeof siteSchema>;
