import type { Browser, Locator, Page } from 'playwright-core';

export type SwaggerCredential = string | { clientId: string; clientSecret: string };

/** Swagger UI at `/docs`, driven as a user does: Authorize, then "Try it out" and Execute on one operation. */
export class SwaggerUi {
  private constructor(readonly page: Page) {}

  static async open(browser: Browser, baseUrl: string): Promise<SwaggerUi> {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .information-container').waitFor();
    return new SwaggerUi(page);
  }

  /** Fills each named security scheme in the Authorize dialog (a token, or a client id and secret) and applies it. */
  async authorize(credentials: Record<string, SwaggerCredential>): Promise<void> {
    await this.page.locator('button.authorize').first().click();
    for (const [scheme, credential] of Object.entries(credentials)) {
      const container = this.page
        .locator('.auth-container')
        .filter({ has: this.page.locator('h4', { hasText: new RegExp(`^${scheme}\\b`) }) });
      if (typeof credential === 'string') await container.locator('input').first().fill(credential);
      else {
        await container.locator('input[data-name="clientId"]').fill(credential.clientId);
        await container.locator('input[data-name="clientSecret"]').fill(credential.clientSecret);
      }
      await container.locator('button.authorize').first().click();
      // Applied (for OAuth2: a token was obtained) once the dialog offers to log out.
      await container.getByRole('button', { name: 'Remove authorization' }).waitFor();
    }
    await this.page.locator('.modal-ux .close-modal').click();
  }

  /** Runs one operation through "Try it out" and answers the status code and body Swagger UI shows. */
  async execute(
    method: string,
    path: string,
    fill: { params?: Record<string, string>; body?: unknown } = {},
  ): Promise<{ status: number; body: string }> {
    const operation = this.operation(method, path);
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    for (const [name, value] of Object.entries(fill.params ?? {}))
      await operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
    if (fill.body !== undefined)
      await operation.locator('textarea.body-param__text').fill(JSON.stringify(fill.body, null, 2));
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = operation.locator('.live-responses-table .response').first();
    await response.locator('.response-col_status').waitFor();
    const status = Number((await response.locator('.response-col_status').innerText()).trim().split(/\s/)[0]);
    const body = await response.locator('.response-col_description pre').first().innerText();
    return { status, body };
  }

  private operation(method: string, path: string): Locator {
    return this.page
      .locator(`.opblock-${method.toLowerCase()}`)
      .filter({ has: this.page.locator(`.opblock-summary-path[data-path="${path}"]`) })
      .first();
  }
}
