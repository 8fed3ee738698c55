import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { User } from '@refract/contracts';
import { LoginForm } from './login-form';
import { SignupForm } from './signup-form';

export type AccountGateTab = 'login' | 'signup';

/** The sign-in dialog's two tabs, fetched apart from the first script (account-gate-provider). */
export function AccountGateForms(props: {
  /** Null while the dialog closes. */
  tab: AccountGateTab | null;
  onTabChange(tab: AccountGateTab): void;
  onSignedIn(user: User): void;
}) {
  const { t } = useTranslation();
  return (
    <Tabs value={props.tab} onChange={(next) => next && props.onTabChange(next as AccountGateTab)}>
      <Tabs.List grow>
        <Tabs.Tab value="login">{t('nav.login')}</Tabs.Tab>
        <Tabs.Tab value="signup">{t('nav.signup')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="login" pt="md">
        <LoginForm onSignedIn={props.onSignedIn} inDialog />
      </Tabs.Panel>
      <Tabs.Panel value="signup" pt="md">
        <SignupForm onSignedUp={props.onSignedIn} />
      </Tabs.Panel>
    </Tabs>
  );
}
