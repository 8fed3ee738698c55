import {
  isLanguage,
  isSameQuestion,
  PASSWORD_MIN_LENGTH,
  SECURITY_QUESTIONS,
  type LoginBody,
  type RegisterBody,
  type User,
} from '@refract/contracts';
import { AppError, unauthorized } from '../lib/app-error.js';
import { decoyHash, hashSecret, normalizeAnswer, verifySecret } from '../lib/hashing.js';
import type { UserRow, UsersRepository } from '../db/repositories/users-repository.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { TokenService } from './token-service.js';
import { normalizeEmail } from '../lib/email.js';
import { accountSuspended } from '../lib/account-suspended.js';

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export { normalizeEmail } from '../lib/email.js';

export function assertValidEmail(email: string): void {
  if (!EMAIL.test(email)) throw new AppError(400, 'invalid_email', 'Enter a valid email address');
}

export function assertStrongPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new AppError(
      400,
      'weak_password',
      `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
    );
  }
}

/** The name of the plan whose quotas apply to a user now (quota-service's entitlement). */
export type PlanNameOf = (row: UserRow) => Promise<string>;

/** The user as every response shows it: never a hash, an answer or a password. */
function toPublicUser(row: UserRow, planName: string): User {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    isAdmin: row.is_admin === 1,
    country: row.country,
    currentPlan: { name: planName },
    preferredLanguage: isLanguage(row.preferred_language) ? row.preferred_language : 'en',
  };
}

/** Both payload shapes to [book, meal]; questions may come in either order. */
function securityAnswers(body: RegisterBody): [string, string] {
  if (!body.securityQuestions) return [body.favBook!, body.favMeal!];
  const answerTo = (question: string) =>
    body.securityQuestions!.find((q) => isSameQuestion(q.question, question))?.answer;
  const book = answerTo(SECURITY_QUESTIONS[0]);
  const meal = answerTo(SECURITY_QUESTIONS[1]);
  if (!book || !meal) {
    throw new AppError(
      400,
      'validation_failed',
      `Security questions must be: ${SECURITY_QUESTIONS.join(' ')}`,
    );
  }
  return [book, meal];
}

export function accountService(
  users: UsersRepository,
  tokens: TokenService,
  planNameOf: PlanNameOf,
) {
  const publicUser = async (row: UserRow) => toPublicUser(row, await planNameOf(row));

  async function session(row: UserRow) {
    const token = await tokens.sign({ userId: row.id, sessionEpoch: row.session_epoch });
    return { token, user: await publicUser(row) };
  }

  return {
    publicUser,

    async register(body: RegisterBody) {
      const email = normalizeEmail(body.email);
      assertValidEmail(email);
      assertStrongPassword(body.password);
      const [book, meal] = securityAnswers(body);
      const [passwordHash, bookAnswerHash, mealAnswerHash] = await Promise.all([
        hashSecret(body.password),
        hashSecret(normalizeAnswer(book)),
        hashSecret(normalizeAnswer(meal)),
      ]);
      try {
        const row = await users.create({
          email,
          name: body.name.trim(),
          passwordHash,
          country: body.country || null,
          bookAnswerHash,
          mealAnswerHash,
        });
        return session(row);
      } catch (err) {
        if (isUniqueViolation(err))
          throw new AppError(409, 'email_taken', 'An account with this email already exists');
        throw err;
      }
    },

    /** Unknown email and wrong password answer alike, after the same argon2 work. */
    async login(body: LoginBody) {
      const row = await users.findByEmail(normalizeEmail(body.email));
      const ok = await verifySecret(row?.password_hash ?? (await decoyHash()), body.password);
      if (!row || !ok)
        throw new AppError(401, 'invalid_credentials', 'Email or password is incorrect');
      // Only after the password: whether an account is suspended is not told to strangers.
      if (row.suspended_at) throw accountSuspended();
      return session(row);
    },

    /** The user a bearer token stands for, if the token is still good for them. */
    async authenticate(token: string): Promise<UserRow> {
      const claims = await tokens.verify(token);
      const row = claims && (await users.findById(claims.userId));
      if (!row || row.session_epoch !== claims.sessionEpoch)
        throw unauthorized('Your session has ended. Please log in again.');
      return row;
    },

    async setPreferredLanguage(userId: string, language: string) {
      if (!isLanguage(language)) {
        throw new AppError(
          400,
          'invalid_language',
          `Language must be one of en, ar, zh, ja, it, es, de`,
        );
      }
      await users.setPreferredLanguage(userId, language);
      return { preferredLanguage: language };
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
