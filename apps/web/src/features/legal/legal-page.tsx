import { Container, Stack, Text, Title } from '@mantine/core';
import { FullPageSpinner } from '../../app/guards';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '@refract/contracts';
import { hasLegalTexts, loadLegalTexts } from '../../lib/i18n';
import { ContactLink } from '../../components/contact-link';
import { formatDate, formatNumber } from '../../lib/format';
import { usePageTitle } from '../../lib/use-page-title';
import { LEGAL_DOCUMENTS, LEGAL_LAST_UPDATED, type LegalDocument } from './legal-documents';

/** One legal page: title, last-updated date, introduction and numbered sections. */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : 'en';
  // The texts are fetched when a legal page is first opened in a language, not with the app.
  const [, setLoaded] = useState(0);
  useEffect(() => {
    if (!hasLegalTexts(language)) void loadLegalTexts(language).then(() => setLoaded((n) => n + 1));
  }, [language]);
  if (!hasLegalTexts(language)) return <FullPageSpinner />;
  return <LegalText document={document} />;
}

function LegalText({ document }: { document: LegalDocument }) {
  const { t } = useTranslation();
  const key = `legal.${document}`;
  usePageTitle(t(`${key}.title`), t(`${key}.description`));
  return (
    <Container size="md" py="xl" component="article">
      <Stack gap="xs" mb="xl">
        <Title order={1}>{t(`${key}.title`)}</Title>
        <Text c="dimmed" size="sm">
          {t('legal.lastUpdated', {
            // A calendar date, not an instant: shown the same in every time zone.
            date: formatDate(LEGAL_LAST_UPDATED, { dateStyle: 'long', timeZone: 'UTC' }),
          })}
        </Text>
        <Text>{t(`${key}.intro`)}</Text>
      </Stack>
      <Stack component="ol" gap="lg" p={0} m={0} style={{ listStyle: 'none' }}>
        {LEGAL_DOCUMENTS[document].sections.map((section, index) => (
          <li key={section} id={section}>
            <Title order={2} size="h4" mb={6}>
              {`${formatNumber(index + 1)}. ${t(`${key}.sections.${section}.title`)}`}
            </Title>
            <Text>{t(`${key}.sections.${section}.body`)}</Text>
          </li>
        ))}
      </Stack>
      <ContactLink variant="light" mt="xl" />
    </Container>
  );
}
