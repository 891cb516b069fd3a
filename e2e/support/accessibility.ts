import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core in the browser: the library is a plain script evaluated in the page (through the
 * DevTools protocol, so the console's Content-Security-Policy does not block it), then run on the
 * whole document against the WCAG 2.x A and AA rules.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts a page may not have: a screen-reader or keyboard user is blocked, or text is unreadable. */
export const BLOCKING_IMPACTS = ['serious', 'critical'] as const;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; summary: string; html: string }[];
}

interface AxeResultShape {
  violations: {
    id: string;
    impact?: string | null;
    help: string;
    tags: string[];
    nodes: { target: unknown[]; failureSummary?: string; html: string }[];
  }[];
}

/** Runs axe on the page as it is now; returns the violations of the given impacts. */
export async function axeViolations(
  page: Page,
  impacts: readonly string[] = BLOCKING_IMPACTS,
): Promise<AxeViolation[]> {
  // The page as a person sees it: rendered in its language, with its title (not mid-navigation).
  await page.waitForFunction(() => document.documentElement.lang !== '' && document.title !== '');
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe;
    return axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
  });
  return (result as AxeResultShape).violations
    // Rules axe marks experimental are off in its default run too: not yet settled readings of WCAG.
    .filter((violation) => impacts.includes(violation.impact ?? '') && !violation.tags.includes('experimental'))
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.map(String),
        summary: node.failureSummary ?? '',
        html: node.html.slice(0, 200),
      })),
    }));
}

/** One readable block per violation, for a failing test's message. */
export function formatViolations(where: string, violations: readonly AxeViolation[]): string {
  return violations
    .map((violation) =>
      [
        `${where}: [${violation.impact ?? '?'}] ${violation.id}: ${violation.help}`,
        ...violation.nodes.slice(0, 8).map((node) => `    ${node.target.join(' ')}\n      ${node.html}\n      ${node.summary.replace(/\n/g, '\n      ')}`),
        violation.nodes.length > 8 ? `    ... and ${String(violation.nodes.length - 8)} more` : '',
      ]
        .filter((line) => line !== '')
        .join('\n'),
    )
    .join('\n');
}

/** How far the page scrolls sideways: 0 when nothing sticks out past the window. */
export async function horizontalOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = window.innerWidth;
    const overflow = root.scrollWidth - width;
    const culprits: string[] = [];
    if (overflow > 0) {
      // The outermost elements that reach past the right edge, to say what to fix.
      for (const element of Array.from(document.body.querySelectorAll('*'))) {
        const rect = element.getBoundingClientRect();
        if (rect.right <= width + 0.5 || rect.width === 0) continue;
        const parent = element.parentElement;
        if (parent && parent.getBoundingClientRect().right > width + 0.5) continue;
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${Array.from(element.classList).slice(0, 3).join('.')}`;
        culprits.push(`${name} right=${String(Math.round(rect.right))} "${element.textContent.trim().slice(0, 40)}"`);
        if (culprits.length >= 8) break;
      }
    }
    return { overflow, culprits };
  });
}
