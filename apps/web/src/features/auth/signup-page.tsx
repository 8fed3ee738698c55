import { Anchor, Text } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { markNewAccount } from '../../lib/session/new-account';
import { landingFor, nextIn, signInPage } from '../../lib/session/session-context';
import { AuthCard } from './auth-card';
import { SignupForm } from './signup-form';

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const next = nextIn(useLocation().search);
  return (
    <AuthCard title={t('auth.signup.title')} subtitle={t('auth.signup.subtitle')}>
      <SignupForm
        onSignedUp={(user) => {
          markNewAccount(user._id);
          navigate(landingFor(user, next), { replace: true });
        }}
        footer={
          <Text size="sm" ta="center">
            {t('auth.signup.haveAccount')}{' '}
            <Anchor component={Link} to={signInPage('/login', next)} underline="always">
              {t('nav.login')}
            </Anchor>
          </Text>
        }
      />
    </AuthCard>
  );
}
