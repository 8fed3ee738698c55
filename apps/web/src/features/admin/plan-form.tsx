import {
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_IMAGE_MAX_BYTES,
  DEFAULT_MEDIA_MAX_BYTES,
  MB,
  SERVICES,
  type Plan,
  type PlanBody,
} from '@refract/contracts';
import { formatBytes } from '../../lib/format';
import { useFormats } from '../../lib/queries';

type Quotas = Record<string, { monthlyQuota: number | ''; annualQuota: number | '' }>;

interface FormState {
  name: string;
  monthlyFee: number | '';
  annualFee: number | '';
  features: string;
  batchMaxFiles: number | '';
  /** Shown in megabytes; the API takes bytes. */
  batchMaxMb: number | '';
  /** The largest file of one upload, in megabytes. */
  imageMaxMb: number | '';
  mediaMaxMb: number | '';
  quotas: Quotas;
}

function fromPlan(plan?: Plan): FormState {
  const quotas: Quotas = {};
  for (const service of SERVICES) {
    const q = plan?.services.find((s) => s.name === service);
    quotas[service] = { monthlyQuota: q?.monthlyQuota ?? '', annualQuota: q?.annualQuota ?? '' };
  }
  return {
    name: plan?.name ?? '',
    monthlyFee: plan?.monthlyFee ?? '',
    annualFee: plan?.annualFee ?? '',
    features: plan?.features.join('\n') ?? '',
    batchMaxFiles: plan?.batchMaxFiles ?? 5,
    batchMaxMb: plan ? Math.round(plan.batchMaxBytes / MB) : 250,
    imageMaxMb: Math.round((plan?.imageMaxBytes ?? DEFAULT_IMAGE_MAX_BYTES) / MB),
    mediaMaxMb: Math.round((plan?.mediaMaxBytes ?? DEFAULT_MEDIA_MAX_BYTES) / MB),
    quotas,
  };
}

/** Every field is a required number; -1 means unlimited. */
function toBody(form: FormState): PlanBody | null {
  const numbers = [
    form.monthlyFee,
    form.annualFee,
    form.batchMaxFiles,
    form.batchMaxMb,
    form.imageMaxMb,
    form.mediaMaxMb,
    ...Object.values(form.quotas).flatMap((q) => [q.monthlyQuota, q.annualQuota]),
  ];
  if (!form.name.trim() || numbers.some((n) => n === '')) return null;
  return {
    name: form.name.trim(),
    monthlyFee: Number(form.monthlyFee),
    annualFee: Number(form.annualFee),
    features: form.features
      .split('\n')
      .map((f) => f.trim())
      .filter(Boolean),
    batchMaxFiles: Number(form.batchMaxFiles),
    batchMaxBytes: Number(form.batchMaxMb) * MB,
    imageMaxBytes: Number(form.imageMaxMb) * MB,
    mediaMaxBytes: Number(form.mediaMaxMb) * MB,
    services: SERVICES.map((name) => ({
      name,
      monthlyQuota: Number(form.quotas[name]!.monthlyQuota),
      annualQuota: Number(form.quotas[name]!.annualQuota),
    })),
  };
}

/** Create or edit a plan; bulk inputs set one quota for every service at once. */
export function PlanForm(props: {
  plan?: Plan;
  busy: boolean;
  onSave(body: PlanBody): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState(() => fromPlan(props.plan));
  const ceilings = useFormats().data?.fileMaxBytes;
  const [bulk, setBulk] = useState<{ monthly: number | ''; annual: number | '' }>({
    monthly: '',
    annual: '',
  });
  const [invalid, setInvalid] = useState(false);

  function applyBulk(field: 'monthlyQuota' | 'annualQuota', value: number | '') {
    if (value === '') return;
    setForm((f) => ({
      ...f,
      quotas: Object.fromEntries(
        Object.entries(f.quotas).map(([s, q]) => [s, { ...q, [field]: value }]),
      ),
    }));
  }

  function setQuota(
    service: string,
    field: 'monthlyQuota' | 'annualQuota',
    value: number | string,
  ) {
    setForm((f) => ({
      ...f,
      quotas: {
        ...f.quotas,
        [service]: { ...f.quotas[service]!, [field]: value === '' ? '' : Number(value) },
      },
    }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = toBody(form);
    setInvalid(!body);
    if (body) props.onSave(body);
  }

  const quotaInput = (
    label: string,
    value: number | '',
    onChange: (v: number | string) => void,
  ) => (
    <NumberInput
      aria-label={label}
      value={value}
      onChange={onChange}
      min={-1}
      allowDecimal={false}
      size="xs"
      w={110}
    />
  );

  return (
    <Paper withBorder radius="lg" p="lg" component="form" onSubmit={submit} noValidate>
      <Stack>
        <Title order={2} size="h4">
          {props.plan
            ? t('admin.plans.editTitle', { name: props.plan.name })
            : t('admin.plans.createTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('admin.plans.name')}
            required
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
          />
          <NumberInput
            label={t('admin.plans.monthlyFee')}
            required
            min={0}
            decimalScale={2}
            prefix="$"
            value={form.monthlyFee}
            onChange={(v) => setForm({ ...form, monthlyFee: v === '' ? '' : Number(v) })}
          />
          <NumberInput
            label={t('admin.plans.annualFee')}
            required
            min={0}
            decimalScale={2}
            prefix="$"
            value={form.annualFee}
            onChange={(v) => setForm({ ...form, annualFee: v === '' ? '' : Number(v) })}
          />
        </SimpleGrid>
        {/* A cycle at 0 on a paid plan is not sold (the server refuses it): say so where fees are set. */}
        <Text size="sm" c="dimmed">
          {t('admin.plans.feeHint')}
        </Text>
        <Textarea
          label={t('admin.plans.features')}
          description={t('admin.plans.featuresHint')}
          autosize
          minRows={2}
          value={form.features}
          onChange={(e) => setForm({ ...form, features: e.currentTarget.value })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('admin.plans.batchMaxFiles')}
            required
            min={1}
            max={1000}
            allowDecimal={false}
            value={form.batchMaxFiles}
            onChange={(v) => setForm({ ...form, batchMaxFiles: v === '' ? '' : Number(v) })}
          />
          <NumberInput
            label={t('admin.plans.batchMaxMb')}
            required
            min={1}
            max={1000 * 1000}
            allowDecimal={false}
            suffix=" MB"
            value={form.batchMaxMb}
            onChange={(v) => setForm({ ...form, batchMaxMb: v === '' ? '' : Number(v) })}
          />
          <NumberInput
            label={t('admin.plans.mediaMaxMb')}
            // The server's ceiling: a plan cannot promise a file this server would refuse.
            description={
              ceilings && t('admin.plans.mediaMaxHint', { size: formatBytes(ceilings.media) })
            }
            required
            min={1}
            max={ceilings ? Math.floor(ceilings.media / MB) : undefined}
            allowDecimal={false}
            suffix=" MB"
            value={form.mediaMaxMb}
            onChange={(v) => setForm({ ...form, mediaMaxMb: v === '' ? '' : Number(v) })}
          />
          <NumberInput
            label={t('admin.plans.imageMaxMb')}
            description={
              ceilings && t('admin.plans.imageMaxHint', { size: formatBytes(ceilings.image) })
            }
            required
            min={1}
            max={ceilings ? Math.floor(ceilings.image / MB) : undefined}
            allowDecimal={false}
            suffix=" MB"
            value={form.imageMaxMb}
            onChange={(v) => setForm({ ...form, imageMaxMb: v === '' ? '' : Number(v) })}
          />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          {t('admin.plans.quotaHint')}
        </Text>
        <Group align="flex-end">
          <NumberInput
            label={t('admin.plans.bulkMonthly')}
            min={-1}
            allowDecimal={false}
            value={bulk.monthly}
            onChange={(v) => setBulk({ ...bulk, monthly: v === '' ? '' : Number(v) })}
            w={180}
          />
          <Button variant="light" onClick={() => applyBulk('monthlyQuota', bulk.monthly)}>
            {t('admin.plans.applyAll')}
          </Button>
          <NumberInput
            label={t('admin.plans.bulkAnnual')}
            min={-1}
            allowDecimal={false}
            value={bulk.annual}
            onChange={(v) => setBulk({ ...bulk, annual: v === '' ? '' : Number(v) })}
            w={180}
          />
          <Button variant="light" onClick={() => applyBulk('annualQuota', bulk.annual)}>
            {t('admin.plans.applyAll')}
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.plans.service')}</Table.Th>
                <Table.Th>{t('admin.plans.monthlyQuota')}</Table.Th>
                <Table.Th>{t('admin.plans.annualQuota')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {SERVICES.map((service) => {
                const label = t(`services.${service}`);
                return (
                  <Table.Tr key={service}>
                    <Table.Td>{label}</Table.Td>
                    <Table.Td>
                      {quotaInput(
                        `${label}: ${t('admin.plans.monthlyQuota')}`,
                        form.quotas[service]!.monthlyQuota,
                        (v) => setQuota(service, 'monthlyQuota', v),
                      )}
                    </Table.Td>
                    <Table.Td>
                      {quotaInput(
                        `${label}: ${t('admin.plans.annualQuota')}`,
                        form.quotas[service]!.annualQuota,
                        (v) => setQuota(service, 'annualQuota', v),
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {invalid && (
          <Text c="red" size="sm" role="alert">
            {t('admin.plans.allRequired')}
          </Text>
        )}
        <Group justify="flex-end">
          {props.plan && (
            <Button variant="default" onClick={props.onCancel}>
              {t('common.cancel')}
            </Button>
          )}
          <Button type="submit" loading={props.busy}>
            {props.plan ? t('admin.plans.save') : t('admin.plans.create')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
