import { SimpleGrid } from '@mantine/core';
import type { Plan } from '@refract/contracts';
import { useUserStats } from '../lib/queries';
import { PlanCard } from './plan-card';

/** The plans on offer, three to a row, the user's own marked; the admin plan is never listed. */
export function PlanGrid({ plans, headingOrder }: { plans: Plan[]; headingOrder?: 2 | 3 }) {
  const currentPlanId = useUserStats().data?.plan._id;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
      {plans
        .filter((plan) => plan.name !== 'admin' && !plan.archived)
        .map((plan) => (
          <PlanCard
            key={plan._id}
            plan={plan}
            current={currentPlanId === plan._id}
            headingOrder={headingOrder}
          />
        ))}
    </SimpleGrid>
  );
}
