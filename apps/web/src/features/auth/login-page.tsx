import { Alert, Anchor, Button, Group, PasswordInput, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AuthResponse } from '@refract/contracts';
import { api } from '../../lib/api';
import { landingFor, useSession } from '../../lib/session/session-context';
import { useErrorMessage } from '../../lib/use-error-message';
import { AuthCard } from './auth-card';
import { EmailField } from './email-field';

interface LoginState {
  from?: string;
  notice?: 'passwordReset';
}

export function LoginPage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as LoginState;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim() || !password) return setError(t('auth.fillAllFields'));
    setBusy(true);
    setError(null);
    try {
      const response = await api<AuthResponse>('/api/auth/login', { body: { email, password } });
      signIn(response);
      navigate(landingFor(response.user, state.from), { replace: true });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      error={error}
      notice={
        state.notice === 'passwordReset' && (
          <Alert color="green" icon={<IconCircleCheck size={18} />} role="status">
            {t('auth.forgot.done')}
          </Alert>
        )
      }
      onSubmit={submit}
      footer={
        <Text size="sm" ta="center">
          {t('auth.login.noAccount')}{' '}
          <Anchor component={Link} to="/signup" underline="always">
            {t('nav.signup')}
          </Anchor>
        </Text>
      }
    >
      <EmailField value={email} onChange={setEmail} />
      <PasswordInput
        label={t('auth.fields.password')}
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
      <Group justify="flex-end">
        <Anchor component={Link} to="/forgot-password" size="sm">
          {t('auth.login.forgot')}
        </Anchor>
      </Group>
      <Button type="submit" loading={busy} fullWidth>
        {t('auth.login.submit')}
      </Button>
    </AuthCard>
  );
}
