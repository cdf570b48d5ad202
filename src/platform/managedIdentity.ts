import type { ManagedIdentityCredential } from '@azure/identity';

/**
 * Tokens for `scope` from Azure's managed identity `clientId` (user-assigned): what the bot calls
 * the API with when its registration is `MicrosoftAppType=UserAssignedMSI`. Azure's identity
 * library is loaded at the first token, so a bot with another identity never loads it.
 */
export function managedIdentityToken(clientId: string, scope: string): () => Promise<string> {
  let credential: Promise<ManagedIdentityCredential> | undefined;
  return async () => {
    credential ??= import('@azure/identity')
      .then((azure) => new azure.ManagedIdentityCredential({ clientId }))
      .catch((error: unknown) => {
        credential = undefined; // the next token tries again
        throw error;
      });
    const token = await (await credential).getToken(scope);
    if (!token) throw new Error('The managed identity returned no token for the bot.');
    return token.token;
  };
}
