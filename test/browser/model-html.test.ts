import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { generateModelFiles } from '../../src/packages/model-package';
import { allTypesModel, fileNamed, HOSTILE_LABEL, sizedModel } from '../unit/packages/package-support';

/** The documentation page as a reader sees it, in a real Chromium (Debian's, or CHROMIUM_PATH). */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('model documentation page', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    dir = await mkdtemp(path.join(os.tmpdir(), 'sdc-html-'));
  });

  afterAll(async () => {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(html: string) {
    const file = path.join(dir, `page-${Date.now()}-${Math.random().toString(36).slice(2)}.html`);
    await writeFile(file, html);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`file://${file}`);
    return { page, requests: () => requests.filter((url) => url !== `file://${file}`) };
  }

  it('is self-contained: no scripts and no request beyond the page itself', async () => {
    const html = fileNamed(generateModelFiles(allTypesModel()), '.html');
    expect(html).not.toMatch(/<script|<link |<img |url\(|@import/i);
    const { page, requests } = await open(html);
    expect(requests()).toEqual([]);
    await page.close();
  });

  it('draws the tree as an inline SVG with one linked node per placement, beside the component tables', async () => {
    const m = allTypesModel();
    const { page } = await open(fileNamed(generateModelFiles(m), '.html'));
    expect(await page.locator('section.diagram svg a').count()).toBe(2 + 20);
    const [diagram, tables] = await Promise.all([page.locator('section.diagram').boundingBox(), page.locator('main > div').boundingBox()]);
    expect(diagram && tables && diagram.x + diagram.width <= tables.x).toBe(true);
    expect(await page.locator('section.cluster').count()).toBe(2);
    expect(await page.locator('section.cluster tbody tr').count()).toBe(20 + 1);
    await page.close();
  });

  it('shows hostile labels as typed, never as markup', async () => {
    const m = allTypesModel();
    const { page } = await open(fileNamed(generateModelFiles(m), '.html'));
    expect(await page.locator('h1').innerText()).toBe(m.title.replace('\n', ' '));
    const firstRowLabel = await page.locator('section.cluster tbody tr strong').first().innerText();
    expect(firstRowLabel).toBe(`XdString: ${HOSTILE_LABEL.replace('\n', ' ')}`);
    expect(await page.locator('kg').count()).toBe(0);
    await page.close();
  });

  it('renders a 1,000-component model with every node in the diagram', async () => {
    const { page } = await open(fileNamed(generateModelFiles(sizedModel(1000)), '.html'));
    expect(await page.locator('section.diagram svg a').count()).toBe(1 + 100 + 1000);
    await page.close();
  });
});
