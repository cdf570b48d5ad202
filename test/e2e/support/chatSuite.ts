import path from 'node:path';
import type { Browser } from 'playwright-core';
import { Artifacts } from './cards';
import { ChatPage } from './chatPage';
import { launchChromium } from './chromium';
import { type E2eStack, startE2eStack } from './stack';

/** What a suite of {@link chatSuite} reads: the stack and Alex's page, once started. */
export interface ChatSuite {
  stack(): E2eStack;
  page(): ChatPage;
}

/**
 * Starts, for the suite it is called in, the stack and Alex's chat page in headless Chromium, its
 * steps saved under `artifacts/<folder>`; stops them after the suite.
 */
export function chatSuite(folder: string): ChatSuite {
  let stack: E2eStack | undefined;
  let browser: Browser | undefined;
  let page: ChatPage | undefined;
  const artifacts = new Artifacts(path.join(__dirname, '..', 'artifacts', folder));
  beforeAll(async () => {
    stack = await startE2eStack();
    browser = await launchChromium();
    page = await ChatPage.open(browser, stack.alex, artifacts);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close(artifacts.dir);
  }, 30_000);
  return {
    stack: () => stack!,
    page: () => page!,
  };
}
