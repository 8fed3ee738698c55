import { Button, Divider, PasswordInput, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PASSWORD_MIN_LENGTH,
  SECURITY_QUESTIONS,
  type AuthResponse,
  type User,
} from '@refract/contracts';
import { api } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';
import { useSession } from '../../lib/session/session-context';
import { useErrorMessage } from '../../lib/use-error-message';
import { AuthForm } from './auth-form';
import { EmailField } from './email-field';
import { validatePasswordPair } from './password-rules';

const EMPTY = { name: '', email: '', password: '', confirmPassword: '', favBook: '', favMeal: '' };
type Field = keyof typeof EMPTY;

/**
 * A new account, signed in at once (there is no email to confirm); `onSignedUp` decides what
 * follows (the sign-up page goes home, a tool page's dialog carries on with the visitor's work).
 */
export function SignupForm(props: { onSignedUp(user: User): void; footer?: ReactNode }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const { signIn } = useSession();
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
          // Answers are compared case-insensitively; they are sent lowercased too.
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
      props.onSignedUp(response.user);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <AuthForm error={error} onSubmit={submit} footer={props.footer}>
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
    </AuthForm>
  );
}
