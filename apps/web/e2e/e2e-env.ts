/** The admin the e2e server creates at start-up (ADMIN_EMAIL), for the admin journeys. */
export const E2E_ADMIN = { email: 'admin@refract.test', password: 'e2e admin password' };
