// The habits people bring from Claude Code, in Chromium through `cove serve`: the composer
// completes `/` commands and `@` paths, a pasted (or dropped) image goes with the prompt and is shown again
// after a reload, the agent's todo_write list is a checklist in the session header, and a
// web_fetch of a loopback page is refused until "Always allow" saves the rule naming the host.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { block, reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, withApp } from './support';

const skip = skipReason();

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
type Block = { type: string; text?: string; source?: { media_type: string; data: string } };

describe('Claude Code habits in the browser', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('the composer completes slash commands and @paths, and the prompt runs the command with the file attached', () =>
    withApp(browser, 'habits-completions', [reply.text('Hello.'), reply.text('Reviewed main.ts.')], async (e2e) => {
      const { page } = e2e;
      writeFiles(e2e.workspace, {
        '.cove/commands/review.md': '---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $ARGUMENTS for bugs.',
        '.cove/commands/broken.md': '---\nthis is not front matter\n---\nbody',
        'src/main.ts': 'export const answer = 42;\n',
      });
      await startSession(e2e, 'hello');
      await page.getByText('Hello.').waitFor();

      const box = messageBox(page);
      await box.click();
      await box.pressSequentially('/');
      const commands = page.getByRole('listbox', { name: 'Commands' });
      await commands.getByRole('option', { name: /\/cost/ }).waitFor();
      const broken = commands.getByRole('option', { name: /\/broken/ });
      assert.match((await broken.textContent()) ?? '', /line 2 of the front matter is not "key: value"/, 'a bad command file is listed with its problem');
      await box.pressSequentially('rev');
      await commands.getByRole('option', { name: '/review <file> Review a file for bugs' }).waitFor();
      assert.equal(await commands.getByRole('option').count(), 1);
      await box.press('Tab');
      assert.equal(await box.inputValue(), '/review ');

      await box.pressSequentially('@src/ma');
      const files = page.getByRole('listbox', { name: 'Files' });
      await files.getByRole('option', { name: '@src/main.ts' }).waitFor();
      await box.press('Enter');
      assert.equal(await box.inputValue(), '/review @src/main.ts ');
      await box.press('Enter');

      await page.getByText('Reviewed main.ts.').waitFor();
      const sent = e2e.model.requests[1]!.body.messages.at(-1)!.content as Block[];
      assert.equal(sent[0]!.text, 'Review @src/main.ts for bugs.');
      assert.match(sent[1]!.text ?? '', /<attached-file mention="@src\/main\.ts">[\s\S]*export const answer = 42;/);
      const prompt = page.getByRole('article', { name: 'Your message' }).last();
      await prompt.getByText('/review @src/main.ts').waitFor();
      await prompt.getByRole('list', { name: 'Attached to this message' }).getByText('@src/main.ts').waitFor();

      // A built-in answers without the model, and its answer stays in the transcript.
      await box.fill('/cost');
      await box.press('Enter');
      await page
        .getByRole('article', { name: 'Your message' })
        .last()
        .getByText(/^This session: \$[\d.]+ · /)
        .waitFor();
      assert.equal(e2e.model.requests.length, 2);
    }));

  test('a pasted image waits as a thumbnail, goes with the prompt as an image block, and shows again after a reload', () =>
    withApp(browser, 'habits-image', [reply.text('Started.'), reply.text('A blue square.')], async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, 'hi');
      await page.getByText('Started.').waitFor();
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0000ff' } })
        .png()
        .toBuffer();
      const box = messageBox(page);
      await box.click();
      await box.evaluate((element, base64) => {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'square.png', { type: 'image/png' }));
        element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
      }, png.toString('base64'));
      const pending = page.getByRole('list', { name: 'Images for the next message' });
      await pending.getByRole('img', { name: 'square.png' }).waitFor();
      // A dropped image joins it; taking it back leaves only the pasted one to send.
      const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
        .gif()
        .toBuffer();
      await page.locator('form.composer').evaluate((element, base64) => {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'dot.gif', { type: 'image/gif' }));
        element.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, gif.toString('base64'));
      await pending.getByRole('img', { name: 'dot.gif' }).waitFor();
      await pending.getByRole('button', { name: 'Remove dot.gif' }).click();
      await pending.getByRole('img', { name: 'dot.gif' }).waitFor({ state: 'detached' });
      await box.fill('what is this?');
      await box.press('Enter');
      await page.getByText('A blue square.').waitFor();
      await pending.waitFor({ state: 'detached' });

      const sent = e2e.model.requests[1]!.body.messages.at(-1)!.content as Block[];
      const images = sent.filter((part) => part.type === 'image');
      assert.equal(images.length, 1);
      const image = images[0];
      assert.equal(image?.source?.media_type, 'image/png');
      assert.deepEqual(Buffer.from(image!.source!.data, 'base64'), png);
      const attached = page.getByRole('list', { name: 'Attached to this message' });
      await attached.getByRole('img', { name: 'square.png' }).waitFor();

      await page.reload();
      await page.getByText('A blue square.').waitFor();
      const shown = page.getByRole('list', { name: 'Attached to this message' }).getByRole('img', { name: 'square.png' });
      await shown.waitFor();
      assert.match((await shown.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    }));

  test('web_fetch asks per host; a loopback page needs the saved rule, which Always allow writes', async () => {
    const pages = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end('<html><head><title>Local docs</title><script>alert(1)</script></head><body><h1>Install</h1><p>Run it.</p></body></html>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/docs`;
    try {
      await withApp(
        browser,
        'habits-web-fetch',
        [
          reply.message([block.toolUse('web_fetch', { url }, { id: 'toolu_once' })]),
          reply.text('It was refused.'),
          reply.message([block.toolUse('web_fetch', { url }, { id: 'toolu_always' })]),
          reply.text('The docs say: run it.'),
        ],
        async (e2e) => {
          const { page } = e2e;
          await startSession(e2e, 'read the local docs');
          const first = page.getByRole('article', { name: 'Permission request: web_fetch' }).last();
          assert.equal(await first.getByRole('textbox', { name: 'Rule to always allow' }).inputValue(), 'web_fetch(domain:127.0.0.1)');
          await first.getByRole('button', { name: 'Allow once' }).click();
          await page.getByText('It was refused.').waitFor();
          const refused = JSON.stringify(e2e.model.requests[1]!.body.messages.at(-1));
          assert.match(refused, /127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/);

          await messageBox(page).fill('try again');
          await messageBox(page).press('Enter');
          const second = page.getByRole('article', { name: 'Permission request: web_fetch' }).last();
          await second.getByRole('button', { name: 'Always allow' }).waitFor();
          await second.getByRole('button', { name: 'Always allow' }).click();
          await page.getByText('The docs say: run it.').waitFor();
          const fetched = JSON.stringify(e2e.model.requests[3]!.body.messages.at(-1));
          assert.match(fetched, /# Install/);
          assert.doesNotMatch(fetched, /alert\(1\)/);
          const saved = JSON.parse(readFileSync(join(e2e.workspace, '.cove', 'settings.local.json'), 'utf8'));
          assert.deepEqual(saved.permissions.allow, ['web_fetch(domain:127.0.0.1)']);
        },
      );
    } finally {
      await new Promise<void>((resolve) => pages.close(() => resolve()));
    }
  });

  test("the agent's todo_write list is a live checklist in the session header, kept across a reload", () =>
    withApp(
      browser,
      'habits-todos',
      [
        reply.message([
          block.toolUse('todo_write', {
            todos: [
              { content: 'Read the failing test', status: 'completed' },
              { content: 'Fix the parser', status: 'in_progress' },
              { content: 'Run the suite', status: 'pending' },
            ],
          }),
        ]),
        reply.text('Working on the parser.'),
      ],
      async (e2e) => {
        const { page } = e2e;
        await startSession(e2e, 'fix the parser');
        await page.getByText('Working on the parser.').waitFor();
        const checklist = page.locator('header.session-header').getByRole('region', { name: 'Task list' });
        await checklist.getByText('1 of 3 done').waitFor();
        const items = checklist.getByRole('listitem');
        assert.deepEqual(await items.allTextContents(), ['☑Read the failing test (done)', '▶Fix the parser (in progress)', '☐Run the suite (to do)']);
        await page.reload();
        await page.locator('header.session-header').getByRole('region', { name: 'Task list' }).getByText('Fix the parser').waitFor();
      },
    ));
});
