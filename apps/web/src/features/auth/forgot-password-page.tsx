import { Anchor, Button, PasswordInput, Stepper, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { useErrorMessage } from '../../lib/use-error-message';
import { AuthCard } from './auth-card';
import { AuthForm } from './auth-form';
import { EmailField } from './email-field';
import { validatePasswordPair } from './password-rules';
import classes from './forgot-password.module.css';

const prefix = '/api/auth/forgot-password';

/** Three steps: email, the two security answers, a new password; then /login with a notice. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [email, setEmail] = useState('');
  const [answers, setAnswers] = useState(['', '']);
  const [resetToken, setResetToken] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ password?: string; confirmPassword?: string }>(
    {},
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (step === 0) {
      if (!email.trim()) return setError(t('auth.fillAllFields'));
      return run(async () => {
        await api(`${prefix}/verify-email`, { body: { email } });
        setStep(1);
      });
    }
    if (step === 1) {
      if (answers.some((a) => !a.trim())) return setError(t('auth.fillAllFields'));
      return run(async () => {
        const body = { email, answers: answers.map((a) => a.trim().toLowerCase()) };
        const { resetToken: token } = await api<{ resetToken: string }>(
          `${prefix}/verify-answers`,
          { body },
        );
        setResetToken(token);
        setStep(2);
      });
    }
    const errors = validatePasswordPair(password, confirmation, t);
    setFieldErrors(errors);
    if (errors.password || errors.confirmPassword) return;
    return run(async () => {
      await api(`${prefix}/reset`, { body: { email, newPassword: password, resetToken } });
      navigate('/login', { replace: true, state: { notice: 'passwordReset' } });
    });
  }

  const submitLabel = [
    t('auth.forgot.verifyEmail'),
    t('auth.forgot.verifyAnswers'),
    t('auth.forgot.reset'),
  ][step];

  return (
    <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      <AuthForm
        error={error}
        onSubmit={submit}
        footer={
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login" underline="always">
              {t('auth.forgot.backToLogin')}
            </Anchor>
          </Text>
        }
      >
        <Stepper
          active={step}
          size="xs"
          allowNextStepsSelect={false}
          mb="xs"
          classNames={{ step: classes.step, stepBody: classes.stepBody }}
        >
          <Stepper.Step label={t('auth.forgot.stepEmail')} />
          <Stepper.Step label={t('auth.forgot.stepAnswers')} />
          <Stepper.Step label={t('auth.forgot.stepPassword')} />
        </Stepper>
        {step === 0 && <EmailField value={email} onChange={setEmail} />}
        {step === 1 &&
          [t('auth.questions.book'), t('auth.questions.meal')].map((label, i) => (
            <TextInput
              key={label}
              label={label}
              required
              value={answers[i]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setAnswers((all) => all.map((a, j) => (j === i ? value : a)));
              }}
            />
          ))}
        {step === 2 && (
          <>
            <PasswordInput
              label={t('auth.fields.newPassword')}
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldErrors.password}
            />
            <PasswordInput
              label={t('auth.fields.confirmPassword')}
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(e) => setConfirmation(e.currentTarget.value)}
              error={fieldErrors.confirmPassword}
            />
          </>
        )}
        <Button type="submit" loading={busy} fullWidth>
          {submitLabel}
        </Button>
      </AuthForm>
    </AuthCard>
  );
}
