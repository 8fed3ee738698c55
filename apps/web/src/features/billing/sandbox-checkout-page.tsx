import {
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { CHECKOUT_KEY_HEADER, type SandboxCheckout } from '@refract/contracts';
import { ErrorAlert } from '../../components/error-alert';
import { QueryState } from '../../components/query-state';
import { TestModeBanner } from '../../components/test-mode-notice';
import { api } from '../../lib/api';
import { formatCents, TEST_CARD_VALUES } from '../../lib/format';
import { useErrorMessage } from '../../lib/use-error-message';
import { UserText } from '../../components/user-text';
import { usePlanName } from '../../lib/plan-name';
import { checkoutKeyIn } from '../../lib/checkout-link';

/** Groups of four as the user types: 4242 4242 4242 4242. */
const spaced = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** Goes to an address the server gave: a path of this site in place, another site whole. */
function useGoTo() {
  const navigate = useNavigate();
  return (address: string) =>
    address.startsWith('/')
      ? navigate(address, { replace: true })
      : window.location.assign(address);
}

/** A return address as a link: this site's in place, another site's as a plain link. */
function ReturnLink({ to, children }: { to: string; children: React.ReactNode }) {
  return to.startsWith('/') ? (
    <Button component={Link} to={to} variant="subtle">
      {children}
    </Button>
  ) : (
    <Button component="a" href={to} variant="subtle">
      {children}
    </Button>
  );
}

/**
 * The sandbox provider's checkout: test cards only, clearly in test mode. Opened by its link
 * (the key after `#key=`) or by its signed-in owner.
 */
export function SandboxCheckoutPage() {
  const { t } = useTranslation();
  const planName = usePlanName();
  const errorMessage = useErrorMessage();
  const goTo = useGoTo();
  const { id = '' } = useParams();
  const key = checkoutKeyIn(useLocation().hash);
  const headers = key ? { [CHECKOUT_KEY_HEADER]: key } : undefined;
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '', name: '' });
  const checkout = useQuery({
    queryKey: ['sandbox-checkout', id],
    queryFn: () =>
      api<SandboxCheckout>(`/api/sandbox/checkout/${encodeURIComponent(id)}`, { headers }),
  });
  const pay = useMutation({
    mutationFn: () =>
      api<{ redirect: string }>(`/api/sandbox/checkout/${encodeURIComponent(id)}/pay`, {
        body: card,
        headers,
      }),
    onSuccess: ({ redirect }) => goTo(redirect),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    pay.mutate();
  }

  const field = (key: keyof typeof card) => ({
    value: card[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setCard((c) => ({ ...c, [key]: key === 'cardNumber' ? spaced(value) : value }));
    },
    required: true,
  });

  return (
    <Container size="xs" py="xl">
      <TestModeBanner />
      <QueryState query={checkout}>
        {(c) => (
          <Paper
            withBorder
            radius="lg"
            p={{ base: 'md', sm: 'xl' }}
            component="form"
            onSubmit={submit}
          >
            <Stack>
              <Title order={1} size="h2">
                {t('billing.checkout.title')}
              </Title>
              <Group justify="space-between">
                <Text>
                  <UserText>{planName(c.plan.name)}</UserText> · {t(`billing.${c.billingType}`)}
                </Text>
                <Text fw={700} size="lg">
                  {formatCents(c.amount)}
                </Text>
              </Group>
              {c.status !== 'open' ? (
                <ErrorAlert message={t('errors.checkout_closed')} />
              ) : (
                <>
                  <TextInput
                    label={t('billing.checkout.cardNumber')}
                    inputMode="numeric"
                    autoComplete="cc-number"
                    dir="ltr"
                    placeholder="4242 4242 4242 4242"
                    {...field('cardNumber')}
                  />
                  <SimpleGrid cols={2}>
                    <TextInput
                      label={t('billing.checkout.expiry')}
                      autoComplete="cc-exp"
                      dir="ltr"
                      placeholder="12/30"
                      {...field('expiry')}
                    />
                    <TextInput
                      label={t('billing.checkout.cvc')}
                      inputMode="numeric"
                      autoComplete="cc-csc"
                      dir="ltr"
                      placeholder="123"
                      {...field('cvc')}
                    />
                  </SimpleGrid>
                  <TextInput
                    label={t('billing.checkout.name')}
                    autoComplete="cc-name"
                    {...field('name')}
                  />
                  <Text size="sm" c="dimmed">
                    {t('billing.checkout.testCards', TEST_CARD_VALUES)}
                  </Text>
                  <ErrorAlert message={pay.error ? errorMessage(pay.error) : null} />
                  <Button type="submit" size="md" loading={pay.isPending || pay.isSuccess}>
                    {t('billing.subscribe.pay', { price: formatCents(c.amount) })}
                  </Button>
                  <ReturnLink to={c.cancelUrl}>{t('billing.checkout.cancel')}</ReturnLink>
                </>
              )}
            </Stack>
          </Paper>
        )}
      </QueryState>
    </Container>
  );
}
