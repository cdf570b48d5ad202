import type { Browser, Locator, Page } from 'playwright-core';
import { until } from '../../support/deploymentChecks';
import type { Artifacts } from './cards';
import type { Playground } from './playground';
import { STEP_MS } from './steps';

/** Every Adaptive Card the page has drawn, in the chat's order. */
const CARDS = '.ac-adaptiveCard';

/** {@link until}, whose failure also says what the page showed (`shows`). */
async function untilShown<T>(
  what: string,
  look: () => Promise<T | undefined>,
  shows: () => Promise<string>,
  timeoutMs = STEP_MS,
): Promise<T> {
  try {
    return await until(what, look, timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}; the page shows:\n${await shows()}`);
  }
}

/**
 * The playground's web page for one person, in headless Chromium: what that person sees of their
 * personal chat with Steward and what they click. Cards are read as drawn (their visible text)
 * and answered with their drawn buttons and inputs.
 */
export class ChatPage {
  private constructor(
    readonly page: Page,
    readonly playground: Playground,
    private readonly artifacts: Artifacts,
  ) {}

  /**
   * Opens `playground`'s page and its personal chat, as a person would; opening the chat is what
   * makes the playground install the app (the bot gets conversationUpdate and installationUpdate).
   * The page may load nothing from outside this machine (its web fonts are refused).
   */
  static async open(browser: Browser, playground: Playground, artifacts: Artifacts): Promise<ChatPage> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'en-US' });
    // The page is a large script: on a loaded machine it takes tens of seconds to start and draw.
    page.setDefaultNavigationTimeout(90_000);
    page.setDefaultTimeout(60_000);
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await page.goto(playground.url, { waitUntil: 'domcontentloaded' });
    await page.getByText('Personal Chat', { exact: true }).click();
    const chat = new ChatPage(page, playground, artifacts);
    await chat.card(/Hi, I am Steward/, 60_000);
    return chat;
  }

  /** The visible text of every card on the page, in the chat's order. */
  texts(): Promise<string[]> {
    return this.page.locator(CARDS).allInnerTexts();
  }

  /** The newest card whose text matches `pattern`, once the page shows one. */
  async card(pattern: RegExp, timeoutMs = STEP_MS): Promise<DrawnCard> {
    const index = await untilShown(
      `a card showing ${pattern} in ${this.playground.user.name}'s chat`,
      async () => {
        const texts = await this.texts();
        const last = texts.findLastIndex((text) => pattern.test(text));
        return last >= 0 ? last : undefined;
      },
      () => this.shows(),
      timeoutMs,
    );
    return new DrawnCard(this, this.page.locator(CARDS).nth(index));
  }

  /** Types `text` in the chat's compose box and sends it with Enter, as a person does. */
  async type(text: string): Promise<void> {
    const box = this.page.getByRole('textbox').last();
    await box.fill(text);
    await box.press('Enter');
  }

  /** The page's whole text once it matches `pattern`: a text answer, which is not a card. */
  says(pattern: RegExp, timeoutMs = STEP_MS): Promise<string> {
    return untilShown(
      `${this.playground.user.name}'s chat to say ${pattern}`,
      async () => {
        const text = await this.page.locator('body').innerText();
        return pattern.test(text) ? text : undefined;
      },
      () => this.shows(),
      timeoutMs,
    );
  }

  /** What the page shows, for a failure's message. */
  async shows(): Promise<string> {
    return (await this.texts()).map((text, i) => `[card ${i}] ${text}`).join('\n');
  }

  /** Saves a screenshot of the whole page as the next step. */
  async screenshot(step: string): Promise<string> {
    const file = this.artifacts.next(`${this.playground.person}-${step}`, 'png');
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Saves a screenshot of `card` alone as the next step. */
  async screenshotOf(card: DrawnCard, step: string): Promise<string> {
    const file = this.artifacts.next(`${this.playground.person}-${step}`, 'png');
    await card.locator.screenshot({ path: file });
    return file;
  }

  close(): Promise<void> {
    return this.page.close();
  }
}

/** One card as the page draws it; it stays the same card when the bot updates it in place. */
export class DrawnCard {
  constructor(
    readonly chat: ChatPage,
    readonly locator: Locator,
  ) {}

  /** The card's visible text. */
  text(): Promise<string> {
    return this.locator.innerText();
  }

  /** The titles of the buttons the card shows. */
  async buttons(): Promise<string[]> {
    return (await this.locator.getByRole('button').allInnerTexts()).map((title) => title.trim());
  }

  /** Clicks the card's button titled `title`. */
  async press(title: string): Promise<void> {
    await this.locator.getByRole('button', { name: title, exact: true }).click();
  }

  /** Picks `option` among the radio buttons of the choice labelled `label`. */
  async choose(label: string, option: string): Promise<void> {
    await this.locator.getByRole('radiogroup', { name: label }).getByRole('radio', { name: option }).check();
  }

  /** The card's text once it matches `pattern` (the bot updated it, or answered in place). */
  showing(pattern: RegExp, timeoutMs = STEP_MS): Promise<string> {
    return untilShown(
      `${this.chat.playground.user.name}'s card to show ${pattern}`,
      async () => {
        const text = await this.text();
        return pattern.test(text) ? text : undefined;
      },
      () => this.chat.shows(),
      timeoutMs,
    );
  }
}
