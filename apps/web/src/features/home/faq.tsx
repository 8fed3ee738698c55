import { Accordion } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { HomeSection } from './home-section';

const QUESTIONS = ['formats', 'free', 'files', 'limits', 'cancel'] as const;

/** Five questions; one open at a time, the first open at first, and the open one can close. */
export function Faq() {
  const { t } = useTranslation();
  return (
    <HomeSection id="faq" title={t('home.faq.title')}>
      <Accordion
        defaultValue={QUESTIONS[0]}
        variant="separated"
        radius="md"
        order={3}
        maw={800}
        mx="auto"
      >
        {QUESTIONS.map((key) => (
          <Accordion.Item key={key} value={key}>
            <Accordion.Control>{t(`home.faq.${key}.question`)}</Accordion.Control>
            <Accordion.Panel>{t(`home.faq.${key}.answer`)}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </HomeSection>
  );
}
