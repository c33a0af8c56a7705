/**
 * An MCP client's OAuth state kept in memory (what a desktop assistant keeps on disk), for the
 * tests that drive /mcp with the official SDK's client: registration, tokens, PKCE verifier, and
 * the authorization URL the SDK would open in a browser.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export class MemoryOAuthProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  /** `metadata`: the client's self-declared registration fields besides its redirect URI. */
  constructor(private readonly redirect: string, private readonly metadata: { client_name: string } & Record<string, unknown>) {}
  get redirectUrl() { return this.redirect; }
  get clientMetadata() { return { redirect_uris: [this.redirect], token_endpoint_auth_method: 'none', ...this.metadata }; }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
}
