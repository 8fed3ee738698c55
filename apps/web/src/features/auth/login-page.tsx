import { Alert, Anchor, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { landingFor, nextIn, signInPage } from '../../lib/session/session-context';
import { AuthCard } from './auth-card';
import { LoginForm } from './login-form';

interface LoginState {
  notice?: 'passwordReset';
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state ?? {}) as LoginState;
  const next = nextIn(location.search);

  return (
    <AuthCard title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <LoginForm
        onSignedIn={(user) => navigate(landingFor(user, next), { replace: true })}
        notice={
          state.notice === 'passwordReset' && (
            <Alert color="green" icon={<IconCircleCheck size={18} />} role="status">
              {t('auth.forgot.done')}
            </Alert>
          )
        }
        footer={
          <Text size="sm" ta="center">
            {t('auth.login.noAccount')}{' '}
            <Anchor component={Link} to={signInPage('/signup', next)} underline="always">
              {t('nav.signup')}
            </Anchor>
          </Text>
        }
      />
    </AuthCard>
  );
}
