import { describe, expect, it } from 'vitest';
import { billingCyclesOffered, isDowngrade, isFreePlan, monthlyRate } from './plans.js';

describe('billing cycles a plan is sold in', () => {
  it('counts a plan free only when both fees are 0', () => {
    expect(isFreePlan({ monthlyFee: 0, annualFee: 0 })).toBe(true);
    expect(isFreePlan({ monthlyFee: 10, annualFee: 0 })).toBe(false);
    expect(isFreePlan({ monthlyFee: 0, annualFee: 100 })).toBe(false);
  });

  it('offers only the cycles with a price on a paid plan; a free plan runs monthly', () => {
    expect(billingCyclesOffered({ monthlyFee: 4.99, annualFee: 47.9 })).toEqual([
      'monthly',
      'annual',
    ]);
    expect(billingCyclesOffered({ monthlyFee: 10, annualFee: 0 })).toEqual(['monthly']);
    expect(billingCyclesOffered({ monthlyFee: 0, annualFee: 100 })).toEqual(['annual']);
    expect(billingCyclesOffered({ monthlyFee: 0, annualFee: 0 })).toEqual(['monthly']);
  });

  it('compares a plan sold annually only by a twelfth of its annual fee', () => {
    expect(monthlyRate({ monthlyFee: 0, annualFee: 120 })).toBe(10);
    expect(monthlyRate({ monthlyFee: 5, annualFee: 48 })).toBe(5);
    const annualOnly = { planId: 'a', monthlyFee: monthlyRate({ monthlyFee: 0, annualFee: 120 }) };
    const developer = { planId: 'd', monthlyFee: 4.99 };
    expect(
      isDowngrade(
        { ...developer, billingType: 'monthly' },
        { ...annualOnly, billingType: 'annual' },
      ),
    ).toBe(false);
    expect(
      isDowngrade(
        { ...annualOnly, billingType: 'annual' },
        { ...developer, billingType: 'monthly' },
      ),
    ).toBe(true);
  });
});
