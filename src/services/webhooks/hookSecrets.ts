import { Seal } from '../../domain/seal';
import type { HookSecretRepository } from '../../store/webhooks/hookSecrets';
import type { StoredHook } from '../../store/webhooks/hooks';

/** What a hook signs its deliveries with: its secret, none, or one this deployment cannot open. */
export type SigningSecret = { secret: string } | { secret: null } | { unreadable: true };

/**
 * Webhook secrets, sealed at rest like delegated grants (`domain/seal.ts`): under a key derived from
 * the deployment's sealing secret (`STEWARD_DELEGATION_KEY`, else the auth secret, else the data
 * dir's), bound to the hook's id, and opened only to sign a delivery. A secret written plaintext by
 * an earlier version is sealed at every process's start (`sealPlaintext`) and, when a delivery
 * reads one still plaintext (a process of that version wrote it during a rolling upgrade), then.
 */
export class HookSecrets {
  private readonly seal: Seal;

  constructor(
    private readonly stored: HookSecretRepository,
    sealSecret: string,
  ) {
    this.seal = new Seal(sealSecret, 'steward webhook secrets v1');
  }

  /** The text to store for hook `hookId`'s new `secret`. */
  sealFor(hookId: string, secret: string): string {
    return this.seal.seal(secret, hookId);
  }

  /** The secret `hook`'s deliveries are signed with; a plaintext one is sealed in passing. */
  async signingSecret(hook: StoredHook): Promise<SigningSecret> {
    if (hook.secret === null) return { secret: null };
    if (!hook.secretSealed) {
      await this.stored.seal(hook.id, hook.secret, this.sealFor(hook.id, hook.secret));
      return { secret: hook.secret };
    }
    const secret = this.seal.open(hook.secret, hook.id);
    return secret === undefined ? { unreadable: true } : { secret };
  }

  /** Seals every secret still plaintext; how many there were. */
  async sealPlaintext(): Promise<number> {
    const plain = await this.stored.plaintext();
    for (const { id, secret } of plain) await this.stored.seal(id, secret, this.sealFor(id, secret));
    return plain.length;
  }
}
