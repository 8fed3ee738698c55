import { z } from 'zod';
import { requireFields } from './field-rules.js';
import { LANGUAGES } from './languages.js';

/** The two fixed security questions, in the order answers are given. */
export const SECURITY_QUESTIONS = [
  'What is your favorite book?',
  'What is your favorite meal?',
] as const;

export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase; short enough that hashing cannot be used to burn CPU. */
export const PASSWORD_MAX_LENGTH = 256;

const requiredText = (max: number) => z.string().trim().min(1, 'is required').max(max);

/** A question as sent, compared with one of SECURITY_QUESTIONS: case and outer spaces aside. */
export const isSameQuestion = (sent: string, question: string) =>
  sent.trim().toLowerCase() === question.toLowerCase();

/** Both questions answered, once each, in either order. */
const securityAnswersSchema = z
  .array(z.object({ question: requiredText(200), answer: requiredText(200) }))
  .length(2, 'needs exactly two answers')
  .superRefine((answers, ctx) => {
    for (const question of SECURITY_QUESTIONS)
      if (!answers.some((answer) => isSameQuestion(answer.question, question)))
        ctx.addIssue({ code: 'custom', message: `needs an answer to "${question}"` });
  })
  .meta({
    description: `One answer to each question: ${SECURITY_QUESTIONS.join(' ')} (in either order; case does not matter)`,
    allOf: SECURITY_QUESTIONS.map((question) => ({
      contains: { properties: { question: { const: question } }, required: ['question'] },
    })),
  });

/**
 * Sign-up accepts the current shape (`securityQuestions`) and the older one (`favBook`,
 * `favMeal`). Format rules that have their own error codes (email, password strength) are
 * checked by the account service; the schema states them for the document (`format`,
 * `minLength`) and only asks that every field is present.
 */
export const registerBodySchema = requireFields(
  z.object({
    email: requiredText(254).meta({ format: 'email' }),
    password: z
      .string()
      .min(1, 'is required')
      .max(PASSWORD_MAX_LENGTH)
      .meta({ minLength: PASSWORD_MIN_LENGTH }),
    name: requiredText(100),
    country: z.string().trim().max(64).optional(),
    securityQuestions: securityAnswersSchema.optional(),
    favBook: requiredText(200).optional(),
    favMeal: requiredText(200).optional(),
  }),
  [{ anyOf: [['securityQuestions'], ['favBook', 'favMeal']] }],
);
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  email: requiredText(254),
  password: z.string().min(1, 'is required').max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const userSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  country: z.string().nullable(),
  currentPlan: z.object({ name: z.string() }).nullable(),
  preferredLanguage: z.enum(LANGUAGES),
});
export type User = z.infer<typeof userSchema>;

export const authResponseSchema = z.object({ token: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const verifyEmailBodySchema = z.object({ email: requiredText(254) });
export const verifyEmailResponseSchema = z.object({ questions: z.array(z.string()) });

export const verifyAnswersBodySchema = z.object({
  email: requiredText(254),
  answers: z.array(requiredText(200)).length(2, 'needs exactly two answers'),
});
export const verifyAnswersResponseSchema = z.object({ resetToken: z.string() });

export const resetPasswordBodySchema = z.object({
  email: requiredText(254),
  newPassword: z
    .string()
    .min(1, 'is required')
    .max(PASSWORD_MAX_LENGTH)
    .meta({ minLength: PASSWORD_MIN_LENGTH }),
  // Optional in the schema so that a missing token gets invalid_reset_token, like a wrong one.
  resetToken: z.string().max(200).optional(),
});

// Any text passes the schema so that another language gets its own code, invalid_language.
export const preferredLanguageBodySchema = z.object({
  language: z.string().meta({ enum: [...LANGUAGES] }),
});
export const preferredLanguageResponseSchema = z.object({ preferredLanguage: z.enum(LANGUAGES) });

export const messageResponseSchema = z.object({ message: z.string() });
