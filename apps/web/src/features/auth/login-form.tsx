import { Anchor, Button, Group, PasswordInput, VisuallyHidden } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AuthResponse, User } from '@refract/contracts';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session/session-context';
import { useErrorMessage } from '../../lib/use-error-message';
import { AuthForm } from './auth-form';
import { EmailField } from './email-field';

/**
 * Email and password; on success the session is stored and `onSignedIn` decides what follows
 * (the login page navigates, a tool page's dialog carries on with the visitor's work).
 */
export function LoginForm(props: {
  onSignedIn(user: User): void;
  notice?: ReactNode;
  footer?: ReactNode;
  /**
   * In a dialog: the email field takes the focus, and recovery opens in another tab so the
   * work on this page is not lost.
   */
  inDialog?: boolean;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { signIn } = useSession();
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
      props.onSignedIn(response.user);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <AuthForm error={error} notice={props.notice} onSubmit={submit} footer={props.footer}>
      <EmailField value={email} onChange={setEmail} autoFocusInDialog={props.inDialog} />
      <PasswordInput
        label={t('auth.fields.password')}
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
      <Group justify="flex-end">
        <Anchor
          component={Link}
          to="/forgot-password"
          size="sm"
          target={props.inDialog ? '_blank' : undefined}
        >
          {t('auth.login.forgot')}
          {props.inDialog && <VisuallyHidden> ({t('accountGate.newTab')})</VisuallyHidden>}
        </Anchor>
      </Group>
      <Button type="submit" loading={busy} fullWidth>
        {t('auth.login.submit')}
      </Button>
    </AuthForm>
  );
}
