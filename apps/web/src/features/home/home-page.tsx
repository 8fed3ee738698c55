import { Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title';
import { Faq } from './faq';
import { Hero } from './hero';
import { HowItWorks } from './how-it-works';
import { PricingSection } from './pricing-section';
import { ToolTabs } from './tool-tabs';
import { WhyUs } from './why-us';

/** The marketing home page. */
export function HomePage() {
  const { t } = useTranslation();
  usePageTitle(t('home.title'), t('home.subtitle'));
  return (
    <>
      <Hero />
      <Container size="lg" pb="xl">
        <ToolTabs />
        <HowItWorks />
        <PricingSection />
        <WhyUs />
        <Faq />
      </Container>
    </>
  );
}
