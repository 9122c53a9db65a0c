// Screenshot of an HTML report for the README:
//   node bin/run-ts.mjs test/browser/screenshot.ts <report.html> <out.png> [question-id strategy]
// Optionally clicks one matrix cell first, so the picture shows a trace too.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from './chromium.ts';

const [html, out, question, strategy] = process.argv.slice(2);
if (!html || !out) {
  console.error('usage: screenshot.ts <report.html> <out.png> [question-id strategy]');
  process.exit(2);
}
const context = await launchChromium();
try {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1100, height: 1500 });
  await page.goto(pathToFileURL(resolve(html)).href);
  if (question && strategy) {
    await page.click(`table.matrix button[data-q="${question}"][data-s="${strategy}"]`);
    await page.waitForSelector('#detail.open');
  }
  await page.screenshot({ path: out, fullPage: false });
} finally {
  await context.close();
}
