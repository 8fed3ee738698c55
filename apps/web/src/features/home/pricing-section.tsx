import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PlanGrid } from '../../components/plan-grid';
import { QueryState } from '../../components/query-state';
import { usePlans } from '../../lib/queries';
import { HomeSection } from './home-section';

/** The live plans, exactly as the plans page shows them. */
export function PricingSection() {
  const { t } = useTranslation();
  const plans = usePlans();
  return (
    <HomeSection id="pricing" title={t('home.pricing.title')} subtitle={t('home.pricing.subtitle')}>
      <QueryState query={plans}>{(list) => <PlanGrid plans={list} headingOrder={3} />}</QueryState>
      <Group justify="center" mt="xl">
        <Button component={Link} to="/plans" variant="default">
          {t('home.pricing.compare')}
        </Button>
      </Group>
    </HomeSection>
  );
}
