/**
 * Account settings in Chromium (issue 25): a new e-mail asks for the current password (the address password
 * resets go to); a wrong one is shown under its field and saves nothing; the right one saves the address and
 * the field goes away. Screenshot in tests/artifacts/.
 */
import { buildUser, unique, type BuiltUser } from '../support/harness';
import { BASE_URL, browserSuite, shot, signedInPage } from './support';

describe('account settings in Chromium', () => {
  const suite = browserSuite();
  let user: BuiltUser;

  beforeAll(async () => {
    user = await buildUser(suite.knex);
  });

  const storedEmail = async () => (await suite.knex('users').where('id', user.id).first('email')).email;

  it('asks for the current password when the e-mail changes, and saves with the right one', async () => {
    const page = await signedInPage(suite.browser, suite.contexts, user);
    await page.goto(`${BASE_URL}/account/settings`);
    const email = page.getByTestId('settings-email');
    await email.waitFor();
    expect(await page.getByTestId('settings-current-password').count()).toBe(0);

    // the same address in another case is no change
    await email.fill(user.email.toUpperCase());
    expect(await page.getByTestId('settings-current-password').count()).toBe(0);

    const moved = `${unique('moved').toLowerCase()}@example.test`;
    await email.fill(moved);
    const password = page.getByTestId('settings-current-password');
    await password.waitFor();
    expect(await page.getByTestId('settings-submit').isDisabled()).toBe(true);

    await password.fill('not-the-password');
    await page.getByTestId('settings-submit').click();
    await page.getByTestId('currentPassword-error').waitFor();
    expect(await page.getByTestId('currentPassword-error').textContent()).toBe(
      'The current password is incorrect.',
    );
    await shot(page, '91-settings-email-password');
    expect(await storedEmail()).toBe(user.email);

    await password.fill(user.password);
    expect(await page.getByTestId('currentPassword-error').count()).toBe(0);
    await page.getByTestId('settings-submit').click();
    await page.getByTestId('settings-success').waitFor();
    await page.getByTestId('settings-current-password').waitFor({ state: 'detached' });
    expect(await storedEmail()).toBe(moved);
  });
});
