/**
 * The legal pages and their sections in order. The texts are translation
 * keys under `legal.<document>.sections.<section>` in locales/legal/<language>.json.
 */
export const LEGAL_DOCUMENTS = {
  terms: {
    path: '/terms-conditions',
    sections: [
      'acceptance',
      'eligibility',
      'services',
      'accounts',
      'use',
      'intellectualProperty',
      'userContent',
      'payment',
      'refund',
      'liability',
      'warranty',
      'thirdParty',
      'termination',
      'modifications',
      'contact',
    ],
  },
  privacy: {
    path: '/privacy-policy',
    sections: [
      'informationCollected',
      'use',
      'legalBasis',
      'cookies',
      'thirdParties',
      'sharing',
      'security',
      'retention',
      'internationalTransfers',
      'children',
      'rights',
      'links',
      'updates',
      'contact',
    ],
  },
  refund: {
    path: '/refund-policy',
    sections: [
      'scope',
      'nonRefundable',
      'freePlan',
      'cancellation',
      'subscriptions',
      'partialRefunds',
      'technicalErrors',
      'chargedWithoutService',
      'howToReport',
      'review',
      'planChanges',
      'disputes',
      'termination',
      'changes',
      'contact',
    ],
  },
} as const;

export type LegalDocument = keyof typeof LEGAL_DOCUMENTS;

/** The date every legal page shows as its last update. */
export const LEGAL_LAST_UPDATED = '2025-07-05';
