import { ManagedIdentityCredential } from '@azure/identity';

/**
 * Tokens for `scope` from Azure's managed identity `clientId` (user-assigned): what the bot calls
 * the API with when its registration is `MicrosoftAppType=UserAssignedMSI`.
 */
export function managedIdentityToken(clientId: string, scope: string): () => Promise<string> {
  const credential = new ManagedIdentityCredential({ clientId });
  return async () => {
    const token = await credential.getToken(scope);
    if (!token) throw new Error('The managed identity returned no token for the bot.');
    return token.token;
  };
}
