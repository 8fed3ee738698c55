import { Anchor, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { homeFor } from '../../lib/session/session-context';
import { AuthCard } from './auth-card';
import { SignupForm } from './signup-form';

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthCard title={t('auth.signup.title')} subtitle={t('auth.signup.subtitle')}>
      <SignupForm
        onSignedUp={(user) => navigate(homeFor(user), { replace: true })}
        footer={
          <Text size="sm" ta="center">
            {t('auth.signup.haveAccount')}{' '}
            <Anchor component={Link} to="/login" underline="always">
              {t('nav.login')}
            </Anchor>
          </Text>
        }
      />
    </AuthCard>
  );
}
