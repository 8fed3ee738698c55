import { Button, Popover, Radio, Stack } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, isLanguage, type Language } from '@refract/contracts';
import { api } from '../../lib/api';
import { currentLanguage, setLanguage } from '../../lib/i18n';
import { useSession } from '../../lib/session/session-context';

/** A radio choice among the 7 languages; switching applies at once, direction included. */
export function LanguageSelector() {
  const { t } = useTranslation();
  const { user, patchUser } = useSession();
  const [opened, setOpened] = useState(false);
  // The choice shows at once; the language itself switches when its strings have arrived.
  const [choosing, setChoosing] = useState<Language | null>(null);
  const language = currentLanguage();

  async function choose(value: string) {
    if (!isLanguage(value)) return;
    setChoosing(value);
    try {
      await setLanguage(value);
    } finally {
      setChoosing(null);
    }
    setOpened(false);
    if (user) {
      // Saved for next time; the switch has already happened, so a failure is ignored.
      patchUser({ preferredLanguage: value });
      api('/api/user/preferred-language', { body: { language: value } }).catch(() => undefined);
    }
  }

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconLanguage size={18} aria-hidden />}
          onClick={() => setOpened((o) => !o)}
          aria-label={t('nav.language')}
        >
          {LANGUAGE_NAMES[language]}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Radio.Group value={choosing ?? language} onChange={choose} label={t('nav.language')}>
          <Stack gap="xs" mt="xs">
            {LANGUAGES.map((code) => (
              <Radio key={code} value={code} label={LANGUAGE_NAMES[code]} lang={code} />
            ))}
          </Stack>
        </Radio.Group>
      </Popover.Dropdown>
    </Popover>
  );
}
