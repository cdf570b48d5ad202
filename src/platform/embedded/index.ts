import type { DirectoryReader } from '../../domain/directory';
import type { Platform } from '../port';

/**
 * The embedded platform: a simulated tenant kept in Steward's own database. Its directory is the
 * seeded people, groups and labels; teams arrive with the provisioning engine.
 */
export function createEmbeddedPlatform(parts: { directory: DirectoryReader }): Platform {
  return { kind: 'embedded', directory: parts.directory };
}
