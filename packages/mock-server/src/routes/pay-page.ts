// Presses Pay on a checkout page from code, as a person in a browser would: open the page,
// take the token of its form, post the form. For end-to-end tests of a purchase flow.

/** Resolves to the answer of the Pay action; throws if `url` is not an unpaid checkout page. */
export async function payCheckoutPage(url: string): Promise<Response> {
  const page = await fetch(url);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!page.ok || !action || !token) throw new Error(`No unpaid checkout page at ${url} (${page.status})`);
  return fetch(new URL(action, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: token }).toString(),
  });
}
