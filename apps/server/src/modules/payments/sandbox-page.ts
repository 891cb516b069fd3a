import { CURRENCY_DECIMALS } from '@rpm/contracts';
import { resources, type SupportedLanguage } from '@rpm/i18n';
import type { PaymentAttemptRow } from '../../db/schema.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** An amount in minor units written in the currency's own units (50000 VND, 12.50 USD). */
export function formatMinor(amountMinor: number, currency: PaymentAttemptRow['currency'], language: SupportedLanguage): string {
  const decimals = CURRENCY_DECIMALS[currency];
  return new Intl.NumberFormat(language === 'vi' ? 'vi-VN' : 'en-US', { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(amountMinor / 10 ** decimals);
}

/**
 * The sandbox page's policy: no script at all, its one style element by nonce, and the form may
 * post here and follow the redirect to the tenant's return page.
 */
export function sandboxPagePolicy(nonce: string, returnOrigin: string | undefined): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `form-action 'self'${returnOrigin === undefined ? '' : ` ${returnOrigin}`}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The sandbox's payment page (or its refusal when the token names no payment). */
export function sandboxPage(language: SupportedLanguage, nonce: string, attempt: PaymentAttemptRow | undefined): string {
  const text = resources[language].payments.sandbox;
  const statuses = resources[language].payments.statuses;
  const body =
    attempt === undefined
      ? `<p role="alert">${escape(text.invalid)}</p>`
      : `<dl>
  <dt>${escape(text.order)}</dt><dd data-field="order">${escape(attempt.orderId)}</dd>
  <dt>${escape(text.description)}</dt><dd>${escape(attempt.description)}</dd>
  <dt>${escape(text.amount)}</dt><dd data-field="amount">${escape(formatMinor(attempt.amountMinor, attempt.currency, language))}</dd>
</dl>
${
  attempt.status === 'PENDING'
    ? `<form method="post"><button name="decision" value="pay">${escape(text.pay)}</button> <button name="decision" value="decline">${escape(text.decline)}</button></form>`
    : `<p role="status">${escape(text.done.replace('{{status}}', statuses[attempt.status]))}</p>`
}`;
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(text.title)}</title>
<style nonce="${nonce}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}dt{font-weight:600}dd{margin:0 0 .75rem}button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}</style>
</head><body><h1>${escape(text.title)}</h1><p>${escape(text.intro)}</p>
${body}
</body></html>`;
}
