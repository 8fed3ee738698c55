import { Anchor, Button, Divider, PasswordInput, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH, SECURITY_QUESTIONS, type AuthResponse } from '@refract/contracts';
import { api } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';
import { homeFor, useSession } from '../../lib/session/session-context';
import { useErrorMessage } from '../../lib/use-error-message';
import { AuthCard } from './auth-card';
import { EmailField } from './email-field';
import { validatePasswordPair } from './password-rules';

const EMPTY = { name: '', email: '', password: '', confirmPassword: '', favBook: '', favMeal: '' };
type Field = keyof typeof EMPTY;

export function SignupPage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [form, setForm] = useState(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const setField = (field: Field, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setFieldErrors((errors) => ({ ...errors, [field]: undefined }));
  };
  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setField(field, e.currentTarget.value);

  function validate(): Partial<Record<Field, string>> {
    const errors: Partial<Record<Field, string>> = {};
    for (const field of Object.keys(EMPTY) as Field[]) {
      if (!form[field].trim()) errors[field] = t('validation.required');
    }
    if (form.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) {
      errors.email = t('errors.invalid_email');
    }
    return { ...errors, ...validatePasswordPair(form.password, form.confirmPassword, t) };
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = validate();
    setFieldErrors(errors);
    if (Object.values(errors).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      const response = await api<AuthResponse>('/api/auth/register', {
        body: {
          name: form.name,
          email: form.email,
          password: form.password,
          // Answers are compared case-insensitively; the spec sends them lowercased.
          securityQuestions: [
            { question: SECURITY_QUESTIONS[0], answer: form.favBook.trim().toLowerCase() },
            { question: SECURITY_QUESTIONS[1], answer: form.favMeal.trim().toLowerCase() },
          ],
        },
      });
      // The new account keeps the language its owner was already using as a visitor; saving it
      // needs the token signIn stores, and a failure only costs the choice on another device.
      const language = currentLanguage();
      signIn({ ...response, user: { ...response.user, preferredLanguage: language } });
      if (response.user.preferredLanguage !== language) {
        api('/api/user/preferred-language', { body: { language } }).catch(() => undefined);
      }
      navigate(homeFor(response.user), { replace: true });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title={t('auth.signup.title')}
      subtitle={t('auth.signup.subtitle')}
      error={error}
      onSubmit={submit}
      footer={
        <Text size="sm" ta="center">
          {t('auth.signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login" underline="always">
            {t('nav.login')}
          </Anchor>
        </Text>
      }
    >
      <TextInput
        label={t('auth.fields.name')}
        autoComplete="name"
        required
        value={form.name}
        onChange={set('name')}
        error={fieldErrors.name}
      />
      <EmailField
        value={form.email}
        onChange={(email) => setField('email', email)}
        error={fieldErrors.email}
      />
      <PasswordInput
        label={t('auth.fields.password')}
        description={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        autoComplete="new-password"
        required
        value={form.password}
        onChange={set('password')}
        error={fieldErrors.password}
      />
      <PasswordInput
        label={t('auth.fields.confirmPassword')}
        autoComplete="new-password"
        required
        value={form.confirmPassword}
        onChange={set('confirmPassword')}
        error={fieldErrors.confirmPassword}
      />
      <Divider label={t('auth.securityQuestions')} labelPosition="center" mt="xs" />
      <TextInput
        label={t('auth.questions.book')}
        required
        value={form.favBook}
        onChange={set('favBook')}
        error={fieldErrors.favBook}
      />
      <TextInput
        label={t('auth.questions.meal')}
        required
        value={form.favMeal}
        onChange={set('favMeal')}
        error={fieldErrors.favMeal}
      />
      <Button type="submit" loading={busy} fullWidth mt="xs">
        {t('auth.signup.submit')}
      </Button>
    </AuthCard>
  );
}
