import { useTranslation } from 'react-i18next';
import { DEFAULT_PLANS } from '@refract/contracts';

/**
 * A plan's name in the page's language. The seeded plans are translated, keyed by their slug
 * and recognised by their seeded name (names are unique, and the API answers only the name);
 * a plan an admin created or renamed shows its own name.
 */
export function usePlanName() {
  const { t } = useTranslation();
  return (name: string) => {
    const seeded = DEFAULT_PLANS.find((plan) => !plan.hidden && plan.name === name);
    return seeded ? t(`planNames.${seeded.slug}`) : name;
  };
}
