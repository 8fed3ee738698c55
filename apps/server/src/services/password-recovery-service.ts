import { SECURITY_QUESTIONS } from '@refract/contracts';
import { AppError } from '../lib/app-error.js';
import {
  decoyHash,
  hashSecret,
  normalizeAnswer,
  randomToken,
  sha256,
  verifySecret,
} from '../lib/hashing.js';
import type { PasswordResetsRepository } from '../db/repositories/password-resets-repository.js';
import type { UsersRepository } from '../db/repositories/users-repository.js';
import { assertStrongPassword, normalizeEmail } from './account-service.js';

const RESET_TOKEN_LIFETIME_MS = 15 * 60 * 1000;

const incorrectAnswers = () =>
  new AppError(400, 'incorrect_answers', 'The security answers are not correct');
const invalidResetToken = () =>
  new AppError(
    400,
    'invalid_reset_token',
    'This reset is invalid or has expired. Please start again.',
  );

/**
 * Three steps: email → security answers → new password. The last step needs the single-use,
 * 15-minute token that only correct answers earn (the earlier app reset from an email alone).
 * An unknown email is answered exactly like a known one (the same questions, then
 * incorrect_answers after the same hashing work), so recovery never tells who has an account.
 */
export function passwordRecoveryService(users: UsersRepository, resets: PasswordResetsRepository) {
  return {
    // Everyone has the same two questions, so nothing is looked up.
    async questions() {
      return { questions: [...SECURITY_QUESTIONS] };
    },

    async verifyAnswers(email: string, answers: string[]) {
      const row = await users.findByEmail(normalizeEmail(email));
      const decoy = await decoyHash();
      // Check both answers every time, against decoys when there is no account, so timing
      // tells neither which answer was wrong nor whether the account exists.
      const [bookOk, mealOk] = await Promise.all([
        verifySecret(row?.book_answer_hash ?? decoy, normalizeAnswer(answers[0] ?? '')),
        verifySecret(row?.meal_answer_hash ?? decoy, normalizeAnswer(answers[1] ?? '')),
      ]);
      if (!row?.book_answer_hash || !row.meal_answer_hash || !bookOk || !mealOk)
        throw incorrectAnswers();
      const resetToken = randomToken();
      await resets.issue(
        row.id,
        sha256(resetToken),
        new Date(Date.now() + RESET_TOKEN_LIFETIME_MS),
      );
      return { resetToken };
    },

    async reset(email: string, newPassword: string, resetToken: string) {
      const row = await users.findByEmail(normalizeEmail(email));
      if (!row || !resetToken) throw invalidResetToken();
      assertStrongPassword(newPassword);
      const passwordHash = await hashSecret(newPassword);
      if (!(await resets.consume(row.id, sha256(resetToken)))) throw invalidResetToken();
      await users.replacePassword(row.id, passwordHash);
      return {
        message: 'Your password has been reset and your API keys revoked. You can now log in.',
      };
    },
  };
}

export type PasswordRecoveryService = ReturnType<typeof passwordRecoveryService>;
