import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { usersRepository } from '../db/repositories/users-repository.js';
import { AppError } from '../lib/app-error.js';
import { ensureAdmin } from '../services/admin-bootstrap.js';

const USAGE =
  'Usage: npm run admin -- create --email <email> --password <password> [--name <name>]';

/** `npm run admin -- create …`: the ADMIN_EMAIL bootstrap, from the shell, on the configured database. */
async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  if (positionals[0] !== 'create' || !values.email || !values.password) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const result = await ensureAdmin(usersRepository(database.db), {
      email: values.email,
      password: values.password,
      name: values.name,
    });
    console.log(
      `${result.created ? 'Created admin' : 'Promoted existing user to admin'}: ${result.email}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof AppError || err instanceof Error ? err.message : err);
  process.exit(1);
});
